"""A deterministic stand-in for Kanon 2 Enricher: plain text in, an ILGS v1 document (a dict) out.

It reads the structure a contract's typography shows (markdown headings, numbering such as
``1.`` / ``1.2`` / ``(a)``, bold inline titles, quoted defined terms, signature blocks, footnotes)
and returns what the real enricher returns for such text: nested segments (container / unit /
item) with spans, codes, titles and categories, terms with name and meaning spans, headings and
junk. Spans are code-point offsets into the text sent, half-open, well nested, never empty and
never starting or ending at whitespace, as the ILGS schema promises.

It is a fake for tests, not a segmenter: it knows nothing the text's layout does not show.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADING = re.compile(r"(#{1,6})[ \t]+(.*?)[ \t#]*$")
_NUMBERED = re.compile(r"[ \t]*(?:(?P<num>\d+(?:\.\d+)*)\.?|\((?P<item>[a-z]{1,3}|[ivxlc]+|\d+)\))[ \t]+")
_CODE_IN_HEADING = re.compile(
    r"(?:(?P<tn>Section|Article|Clause|Schedule|Exhibit|Annex|Appendix|Part)[ \t]+(?P<named>\d+(?:\.\d+)*|[IVXLC]+|[A-Z])"
    r"|(?P<num>\d+(?:\.\d+)*))\b\.?(?:[ \t]+|$)"
)
_BOLD_TITLE = re.compile(r"\*\*(?P<title>[^*\n]{1,80}?)\.?\*\*")
_PLAIN_TITLE = re.compile(r"(?P<title>(?:[A-Z][\w'&-]*)(?:[ \t]+(?:[A-Z][\w'&-]*|and|of|or|to|the|for|in)){0,5})\.[ \t]")
_JUNK = re.compile(r"[ \t]*(?:Page[ \t]+\d+(?:[ \t]+of[ \t]+\d+)?|-[ \t]*\d+[ \t]*-)[ \t]*$", re.IGNORECASE)
_FOOTNOTE = re.compile(r"\[\^\w+\]:")
_SIGNATURE = re.compile(r"^(?:By|Name|Title|Signature|Signed)[ \t]*:", re.MULTILINE)
_BACK = re.compile(r"signature|in witness|execution", re.IGNORECASE)
_SCOPE = re.compile(r"definition|interpretation|governing law", re.IGNORECASE)
_ANNEX = re.compile(r"schedule|exhibit|annex|appendix", re.IGNORECASE)
_TERM_MEANS = re.compile(r"[\"\u201c](?P<name>[^\"\u201d\n]{1,60})[\"\u201d][ \t]+(?P<meaning>(?:means|shall mean|has the meaning|includes)\b[^\n]*?(?:\.(?=\s|$)|$))", re.MULTILINE)
_TERM_PAREN = re.compile(r"\((?:the |a |an )?[\"\u201c](?P<name>[^\"\u201d\n]{1,60})[\"\u201d]\)")


@dataclass
class _Seg:
    id: str
    kind: str
    type: str | None
    category: str
    start: int
    end: int
    rank: int
    parent: _Seg | None = None
    code: tuple[int, int] | None = None
    title: tuple[int, int] | None = None
    type_name: tuple[int, int] | None = None
    children: list[_Seg] = field(default_factory=list)

    @property
    def level(self) -> int:
        return 0 if self.parent is None else self.parent.level + 1


def _span(start: int, end: int) -> dict:
    return {"start": start, "end": end}


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _blocks(text: str) -> list[tuple[int, int]]:
    """Paragraph-like blocks: blank lines end a block; a heading, numbered line or footnote starts one."""
    blocks: list[tuple[int, int]] = []
    start = None
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.strip()
        opens = bool(_HEADING.match(line) or _NUMBERED.match(line) or _FOOTNOTE.match(line) or _JUNK.match(line))
        if not body or opens:
            if start is not None:
                blocks.append(_trimmed(text, start, pos))
            start = None
        if body:
            if start is None:
                start = pos
            if _HEADING.match(line) or _JUNK.match(line):
                blocks.append(_trimmed(text, start, pos + len(line)))
                start = None
        pos += len(line)
    if start is not None:
        blocks.append(_trimmed(text, start, pos))
    return [b for b in blocks if b[0] < b[1]]


class _Builder:
    """Builds the segment tree block by block with a stack of open segments."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.roots: list[_Seg] = []
        self.stack: list[_Seg] = []
        self.count = 0
        self.headings: list[tuple[int, int]] = []
        self.junk: list[tuple[int, int]] = []
        self.title: tuple[int, int] | None = None
        self.category = "front_matter"
        self.scope_rank: int | None = None

    def build(self) -> list[_Seg]:
        for start, end in _blocks(self.text):
            self._block(start, end)
        return self.roots

    def _open(self, seg: _Seg) -> _Seg:
        while self.stack and self.stack[-1].rank >= seg.rank:
            self.stack.pop()
        if self.scope_rank is not None and seg.rank <= self.scope_rank:
            self.scope_rank = None
            if self.category == "scope":
                self.category = "main"
        seg.parent = self.stack[-1] if self.stack else None
        (seg.parent.children if seg.parent else self.roots).append(seg)
        self.stack.append(seg)
        self._extend(seg.end)
        return seg

    def _extend(self, end: int) -> None:
        for open_seg in self.stack:
            open_seg.end = max(open_seg.end, end)

    def _new(self, kind: str, type_: str | None, start: int, end: int, rank: int, category: str | None = None) -> _Seg:
        self.count += 1
        return _Seg(f"seg:{self.count - 1}", kind, type_, category or self.category, start, end, rank)

    def _block(self, start: int, end: int) -> None:
        chunk = self.text[start:end]
        if _JUNK.fullmatch(chunk):
            self.junk.append((start, end))
            return
        heading = _HEADING.match(chunk)
        if heading:
            self._heading(start, end, heading)
        elif _FOOTNOTE.match(chunk):
            self._open(self._new("unit", "note", start, end, 30, "annotation"))
            self.stack.pop()
        elif _NUMBERED.match(chunk):
            self._numbered(start, end, _NUMBERED.match(chunk))
        else:
            self._paragraph(start, end, chunk)

    def _heading(self, start: int, end: int, m: re.Match[str]) -> None:
        t_start, t_end = start + m.start(2), start + m.end(2)
        if t_start >= t_end:
            return
        self.headings.append((t_start, t_end))
        level = len(m.group(1))
        if level == 1 and self.title is None and not self.roots:
            self.title = (t_start, t_end)
            return
        heading_text = m.group(2)
        if _BACK.search(heading_text):
            self.category = "back_matter"
        elif self.category in ("front_matter", "scope", "back_matter"):
            self.category = "main"  # a new section (e.g. a schedule after the signatures) is operative again
        type_ = "schedule" if _ANNEX.search(heading_text) else "section"
        seg = self._new("container", type_, start, end, level)
        code = _CODE_IN_HEADING.match(heading_text)
        title_from = t_start
        if code:
            group = "named" if code.group("tn") else "num"
            seg.code = (t_start + code.start(group), t_start + code.end(group))
            if code.group("tn"):
                seg.type_name = (t_start + code.start("tn"), t_start + code.end("tn"))
            title_from = t_start + code.end()
        title = _trimmed(self.text, title_from, t_end)
        if title[0] < title[1]:
            seg.title = title
        self._open(seg)
        if self.category != "back_matter" and _SCOPE.search(heading_text):
            seg.category = self.category = "scope"
            self.scope_rank = level

    def _numbered(self, start: int, end: int, m: re.Match[str]) -> None:
        if self.category == "front_matter":
            self.category = "main"
        if m.group("num"):
            depth = m.group("num").count(".") + 1
            seg = self._new("unit", "clause" if depth == 1 else "subclause", start, end, 10 + depth)
            seg.code = (start + m.start("num"), start + m.end("num"))
        else:
            seg = self._new("item", "item", start, end, 20)
            seg.code = (start + m.start("item") - 1, start + m.end("item") + 1)
        seg.title = self._inline_title(start + m.end(), end)
        self._open(seg)

    def _inline_title(self, start: int, end: int) -> tuple[int, int] | None:
        rest = self.text[start:end]
        m = _BOLD_TITLE.match(rest) or _PLAIN_TITLE.match(rest)
        if not m:
            return None
        title = _trimmed(self.text, start + m.start("title"), start + m.end("title"))
        return title if title[0] < title[1] else None

    def _paragraph(self, start: int, end: int, chunk: str) -> None:
        if self.stack and self.stack[-1].kind == "item":
            # Text after a list continues the clause that introduced the list (e.g. "provided that...").
            while self.stack and self.stack[-1].kind == "item":
                self.stack.pop()
            if self.stack and self.stack[-1].kind == "unit":
                self._extend(end)
                return
        if chunk.upper().startswith("IN WITNESS"):
            self.category = "back_matter"
        signature = bool(_SIGNATURE.search(chunk))
        type_ = "signature" if signature or self.category == "back_matter" else None
        if self.category == "front_matter" and chunk.upper().startswith("WHEREAS"):
            type_ = "recital"
        self._open(self._new("unit", type_, start, end, 19))


