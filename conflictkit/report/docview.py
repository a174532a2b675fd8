"""A document as formatted text (headings, lists, bold, tables) with findings highlighted inside it.

Highlights are offsets into the original text, but Markdown rendering moves and drops characters
(``**``, ``|---|``, list markers). So each highlight boundary is written into the source as one
private-use *sentinel* character, the source is rendered with markdown-it (raw HTML, links and
images off: a document's markup never becomes an element, and nothing it names is fetched), and
the sentinels found in the rendered text are replaced, in order, by the highlight elements. Marks
are opened and closed inside each text run, so they never straddle a tag and the HTML stays well
formed. When a sentinel does not come back as text (it fell inside syntax), the caller falls back
to the plain-text view, which is always exact.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache

# A line start that opens a block: a start sentinel put before it would stop the block from parsing.
_BLOCK_PREFIX = re.compile(r"[ \t]{0,3}(?:#{1,6}(?:[ \t]+|$)|>[ \t]?|[-+*][ \t]+|\d{1,9}[.)][ \t]+|\|[ \t]*)*", re.MULTILINE)
# Lines that must hold nothing else: a table's delimiter row, a thematic break, a setext underline, a fence.
_SYNTAX_LINE = re.compile(r"[ \t]*(?:\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?|[-*_=]{3,}|`{3,}.*|~{3,}.*)[ \t]*")
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")
_GAP = re.compile(r'<span class="gap [^"]*"[^>]*>[^<]*</span>')


VIEW_KINDS = ("deviation", "missing", "added", "moved", "not-acceptable", "fallback", "standard", "absent", "uncovered")
"""Every kind a highlighted entry may have (a comparison's findings, a playbook review's verdicts), in the
order a highlight shared by several takes its colour from."""


@dataclass(order=True)
class Event:
    """Something to insert at ``offset`` of the original text; ``rank`` orders events at one offset.

    Kinds: ``open``/``close`` a finding's mark, ``change``/``unchange`` a run of changed words
    (``op`` is ``delete`` or ``insert``), ``anchor`` (a finding's scroll target), ``gap`` (where a
    clause the other document has is missing: ``label`` says which).
    """

    offset: int
    rank: int
    kind: str = field(compare=False)
    finding: int = field(compare=False)
    op: str = field(default="", compare=False)
    target: str = field(default="", compare=False)
    label: str = field(default="", compare=False)
    css_kind: str = field(default="", compare=False)


# At one offset: close what ends there before opening what starts there.
RANKS = {"unchange": 0, "close": 1, "gap": 2, "anchor": 3, "open": 4, "change": 5}


def event(offset: int, kind: str, finding: int, **extra) -> Event:
    return Event(offset, RANKS[kind], kind, finding, **extra)


@cache
def _markdown():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.disable(["link", "image", "autolink", "reference", "html_inline", "html_block"])

    def list_item_open(renderer, tokens, idx, options, env):
        # Keep the document's own number ("4." after "1.") rather than the list's running count.
        if tokens[idx].info.isdigit():
            tokens[idx].attrSet("value", tokens[idx].info)
        return renderer.renderToken(tokens, idx, options, env)

    md.add_render_rule("list_item_open", list_item_open)
    return md


def _sentinel(text: str) -> str:
    """A private-use character the document does not contain."""
    for code in range(0xE000, 0xF900):
        if chr(code) not in text:
            return chr(code)
    raise ValueError("document uses every private-use character")  # pragma: no cover - 6,400 distinct PUA chars


def _placeable(text: str, offset: int, opening: bool) -> int:
    """``offset`` moved off block syntax, so the sentinel put there cannot stop a block from parsing.

    An opening event moves forward (past a line's block markers; off a blank or syntax-only line
    to the next line); a closing one moves back to the end of the text before. A sentinel alone on
    a blank line would open a paragraph that swallows the next line (a list numbered "4." cannot
    interrupt one), and one on a fence or table delimiter row would break that block.
    """
    for _ in range(32):
        line_start = text.rfind("\n", 0, offset) + 1
        line_end = text.find("\n", offset)
        line_end = len(text) if line_end < 0 else line_end
        forward = opening or line_start == 0
        if not text[line_start:line_end].strip() or _SYNTAX_LINE.fullmatch(text, line_start, line_end):
            if forward:
                if line_end >= len(text):
                    return offset
                offset, opening = line_end + 1, True
            else:
                offset = _content_end(text, line_start)
            continue
        prefix = _BLOCK_PREFIX.match(text, line_start, line_end)
        if prefix and prefix.end() > line_start and offset < prefix.end():
            if forward:
                return prefix.end()
            offset = _content_end(text, line_start)
            continue
        row_end = len(text[:line_end].rstrip())
        if offset >= row_end and text[row_end - 1] == "|":  # after a table row's last pipe: an extra cell
            if opening and line_end < len(text):
                offset = line_end + 1
                continue
            return _content_end(text, line_end)
        return offset
    return offset


_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _off_inline_syntax(text: str, offset: int, opening: bool) -> int:
    """``offset`` moved out of a delimiter run (``**``), an escape (``\\*``) or an entity (``&amp;``)."""
    step = 1 if opening else -1
    while 0 < offset < len(text) and text[offset - 1] == text[offset] and text[offset] in "*_~`":
        offset += step
    # Next to an emphasis run, a sentinel can stop it flanking ("**Audit.**" + sentinel is no longer bold).
    # It matters only where the run's other neighbour is punctuation: then the sentinel goes to its other side.
    run_start = offset
    while run_start > 0 and text[run_start - 1] in "*_":
        run_start -= 1
    if run_start < offset and run_start > 0 and _is_punct(text[run_start - 1]):
        return run_start  # after a closing run that follows punctuation: before it instead
    run_end = offset
    while run_end < len(text) and text[run_end] in "*_":
        run_end += 1
    if run_end > offset and run_end < len(text) and _is_punct(text[run_end]):
        return run_end  # before an opening run that precedes punctuation: after it instead
    if 0 < offset < len(text) and text[offset - 1] == "\\":
        offset += 1 if opening else -1
    amp = text.rfind("&", max(0, offset - 40), offset)
    if amp >= 0:
        entity = _ENTITY.match(text, amp)
        if entity and amp < offset < entity.end():
            offset = entity.end() if opening else amp
    return offset


def _is_punct(char: str) -> bool:
    return unicodedata.category(char)[0] in "PS"


def _content_end(text: str, before: int) -> int:
    """The end of the last text before ``before``, inside a table row's last cell when it is one."""
    end = len(text[:before].rstrip())
    if end and text[end - 1] == "|":
        end = len(text[: end - 1].rstrip())
    return end


