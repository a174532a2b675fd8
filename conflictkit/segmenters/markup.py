"""Strip markdown and inline HTML from a clause's flattened text, keeping every word.

Clause spans still point at the original (markup and all); only ``Clause.text``, which models and
judges read, loses the markup. ``strip_markup`` is deterministic, so a test can recompute a clause's
text from its span: ``strip_markup(flat(original[span])) == clause.text``.
"""

from __future__ import annotations

import html
import re

_COMMENT = re.compile(r"<!--.*?-->")
_TAG = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:[^()\s]|\([^)]*\))*(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\[([^\[\]]+)\]\((?:[^()\s]|\([^)]*\))*(?:\s+\"[^\"]*\")?\)")
_WIKI = re.compile(r"\[\[([^\[\]]+)\]\]")
_REF_LINK = re.compile(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_STRONG = re.compile(r"\*\*|(?<!_)__(?!_)|~~|`+")  # "____" is a blank to fill in, not emphasis
_EM_OPEN = re.compile(r"(?<![\w*\\])[*_](?=[^\s*_])")
_EM_CLOSE = re.compile(r"(?<=[^\s*_\\])[*_](?![\w*])")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
_TRAILING_HASHES = re.compile(r"\s+#+$")
_PIPES = re.compile(r"\s*\|(?:\s*\|)*\s*")
_SPACES = re.compile(r"\s+")
_SPACED_COLON = re.compile(r"(?<=\w)\s+:(?=\s|$)")  # "Term\n: value" (a definition list) reads "Term: value"
_ENTITY = re.compile(r"&(?:[A-Za-z]{2,8}|#\d{1,6}|#x[0-9A-Fa-f]{1,6});")


def strip_markup(text: str) -> str:
    """``text`` (already flattened) without markdown emphasis, links, heading marks, table pipes or HTML tags."""
    if not text:
        return text
    if "<" in text:
        text = _COMMENT.sub(" ", text)
        text = _TAG.sub("", text)
    if "[" in text:
        text = _IMAGE.sub(r"\1", text)
        text = _WIKI.sub(r"\1", text)
        text = _LINK.sub(r"\1", text)
        text = _REF_LINK.sub(r"\1", text)
    if "*" in text or "_" in text or "~" in text or "`" in text:
        text = _STRONG.sub("", text)
        text = _EM_OPEN.sub("", text)
        text = _EM_CLOSE.sub("", text)
    if "\\" in text:
        text = _ESCAPE.sub(r"\1", text)
    if "&" in text:
        text = _ENTITY.sub(lambda m: html.unescape(m.group()), text)
    if text.endswith("#"):
        text = _TRAILING_HASHES.sub("", text)
    if "|" in text:
        text = _PIPES.sub(" | ", text).strip(" |")
    if " :" in text:
        text = _SPACED_COLON.sub(":", text)
    if "  " in text:
        text = _SPACES.sub(" ", text)
    return text.strip()
