"""Strip markdown and inline HTML from a clause's text, keeping every word.

Clause spans still point at the original (markup and all); only ``Clause.text``, which models and
judges read, loses the markup. Both are deterministic, so a test can recompute a clause's text from
its span: ``clause_text(original[span]) == clause.text``. :func:`markup_free` does the same
stripping with a map back to the original offsets, for what shows text to a reader (a redline):
tags and entities are never compared and never shown, and every offset still slices the original.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import numpy as np

from conflictkit.normalize import flat, normalize, rewrite

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
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
_QUOTE_MARKS = re.compile(r"\n[ \t]*(?:>[ \t]?)+")  # blockquote marks opening a continuation line

# A replacement is a literal, a group number (keep that group's characters) or a function of the match.
_Replacement = str | int | Callable[[re.Match[str]], str]
_Step = tuple[str, re.Pattern[str], _Replacement]  # (a character the step needs, pattern, replacement)

_STEPS: tuple[_Step, ...] = (
    ("<", _COMMENT, " "),
    ("<", _TAG, ""),
    ("[", _IMAGE, 1),
    ("[", _WIKI, 1),
    ("[", _LINK, 1),
    ("[", _REF_LINK, 1),
    ("*_~`", _STRONG, ""),
    ("*_", _EM_OPEN, ""),
    ("*_", _EM_CLOSE, ""),
    ("\\", _ESCAPE, 1),
    ("&", _ENTITY, lambda m: normalize(html.unescape(m.group())).text),  # "&nbsp;" is a space, "&rsquo;" a quote
    ("#", _TRAILING_HASHES, ""),
    ("|", _PIPES, " | "),
    (" :", _SPACED_COLON, ":"),
)


def _needed(trigger: str, text: str) -> bool:
    if len(trigger) == 1:
        return text.endswith("#") if trigger == "#" else trigger in text
    if trigger == " :":
        return " :" in text
    return any(c in text for c in trigger)


def _replace(m: re.Match[str], replacement: _Replacement) -> str:
    if isinstance(replacement, int):
        return m.group(replacement)
    if callable(replacement):
        return replacement(m)
    return replacement


def _as_sub(replacement: _Replacement):
    """The replacement in the form ``re.sub`` takes (no literal here holds a backslash)."""
    return f"\\{replacement}" if isinstance(replacement, int) else replacement


_SUBS = tuple((trigger, pattern, _as_sub(replacement)) for trigger, pattern, replacement in _STEPS)


def strip_markup(text: str) -> str:
    """``text`` (already flattened) without markdown emphasis, links, heading marks, table pipes or HTML tags."""
    if not text:
        return text
    for trigger, pattern, replacement in _SUBS:
        if trigger in text if len(trigger) == 1 and trigger != "#" else _needed(trigger, text):
            text = pattern.sub(replacement, text)
            if pattern is _PIPES:
                text = text.strip(" |")
    if "  " in text:
        text = _SPACES.sub(" ", text)
    return text.strip()


def drop_quote_marks(text: str) -> str:
    """``text`` without the blockquote marks (``>``) that open its continuation lines."""
    return _QUOTE_MARKS.sub("\n", text) if ">" in text else text


def clause_text(span_text: str) -> str:
    """The compared text of a clause from its span in the original: flattened, without markup."""
    lines = normalize(span_text).text  # line breaks as the segmenter sees them (CRLF, U+2029) before quote marks go
    return strip_markup(flat(drop_quote_marks(lines)))


def markup_free(text: str) -> tuple[str, np.ndarray]:
    """``text`` without markup, as :func:`strip_markup` removes it, and where each character came from.

    Returns ``(clean, offsets)``: ``offsets[i]`` is the index in ``text`` of ``clean[i]`` (a kept
    link text maps to itself, a decoded entity to its ``&``); ``offsets[len(clean)] == len(text)``.
    Typography is normalized first (an invisible character inside ``<span`` must not hide the tag).
    """
    normalized = normalize(text)
    text, offsets = normalized.text, normalized.offsets
    for trigger, pattern, replacement in ((">", _QUOTE_MARKS, "\n"), *_STEPS):
        if not _needed(trigger, text):
            continue
        text, index = _rewrite(text, pattern, replacement)
        offsets = offsets[index]
    return text, offsets


def _rewrite(text: str, pattern: re.Pattern[str], replacement: _Replacement) -> tuple[str, np.ndarray]:
    """Substitute every match, returning the new text and the index in ``text`` of each new character."""
    if isinstance(replacement, int):  # a kept group keeps its own positions
        return rewrite(text, pattern, lambda m: (m.group(replacement),
                                                 np.arange(m.start(replacement), m.end(replacement), dtype=np.int64)))
    return rewrite(text, pattern, lambda m: (_replace(m, replacement), m.start()))
