"""Writes the playbook's two JSON Schemas from their models: ``python -m conflictkit.playbook.schemas``.

``playbook.schema.json`` (the YAML format, :mod:`conflictkit.playbook.model`) and
``playbook-review.schema.json`` (review.json, :mod:`conflictkit.playbook.output`) live with the
other schemas in ``conflictkit/report/schemas/``; a test fails when either is out of date.
"""

from __future__ import annotations

import json

from conflictkit.playbook.model import playbook_json_schema
from conflictkit.playbook.output import review_json_schema
from conflictkit.report.schemas import FILES, HERE, PLAYBOOK_REVIEW_SCHEMA, PLAYBOOK_SCHEMA


def generated() -> dict[str, str]:
    """File name -> the schema's text, as it should be on disk."""
    return {FILES[name]: json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
            for name, schema in ((PLAYBOOK_SCHEMA, playbook_json_schema()), (PLAYBOOK_REVIEW_SCHEMA, review_json_schema()))}


if __name__ == "__main__":
    for name, text in generated().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote {HERE / name}")
