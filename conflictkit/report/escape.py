"""Making document text harmless where it is shown: terminals and Markdown viewers.

Documents are hostile input. Text from them must not drive a terminal (an ESC sequence can clear
the screen, set the window title or fake output) nor a Markdown viewer (``<script>`` renders,
``![](http://...)`` fetches). JSON needs none of this: it is exact by design.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (0x9b is an 8-bit CSI on some terminals), and the
# bidirectional overrides and isolates that reorder what a reader sees (the "Trojan Source" marks).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_JSON_C1 = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

# The characters that open inline syntax in CommonMark or GFM (code, emphasis, links and images, raw
# HTML and autolinks, entities, table cells, strikethrough, headings) and our own ``{+insert+}`` marks.
_MD_INLINE = re.compile(r"([\\`*_{}\[\]<&|~#])")
# What opens a block at the start of a line: a quote, a list item (``-``, ``+``, ``1.``, ``1)``), a rule.
_MD_BLOCK_START = re.compile(r"^(>|[-+=](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")
_SPACES = re.compile(r"\s+")


def _visible(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}" if ord(match.group()) < 0x100 else f"\\u{ord(match.group()):04x}"


def sanitize_controls(text: str) -> str:
    """``text`` with every control character that could drive a terminal shown as ``\\x1b``-style text.

    Tab and newline are kept; nothing else is removed, so a reader still sees that something was there.
    """
    return _CONTROLS.sub(_visible, text)


def json_for_terminal(text: str) -> str:
    """Serialized JSON with the characters JSON leaves raw but terminals obey written as ``\\u`` escapes.

    ``json.dumps`` already escapes C0 controls; DEL, C1 and bidi controls may only occur inside
    strings, where ``\\u009b`` is the same value, so the JSON stays exact.
    """
    return _JSON_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def escape_markdown(text: str) -> str:
    """Document text as literal Markdown: one line, every syntax character backslash-escaped.

    CommonMark allows a backslash before any ASCII punctuation and renders the character itself,
    so ``<script>`` stays text, ``![x](http://...)`` is no image and ``**`` no emphasis; line breaks
    and runs of spaces become one space so the text cannot open a block (a heading, a list, a quote).
    """
    flat = _SPACES.sub(" ", sanitize_controls(text)).strip()
    escaped = _MD_INLINE.sub(r"\\\1", flat)
    match = _MD_BLOCK_START.match(escaped)
    if match is None:
        return escaped
    if match.group(1)[0].isdigit():  # "1." -> "1\." : the escape goes on the delimiter
        end = match.end()
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped
