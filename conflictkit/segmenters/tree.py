"""Nest blocks into a section tree: which block encloses which, and the section number of each.

A stack of open nodes, one pass. Markdown headings nest by level; numbered items by their
numbering ("4.2" under "4", "(a)" under the item before its first "(a)", a repeated style closes
the items opened since its last use) and, for list markers, by indentation (markdown nested lists).
"""

from __future__ import annotations

from dataclasses import dataclass

from conflictkit.segmenters.blocks import Block
from conflictkit.segmenters.labels import Label, enum_styles, enum_value

_PLAIN_TITLE_LEVEL = 7  # plain-text ALL-CAPS titles rank under every markdown heading


@dataclass
class Node:
    """An open heading or numbered item: what later blocks may nest under."""

    kind: str  # "heading" or "item"
    level: int = 0
    indent: int = 0
    style: str = ""
    value: int = 0
    parts: tuple[int, ...] = ()
    section: str | None = None
    heading: str | None = None  # the heading in force inside this node
    clause_id: str | None = None
    bare: bool = False  # a bare list number ("3." rather than "3.2" or "Section 3")
    filled: bool = False  # something was placed under it
    composed: bool = False  # section composed from the parent's ("1." nested under "2." is "2.1")


@dataclass(frozen=True)
class Placement:
    """Where a block goes: its node (None for a plain paragraph), parent clause, section and heading."""

    node: Node | None
    parent: str | None
    section: str | None
    heading: str | None


def _is_enum(node: Node) -> bool:
    return node.kind == "item" and node.style not in ("decimal", "bullet", "lead") and not node.style.startswith("top:")


