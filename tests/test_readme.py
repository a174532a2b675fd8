"""The README's example output is what the code prints today (scripts/readme_example.py regenerates it)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script():
    spec = importlib.util.spec_from_file_location("readme_example", ROOT / "scripts" / "readme_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_example_output_is_current():
    script = load_script()
    readme = script.README.read_text(encoding="utf-8")
    fresh = script.updated_readme(readme, script.run_compare())
    assert fresh == readme, "README.md's example output is stale: run .venv/bin/python scripts/readme_example.py"


def test_a_stale_example_is_detected():
    script = load_script()
    output = script.run_compare()
    stale = f"intro\n{script.START}\n```\nF0004  DEVIATION p=0.93 ...\n```\n{script.END}\nrest\n"
    fresh = script.updated_readme(stale, output)
    assert fresh != stale and fresh.startswith("intro\n") and fresh.endswith("rest\n")
    assert script.excerpt(output) in fresh and "spans grounded" in fresh


def test_every_limit_is_documented_in_the_limits_section():
    from conflictkit.config import Limits
    from conflictkit.segmenters.rules import RulesSegmenterOptions

    assert "(docs/formats.md#limits)" in (ROOT / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = page[page.index("\n## Limits\n"):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    for name, field in Limits.model_fields.items():
        assert f"`limits.{name}`" in section, f"limits.{name} is not in docs/formats.md's Limits section"
        assert field.description, f"limits.{name} has no description"
    assert "`pipeline.segmenter.options.max_chars`" in section and f"{RulesSegmenterOptions().max_chars:,}" in section
