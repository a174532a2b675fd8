"""Making document text harmless where it is shown: terminals and Markdown viewers.

Documents are hostile input. Text from them must not drive a terminal (an ESC sequence can clear
the screen, set the window title or fake output) nor a Markdown viewer (``<script>`` renders,
``![](http://...)`` fetches). JSON needs none of this: it is exact by design.
"""

from __future__ import annotations

import re
from functools import cache

# C0 controls but tab and newline, DEL, C1 controls (0x9b is an 8-bit CSI on some terminals), and the
# bidirectional overrides and isolates that reorder what a reader sees (the "Trojan Source" marks).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_JSON_C1 = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")  # surrogates: a file name's undecodable bytes

# The characters that open inline syntax in CommonMark or GFM (code, emphasis, links and images,
# entities, table cells, strikethrough, headings) and our own ``{+insert+}`` marks; tags: _TAG_OPEN.
_MD_INLINE = re.compile(r"([\\`*_{}\[\]&|~#])")
# The characters that may open syntax where they stand: a backslash before punctuation, code, emphasis
# stars, underscores at a word's edge, entities, link and image brackets,
# strikethrough, and our own insertion marks. Checked by rendering, so a miss falls back to _MD_INLINE.
_MD_RISKY = re.compile(
    r"(\\(?=[!-/:-@\[-`{-~])|`|\*|&(?=#?\w+;)|!(?=\[)|\[(?=[^\]]*\][(\[:])|~(?=~)"
    r"|\{(?=\+)|(?<=\+)\})"
)
_UNDERSCORE_RUN = re.compile(r"(?<!\\)_+")
_MD_ANY = re.compile(r"[\\`*_<&!\[~{}#>|+=0-9-]")
# What opens a block at the start of a line: a quote, a list item (``-``, ``+``, ``1.``, ``1)``), a rule.
_MD_BLOCK_START = re.compile(r"^(>|[-+=](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")
_SPACES = re.compile(r"\s+")
_ASCII_PUNCT = re.compile(r"([!-/:-;=-@\[-`{-~])")  # "<" aside: _TAG_OPEN writes it
# A "<" that could open a tag or an autolink is written as an entity, which every Markdown renders as
# "<": Markdown.pl and Python-Markdown do not honour a backslash before it and pass "\<script>" on as a tag.
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")


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
    strings, where ``\\u009b`` is the same value, so the JSON stays exact. A lone surrogate (a file
    name's undecodable byte) becomes its ``\\udcXX`` escape rather than a byte that is not UTF-8.
    """
    return _JSON_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def escape_markdown(text: str, *, midline: bool = False) -> str:
    """Document text as literal Markdown, on one line, with as few backslashes as it takes.

    Line breaks and runs of spaces become one space, so the text cannot open a block (a heading, a
    list, a quote). A character is escaped only where it could start syntax (``**``, ``&amp;``,
    ``[x](url)``, `````, ``~~``, our own ``{+``...); the result is checked by rendering it, and text
    that still would not read as itself gets every syntax character escaped (CommonMark allows a
    backslash before any ASCII punctuation), so ``![x](http://...)`` is no image in any viewer, while
    ordinary prose carries no backslash. A ``<`` that could open a tag is written ``&lt;``, so
    ``<script>`` stays text in every Markdown dialect, not only in CommonMark.
    ``midline``: the text goes after other text on its line, where it cannot open a block.
    """
    flat = _SPACES.sub(" ", sanitize_controls(text)).strip()
    if not _MD_ANY.search(flat):
        return flat
    block = (lambda s: s) if midline else _block_start

    def start(escaped: str) -> str:
        return block(_TAG_OPEN.sub("&lt;", escaped))

    prefix = "x " if midline else ""
    light = start(_UNDERSCORE_RUN.sub(_escape_run, _MD_RISKY.sub(r"\\\1", flat)))
    if _reads_as(prefix + light, prefix + flat):
        return light
    full = start(_MD_INLINE.sub(r"\\\1", flat))
    return full if _reads_as(prefix + full, prefix + flat) else _TAG_OPEN.sub("&lt;", _ASCII_PUNCT.sub(r"\\\1", flat))


def _escape_run(match: re.Match[str]) -> str:
    """A run of underscores inside a word stays as it is ("snake_case"); any other gets its first one escaped,
    which leaves the rest of the run unable to open emphasis ("By: \\______" is a blank to fill in)."""
    text, start, end = match.string, match.start(), match.end()
    inside = 0 < start and end < len(text) and text[start - 1].isalnum() and text[end].isalnum()
    return match.group() if inside else "\\" + match.group()


def escape_cell(text: str) -> str:
    """Document text for a Markdown table cell: :func:`escape_markdown` with the cell delimiter escaped too."""
    return escape_markdown(text).replace("|", "\\|") or " "


def _block_start(escaped: str) -> str:
    match = _MD_BLOCK_START.match(escaped)
    if match is None:
        return escaped
    if match.group(1)[0].isdigit():  # "1." -> "1\." : the escape goes on the delimiter
        end = match.end()
        return escaped[:end] + "\\" + escaped[end:]
    return "\\" + escaped


@cache
def _inline_parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _reads_as(markdown: str, text: str) -> bool:
    """Whether ``markdown`` renders as one paragraph holding exactly ``text`` and no element."""
    tokens = _inline_parser().parse(markdown)
    if [t.type for t in tokens] != ["paragraph_open", "inline", "paragraph_close"]:
        return False
    children = tokens[1].children or []
    if any(child.type not in ("text", "text_special") for child in children):
        return False
    return "".join(child.content for child in children) == text
