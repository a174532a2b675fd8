"""Reading a model's JSON answer: the object inside prose or code fences; nothing else is trusted."""

from __future__ import annotations

import json
from typing import Any


def json_object(text: str) -> dict[str, Any] | None:
    """The first complete JSON object in ``text`` (a model may wrap it in prose or ```json fences), or None."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def has_list(key: str):
    """An answer check for :meth:`ChatClient.complete`: a JSON object with a list under ``key``."""
    def check(text: str) -> bool:
        data = json_object(text)
        return data is not None and isinstance(data.get(key), list)
    return check


def short_text(value: Any, limit: int = 1200) -> str | None:
    if not isinstance(value, str) or not value.strip():
        return None
    text = " ".join(value.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