def _terms(text: str) -> list[dict]:
    found: list[tuple[tuple[int, int], tuple[int, int]]] = []
    for m in _TERM_MEANS.finditer(text):
        meaning = _trimmed(text, m.start("meaning"), m.end("meaning"))
        found.append(((m.start("name"), m.end("name")), meaning))
    for m in _TERM_PAREN.finditer(text):
        line_start = max(text.rfind("\n", 0, m.start()) + 1, text.rfind(". ", 0, m.start()) + 2)
        meaning = _trimmed(text, line_start, m.start())
        if meaning[0] < meaning[1]:
            found.append(((m.start("name"), m.end("name")), meaning))
    terms = []
    seen: set[str] = set()
    for (n_start, n_end), (m_start, m_end) in sorted(found):
        name = text[n_start:n_end].strip()
        if not name or name in seen or n_start >= n_end:
            continue
        seen.add(name)
        mentions = [
            _span(mm.start(), mm.end())
            for mm in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)
            if mm.start() != n_start
        ]
        terms.append({"id": f"term:{len(terms)}", "name": _span(n_start, n_end), "meaning": _span(m_start, m_end), "mentions": mentions})
    return terms


def _segment_dicts(roots: list[_Seg]) -> list[dict]:
    out: list[dict] = []

    def visit(seg: _Seg) -> None:
        out.append(
            {
                "id": seg.id,
                "kind": seg.kind,
                "type": seg.type,
                "category": seg.category,
                "type_name": _span(*seg.type_name) if seg.type_name else None,
                "code": _span(*seg.code) if seg.code else None,
                "title": _span(*seg.title) if seg.title else None,
                "parent": seg.parent.id if seg.parent else None,
                "children": [c.id for c in seg.children],
                "level": seg.level,
                "span": _span(seg.start, seg.end),
            }
        )
        for child in seg.children:
            visit(child)

    for root in roots:
        visit(root)
    return out


def enrich(text: str) -> dict:
    """The ILGS v1 document the fake enricher returns for ``text``."""
    builder = _Builder(text)
    roots = builder.build()
    return {
        "version": "ilgs@1",
        "text": text,
        "title": _span(*builder.title) if builder.title else None,
        "subtitle": None,
        "type": "contract" if re.search(r"\bagreement\b|\bcontract\b", text, re.IGNORECASE) else "other",
        "jurisdiction": None,
        "segments": _segment_dicts(roots),
        "crossreferences": [],
        "locations": [],
        "persons": [],
        "emails": [],
        "websites": [],
        "phone_numbers": [],
        "id_numbers": [],
        "terms": _terms(text),
        "external_documents": [],
        "quotes": [],
        "dates": [],
        "headings": [_span(*h) for h in builder.headings],
        "junk": [_span(*j) for j in builder.junk],
    }
