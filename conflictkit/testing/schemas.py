"""Validating report.json, pairs.json and params.json against the shipped JSON Schemas, for tests.

``assert_valid(document)`` picks the schema from the document's own ``schema`` field and raises
AssertionError listing every violation with its JSON path. Needs ``jsonschema`` (the ``test`` extra).
"""

from __future__ import annotations

from conflictkit.report.schemas import FILES, load_schema


def _validator(name: str):
    try:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
    except ImportError:
        raise ImportError("schema checks need jsonschema: pip install 'conflictkit[test]'") from None
    resources = [(s["$id"], Resource.from_contents(s)) for s in map(load_schema, FILES)]
    return Draft202012Validator(load_schema(name), registry=Registry().with_resources(resources),
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def schema_errors(document: dict, name: str | None = None) -> list[str]:
    """Every violation of ``document`` against its schema (``name``, else its ``schema`` field), as ``path: message``."""
    name = name or document.get("schema")
    if name not in FILES:
        return [f"$.schema: {name!r} is not one of {', '.join(FILES)}"]
    from jsonschema.exceptions import best_match

    # best_match descends into anyOf alternatives, so "null or a quote" names the quote's bad field.
    errors = [best_match([e]) for e in _validator(name).iter_errors(document)]
    errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
    return [f"$.{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in errors]


def assert_valid(document: dict, name: str | None = None) -> None:
    """Raise AssertionError unless ``document`` is valid against its JSON Schema."""
    errors = schema_errors(document, name)
    assert not errors, f"{len(errors)} schema violation(s):\n" + "\n".join(errors[:20])
