"""Numbering labels at the start of a line: "4.2", "(a)", "iv.", "Section 4", "Article IV", "§ 4".

A :class:`Label` says how a block is numbered, which tells the tree builder where it nests:
``style`` groups labels that are siblings of each other (all "(a)"-style items of one list),
``parts`` holds the decimal components of "4.2.1", ``value`` the rendered number of an item.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.lexicon import LanguagePack
from conflictkit.segmenters.words import words

# Bullets, including the private-use glyphs Word's Symbol font leaves in converted text.
BULLETS = "-*+\u2022\u00b7\u25aa\u25cf\u2023\u25e6\u2043\uf0b7\uf0a7\uf076\uf0d8"

_DECIMAL = re.compile(
    r"(?P<num>\d{1,3}(?:\.\d{1,3})+)\.?(?=[ ]|$)|(?P<one>\d{1,3})[.)](?=[ ]|$)"
    r"|(?P<bare>\d{1,3})[ ]{1,4}(?=[A-Z][A-Z][A-Z ,;&'/-]*$)"  # "1 DEFINITIONS AND INTERPRETATION" (UK style)
)
_ENUM_PAREN = re.compile(r"\((?P<tok>[a-z]{1,3}|[A-Z]{1,3}|\d{1,3})\)(?=[ ]|$)")
_ENUM_DOT = re.compile(r"(?P<tok>[a-zA-Z]|[ivxlc]{2,6}|[IVXLC]{2,6})(?P<close>[.)])(?=[ ]|$)")
_BULLET = re.compile(f"[{re.escape(BULLETS)}](?=[ ]|$)")
_ROMAN = re.compile(r"(?=[ivxlc])c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})", re.IGNORECASE)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


@dataclass(frozen=True)
class Label:
    """A numbering label: its text, where it ends in the line, and how it nests.

    ``kind`` is one of "top" (Article IV), "decimal" (4.2, Section 4.2, 4.), "enum" ((a), iv.),
    "bullet" (-, *). ``token`` is the enum token ("a", "iv", "3"), ``wrap`` its punctuation.
    """

    text: str
    end: int  # offset in the line content just past the label
    kind: str
    parts: tuple[int, ...] = ()
    token: str = ""
    wrap: str = ""
    keyword: str = ""

    @property
    def is_list_marker(self) -> bool:
        """Single-number, enum and bullet markers: the ones markdown nests by indentation."""
        return self.kind in ("enum", "bullet") or (self.kind == "decimal" and len(self.parts) == 1 and not self.keyword)


def is_roman(token: str) -> bool:
    """True for a valid lower- or upper-case roman numeral up to 399 ("iv", "XII"); false for "il"."""
    return bool(token) and (token.islower() or token.isupper()) and _ROMAN.fullmatch(token) is not None


def roman_value(token: str) -> int:
    """The integer value of a roman numeral (assumed valid)."""
    total, prev = 0, 0
    for ch in reversed(token.lower()):
        v = _ROMAN_VALUES[ch]
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


def _keyword_label(content: str, pack: LanguagePack | None = None) -> Label | None:
    w = words(pack)
    m = w.keyword.match(content)
    if m is None:
        return None
    kw = m.group("kw")
    num = m.group("num")
    low = kw.lower()
    if low in w.top_keywords:
        return Label(text=f"{kw.capitalize() if kw.isupper() else kw} {num}", end=m.end(), kind="top", keyword=low,
                     token=num)
    parts = tuple(int(p) for p in re.findall(r"\d+", num)) if num[0].isdigit() else ()
    if not parts:
        return None
    shown = "§" if kw.startswith("§") else (kw.capitalize() if kw.isupper() else kw)
    return Label(text=f"{shown} {num}", end=m.end(), kind="decimal", parts=parts, keyword=low)


def parse_label(content: str, pack: LanguagePack | None = None) -> Label | None:
    """The numbering label at the start of ``content`` (a line without its indentation), if any; keyword
    labels ("Section 4", "Article IV") in the pack's words (``segmenter.yaml``)."""
    if not content:
        return None
    first = content[0]
    if first == "(":
        m = _ENUM_PAREN.match(content)
        if m:
            tok = m.group("tok")
            if tok.isdigit():
                return Label(text=m.group(), end=m.end(), kind="enum", token=tok, wrap="()")
            if len(tok) > 1 and not is_roman(tok) and len(set(tok)) != 1:
                return None  # "(ab)" is not a label; "(aa)" continues a lettered list past "(z)"
            return Label(text=m.group(), end=m.end(), kind="enum", token=tok, wrap="()")
        return None
    if first.isdigit():
        m = _DECIMAL.match(content)
        if m is None:
            return None
        num = m.group("num") or m.group("one") or m.group("bare")
        return Label(text=num, end=m.end(), kind="decimal", parts=tuple(int(p) for p in num.split(".")))
    if first in BULLETS:
        m = _BULLET.match(content)
        if m and not content.startswith(("**", "__")):
            return Label(text=first, end=m.end(), kind="bullet")
        return None
    if first in words(pack).keyword_starts:
        label = _keyword_label(content, pack)
        if label is not None:
            return label
    if first.isalpha():
        m = _ENUM_DOT.match(content)
        if m:
            tok = m.group("tok")
            if len(tok) > 1 and not is_roman(tok):
                return None
            return Label(text=m.group(), end=m.end(), kind="enum", token=tok, wrap=m.group("close"))
    return None


def enum_styles(label: Label) -> tuple[str, ...]:
    """The list styles an enum label may belong to; "(i)" may be roman or the letter after "(h)"."""
    tok, wrap = label.token, label.wrap
    case = "upper" if tok.isupper() else "lower"
    if tok.isdigit():
        return (f"digit{wrap}",)
    styles: list[str] = []
    if len(tok) == 1 or len(set(tok)) == 1:
        styles.append(f"alpha-{case}{wrap}")
    if is_roman(tok):
        styles.append(f"roman-{case}{wrap}")
    return tuple(styles)


def enum_value(label: Label, style: str) -> int:
    """The ordinal of an enum token in ``style``: (c) -> 3, (iv) -> 4, (aa) -> 27, (3) -> 3."""
    tok = label.token
    if style.startswith("digit"):
        return int(tok)
    if style.startswith("roman"):
        return roman_value(tok)
    return (ord(tok[0].lower()) - ord("a") + 1) + 26 * (len(tok) - 1)
