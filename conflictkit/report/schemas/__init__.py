"""JSON Schemas (draft 2020-12) of the files a comparison writes, shipped with the package.

``load_schema("conflictkit.report/1")`` (or ``"report"``) returns the schema as a dict; the files
themselves are ``report.schema.json``, ``pairs.schema.json`` and ``params.schema.json`` in this
directory. The pairs schema refers to the report schema's reason by its ``$id``. The playbook format
(``playbook.schema.json``) and a playbook review (``playbook-review.schema.json``) are generated from
their pydantic models (``python -m conflictkit.playbook.schemas``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from conflictkit.report import PAIRS_SCHEMA, PARAMS_SCHEMA, REPORT_SCHEMA

HERE = Path(__file__).resolve().parent
PLAYBOOK_SCHEMA = "conflictkit.playbook/1"
PLAYBOOK_REVIEW_SCHEMA = "conflictkit.playbook-review/1"
FILES = {REPORT_SCHEMA: "report.schema.json", PAIRS_SCHEMA: "pairs.schema.json", PARAMS_SCHEMA: "params.schema.json",
         PLAYBOOK_SCHEMA: "playbook.schema.json", PLAYBOOK_REVIEW_SCHEMA: "playbook-review.schema.json"}
"""Schema name (the ``schema`` field of each file) -> the JSON Schema file that describes it."""


def schema_path(name: str) -> Path:
    """The schema file for ``name``: a schema id (``conflictkit.report/1``) or a short name (``report``)."""
    for schema_id, file in FILES.items():
        if name in (schema_id, file.split(".")[0]):
            return HERE / file
    raise KeyError(f"no JSON Schema for {name!r}; known: {', '.join(FILES)}")


@cache
def load_schema(name: str) -> dict:
    """The JSON Schema for ``name`` as a dict (cached; do not modify it)."""
    return json.loads(schema_path(name).read_text(encoding="utf-8"))