def _placed(text: str, offset: int, opening: bool) -> int:
    return _placeable(text, _off_inline_syntax(text, offset, opening), opening)


def render_markdown_document(text: str, events: list[Event], mark_kinds: list[str]) -> str | None:
    """``text`` rendered as Markdown with ``events`` inserted; None when a sentinel was swallowed by syntax.

    ``mark_kinds[i]`` is the CSS kind (deviation, missing, added) of finding ``i``.
    """
    sentinel = _sentinel(text)
    if not text.endswith("\n"):
        text += "\n"  # every line ends, so a sentinel always has a next line to move to (offsets unchanged)
    # A gap marker goes at the end of the text before it, never into the heading or list item after it.
    moved = [Event(_placed(text, e.offset, e.kind in ("open", "anchor", "change")), e.rank, e.kind, e.finding,
                   e.op, e.target, e.label, e.css_kind) for e in events]
    # Moving can put an end before its start (a span that was all syntax): it then ends where it starts.
    begun: dict[tuple[int, str], int] = {}
    for e in moved:  # in the caller's order: each close or unchange follows its open or change
        if e.kind in ("open", "change"):
            begun[(e.finding, e.kind)] = e.offset
        elif e.kind in ("close", "unchange"):
            e.offset = max(e.offset, begun.get((e.finding, "open" if e.kind == "close" else "change"), 0))
    placed = sorted(moved)
    source, last = [], 0
    for e in placed:
        source.append(text[last : e.offset])
        source.append(sentinel)
        last = e.offset
    source.append(text[last:])
    rendered = _markdown().render("".join(source))
    woven = _Weaver(placed, sentinel, mark_kinds).weave(rendered)
    if woven is None or plain_text_of(_GAP.sub("", woven)).split() != _plain_words(text):
        return None  # a sentinel changed how the document parses: the exact plain view is shown instead
    return woven


@lru_cache(maxsize=16)
def _plain_words(text: str) -> list[str]:
    """The words of ``text`` rendered with no highlight (cached: the review app shows a document many times)."""
    return plain_text_of(_markdown().render(text)).split()


class _Weaver:
    """Replaces sentinels in rendered HTML by highlight elements, marks cut at every tag."""

    def __init__(self, events: list[Event], sentinel: str, mark_kinds: list[str]) -> None:
        self.events, self.sentinel, self.mark_kinds = events, sentinel, mark_kinds
        self.next = 0
        self.marks: set[int] = set()
        self.changes: dict[int, str] = {}

    def weave(self, rendered: str) -> str | None:
        out: list[str] = []
        for part in _TAG_OR_TEXT.split(rendered):
            if not part:
                continue
            if part.startswith("<"):
                if self.sentinel in part:
                    return None  # a sentinel in an attribute: the structure moved it out of the text
                out.append(part)
                continue
            pieces = part.split(self.sentinel)
            for k, piece in enumerate(pieces):
                if k:
                    if self.next >= len(self.events):
                        return None
                    out.append(self._apply(self.events[self.next]))
                    self.next += 1
                if piece:
                    # Whitespace between tags (between table cells, list items) is no text to mark.
                    out.append(piece if piece.isspace() else self._wrap(piece))
        return "".join(out) if self.next == len(self.events) else None

    def _apply(self, e: Event) -> str:
        from conflictkit.report.html import esc

        if e.kind == "open":
            self.marks.add(e.finding)
        elif e.kind == "close":
            self.marks.discard(e.finding)
        elif e.kind == "change":
            self.changes[e.finding] = e.op
        elif e.kind == "unchange":
            self.changes.pop(e.finding, None)
        elif e.kind == "anchor":
            return f'<span class="anchor" id="{esc(e.target)}"></span>'
        elif e.kind == "gap":
            return (f'<span class="gap k-{esc(e.css_kind)}" data-f="{e.finding}" id="{esc(e.target)}"'
                    f' title="{esc(e.label)}">{esc(e.label)}</span>')
        return ""

    def _wrap(self, piece: str) -> str:
        if not self.marks:
            return piece
        active = sorted(self.marks)
        kinds = {self.mark_kinds[i] for i in active}
        kind = next((k for k in VIEW_KINDS if k in kinds), "other")
        multi = " multi" if len(active) > 1 else ""
        changed = {op for i, op in self.changes.items() if i in self.marks}
        if changed:
            piece = f'<span class="w-{"del" if "delete" in changed else "ins"}">{piece}</span>'
        return f'<mark class="hl k-{kind}{multi}" data-f="{" ".join(map(str, active))}">{piece}</mark>'


def plain_text_of(rendered: str) -> str:
    """The text a reader sees in rendered HTML (for tests and search)."""
    return html.unescape(re.sub(r"<[^>]+>", "", rendered))