class SectionTree:
    """Assigns parents, sections and headings in document order. Call :meth:`place` per block."""

    def __init__(self) -> None:
        self.stack: list[Node] = []

    # -- queries ---------------------------------------------------------------------------
    def _parent_id(self) -> str | None:
        for node in reversed(self.stack):
            if node.clause_id is not None:
                return node.clause_id
        return None

    def _section(self) -> str | None:
        for node in reversed(self.stack):
            if node.section is not None:
                return node.section
        return None

    def _heading(self) -> str | None:
        return self.stack[-1].heading if self.stack else None

    def pending(self) -> Node | None:
        """The top node when it is a label with no text yet ("Section 5." alone on its line)."""
        top = self.stack[-1] if self.stack else None
        return top if top is not None and top.kind == "item" and top.clause_id is None else None

    def _fill(self) -> None:
        if self.stack:
            self.stack[-1].filled = True

    # -- placing ---------------------------------------------------------------------------
    def place(self, block: Block, title: str | None, lead_in: bool = False, heads_section: bool = False) -> Placement:
        """Open a node for a heading or item block (or find the parent of a paragraph).

        ``lead_in``: the block is a paragraph ending in a colon, which the list after it nests under.
        ``heads_section``: the block is a numbered title ("1 DEFINITIONS"), never an item of a list.
        """
        if block.kind == "artefact":  # page numbers sit between pages, not in the section tree
            return Placement(None, self._parent_id(), self._section(), self._heading())
        if block.kind == "heading":
            node = self._place_heading(block, title)
        elif block.kind == "item" and block.label is not None:
            node = self._place_item(block, title, heads_section)
        else:
            self._close_lists_at(block.indent)
            self._fill()
            placement = Placement(None, self._parent_id(), self._section(), self._heading())
            if lead_in:  # "The Customer shall:" holds the list that follows it
                self.stack.append(Node("item", indent=block.indent, style="lead", heading=placement.heading))
                return Placement(self.stack[-1], placement.parent, placement.section, placement.heading)
            return placement
        self._fill()
        parent = self._parent_id()
        section = node.section if node.section is not None else self._section()
        heading = node.heading if node.heading is not None else self._heading()
        node.heading = heading
        self.stack.append(node)
        return Placement(node, parent, section, heading)

    def _place_heading(self, block: Block, title: str | None) -> Node:
        level = block.level or _PLAIN_TITLE_LEVEL
        while self.stack and not (self.stack[-1].kind == "heading" and self.stack[-1].level < level):
            self.stack.pop()
        node = Node("heading", level=level, indent=block.indent, heading=title)
        label = block.label
        if label is not None and label.kind == "decimal":
            node.parts = label.parts
            node.section = label.text if label.keyword else ".".join(map(str, label.parts))
        elif label is not None and label.kind == "top":
            node.section = label.text
        return node

    def _close_lists_at(self, indent: int) -> None:
        """A paragraph ends the list items indented deeper than it (and bullets/letters at its indent)."""
        while self.stack and self.stack[-1].kind == "item":
            top = self.stack[-1]
            list_item = _is_enum(top) or top.style in ("bullet", "lead")
            deeper = top.indent > indent or (top.indent == indent and list_item)
            if not deeper or top.clause_id is None:
                break
            self.stack.pop()

    def _place_item(self, block: Block, title: str | None, heads_section: bool) -> Node:
        label = block.label
        assert label is not None
        while self.stack and self.stack[-1].kind == "item" and self.stack[-1].indent > block.indent:
            self.stack.pop()
        top = self.stack[-1] if self.stack else None
        nested = (label.is_list_marker and top is not None and top.kind == "item" and top.indent < block.indent)
        if label.kind == "top":
            node = self._top(label)
        elif label.kind == "decimal":
            node = self._decimal(label, nested, block.indent, heads_section)
        elif label.kind == "enum":
            node = self._enum(label, nested)
        else:
            node = self._bullet(block, nested)
        node.indent = block.indent
        node.heading = title
        return node

    def _top(self, label: Label) -> Node:
        while self.stack and not (self.stack[-1].kind == "heading" and self.stack[-1].level < _PLAIN_TITLE_LEVEL):
            self.stack.pop()
        return Node("item", style="top:" + label.keyword, section=label.text)

    def _decimal(self, label: Label, nested: bool, indent: int, heads_section: bool = False) -> Node:
        single = len(label.parts) == 1 and not label.keyword
        top = self.stack[-1] if self.stack else None
        previous: Node | None = None
        composed = False
        if nested:  # a markdown list nested in a numbered item: "1." under "2." is 2.1
            composed = single and top is not None and top.style == "decimal" and bool(top.parts)
        elif single and top is not None and top.style == "decimal" and top.composed and top.indent == indent:
            previous = self.stack.pop()  # the next item of the same nested list
            composed = True
        else:
            previous = self._close_for_decimal(label, heads_section)
        parent = self.stack[-1] if self.stack else None
        value = label.parts[-1]
        if previous is not None and single and value <= previous.value:
            value = previous.value + 1  # markdown renders "1. 1. 1." as 1, 2, 3
        if composed and parent is not None:
            parts = parent.parts + (value,)
        else:
            parts = label.parts[:-1] + (value,)
        section = label.text if label.keyword else ".".join(map(str, parts))
        if single and parent is not None and _is_enum(parent) and parent.section:
            section = f"{parent.section}({value})"  # a numbered list inside "(c)" reads "4(c)(1)"
        return Node("item", style="decimal", value=value, parts=parts, section=section, composed=composed,
                    bare=single)

    def _close_for_decimal(self, label: Label, heads_section: bool = False) -> Node | None:
        """Close items until the enclosing one ("4" for "4.2"); returns the previous sibling, if any.

        A numbered title of depth 1 also closes a plain-text title that already has content of its
        own ("BACKGROUND" with its recitals, then "1 DEFINITIONS").
        """
        depth = len(label.parts)
        bare = label.is_list_marker and not heads_section
        continues_list = any(n.style == "decimal" and n.bare and len(n.parts) == depth for n in self.stack)
        while self.stack and self.stack[-1].kind == "item":
            top = self.stack[-1]
            if top.style.startswith("top:"):
                break
            if bare and not continues_list and top.style != "decimal" and top.style != "bullet":
                break  # "1." opening a list inside "(c)": nest it there, keep the lettered list open
            if top.style == "decimal" and len(top.parts) < depth and label.parts[: len(top.parts)] == top.parts:
                break
            self.stack.pop()
            if top.style == "decimal" and len(top.parts) == depth:
                return top  # the sibling this item follows: its parent is this item's parent
        if heads_section and depth == 1:
            while self.stack and self.stack[-1].kind == "heading" and self.stack[-1].level == _PLAIN_TITLE_LEVEL \
                    and self.stack[-1].filled:
                self.stack.pop()
        return None

    def _enum(self, label: Label, nested: bool) -> Node:
        styles = enum_styles(label)
        chosen = None if nested else self._sibling_style(label, styles)
        if chosen is None:  # a new list: "(i)" and "(ii)" start roman lists, "(v)" or "(x)" alone is a letter
            roman = [s for s in styles if s.startswith("roman")]
            chosen = roman[0] if roman and (len(label.token) > 1 or label.token in "iI") else styles[0]
        else:
            while self.stack and self.stack[-1].style != chosen:
                self.stack.pop()
            if self.stack:
                self.stack.pop()
        value = enum_value(label, chosen)
        base = self._section()
        token = label.token
        section = f"{base}({token})" if base else f"({token})"
        return Node("item", style=chosen, value=value, section=section)

    def _sibling_style(self, label: Label, styles: tuple[str, ...]) -> str | None:
        """The style of the open list this enum continues, if any ("(i)" after "(h)" is a letter)."""
        found: dict[str, Node] = {}
        for node in reversed(self.stack):  # decimals close their own lists, so look past them
            if node.kind != "item" or node.style.startswith("top:"):
                break
            if node.style in styles and node.style not in found:
                found[node.style] = node
        if not found:
            return None
        for style in styles:  # the open list whose next value this is ("(i)" after "(h)" is a letter)
            if style in found and found[style].value + 1 == enum_value(label, style):
                return style
        for style in styles:  # "(i)" under "(b)" starts a roman list rather than skipping to a letter
            if style not in found and enum_value(label, style) == 1:
                return None
        return next(style for style in styles if style in found)

    def _bullet(self, block: Block, nested: bool) -> Node:
        if not nested and self.stack and self.stack[-1].style == "bullet" and self.stack[-1].indent == block.indent:
            self.stack.pop()
        return Node("item", style="bullet", section=None)
