"""Reading a model's JSON answer as real models write it; nothing in it is trusted.

Small local models wrap JSON in prose or ```json fences, leave trailing commas, write Python
literals (single quotes, True/None), stop mid-answer at the token limit, answer a list where a map
was asked for (``[{"party": "p1", "action": "rewrite"}]`` for ``{"p1": "rewrite"}``), key items by
id instead of listing them, or echo the request back. These helpers read what can be read and say
what could not; the caller decides what of it to keep.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from typing import Any

_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_PYTHON_LITERAL = re.compile(r"\b(True|False|None)\b|'")


def json_value(text: str) -> Any:
    """The first JSON object, or list of objects, in ``text`` (inside prose or fences), or None.

    Trailing commas are forgiven, and so are Python literals (single quotes, True/None).
    """
    if not isinstance(text, str):
        return None
    for candidate in dict.fromkeys((text, _TRAILING_COMMA.sub(r"\1", text))):
        value = _first_json(candidate)
        if value is not None:
            return value
    for start in _openings(text):
        value = _python_literal(text, start)
        if _wanted(value):
            return value
    return None


def json_object(text: str) -> dict[str, Any] | None:
    """The first complete JSON object in ``text``, or None."""
    value = json_value(text)
    return value if isinstance(value, dict) else None


def _openings(text: str) -> Iterable[int]:
    return (i for i, char in enumerate(text) if char in "{[")


def _wanted(value: Any) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, dict) for v in value))


def _first_json(text: str) -> Any:
    decoder = json.JSONDecoder()
    for start in _openings(text):
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if _wanted(value):
            return value
    return None


def _python_literal(text: str, start: int) -> Any:
    """A Python-literal dict or list (single quotes, True/None) starting at ``start``, or None."""
    if not _PYTHON_LITERAL.search(text, start, start + 2000):
        return None
    end = _matching_close(text, start)
    if end is None:
        return None
    try:
        value = ast.literal_eval(text[start : end + 1])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, (dict, list)) else None


def _matching_close(text: str, start: int) -> int | None:
    """The index of the bracket closing the one at ``start`` (quotes respected), or None."""
    depth, quote, escaped = 0, None, False
    for i in range(start, len(text)):
        char = text[i]
        if quote:
            escaped = char == "\\" and not escaped
            if char == quote and not escaped:
                quote = None
            continue
        if char in "\"'":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return i
    return None


def complete_objects(text: str, key: str) -> list[dict[str, Any]]:
    """The complete objects of the list under ``"key"`` in an answer cut off mid-list (a token limit)."""
    match = re.search(rf'"{re.escape(key)}"\s*:\s*\[', text)
    if match is None:
        return []
    decoder = json.JSONDecoder()
    items, position = [], match.end()
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        try:
            value, position = decoder.raw_decode(text, position)
        except ValueError:
            return items
        if isinstance(value, dict):
            items.append(value)


def items_of(text: str, key: str, id_fields: tuple[str, ...] = ("id",)) -> list[dict[str, Any]]:
    """The items an answer gives under ``key``, however it lays them out.

    ``{"key": [...]}``, a bare list, ``{"key": {"F1": {...}}}`` or ``{"F1": {...}}`` (items keyed by
    id: the id is put into each item under the first of ``id_fields``), one bare item, or the
    complete items of an answer cut off mid-list.
    """
    data = json_value(text)
    if isinstance(data, dict) and key in data:
        data = data[key]
    else:
        salvaged = complete_objects(text, key) if isinstance(text, str) else []
        if salvaged:  # the list under "key" never closed: what was read first is one of its items
            return salvaged
    if isinstance(data, list):
        return [item for item in data if isinstance(item, dict)]
    if isinstance(data, dict):
        if any(field in data for field in id_fields):
            return [data]
        return [{id_fields[0]: k, **v} for k, v in data.items() if isinstance(v, dict)]
    return []


def as_map(value: Any, key_fields: tuple[str, ...], value_fields: tuple[str, ...]) -> dict[str, Any]:
    """A map from a map, or from the lists models write for one.

    ``{"p1": "rewrite"}`` stays; ``[{"party": "p1", "action": "rewrite"}]`` (a key field and a value
    field per item), ``[["p1", "rewrite"]]`` and ``[{"p1": "rewrite"}]`` become ``{"p1": "rewrite"}``.
    Anything else gives ``{}``.
    """
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    if not isinstance(value, list):
        return {}
    out: dict[str, Any] = {}
    for item in value:
        if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
            out[item[0]] = item[1]
        elif isinstance(item, dict):
            key = next((item[f] for f in key_fields if isinstance(item.get(f), str)), None)
            if key is not None:
                out[key] = next((item[f] for f in value_fields if f in item), None)
            elif len(item) == 1:
                (k, v), = item.items()
                out[str(k)] = v
    return out


def short_text(value: Any, limit: int = 1200) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = " ".join(value.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def texts(value: Any) -> list[str]:
    """Strings from a string or a list of strings (a model's "quotes": "..." for ["..."])."""
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
