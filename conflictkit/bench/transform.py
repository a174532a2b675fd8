"""Generated edits of a Markdown agreement, for the alignment benchmark and its tests.

*Benign* transformations change how an agreement is written, never what it says: each must
give no finding (a moved section or list item gives one ``moved`` notice and nothing else).
*One-finding* edits move or split one clause and change one number in it: exactly one finding.

Every transformation is a function ``text -> str | None``: deterministic (it picks the
candidate in the middle of the document), and ``None`` when the document has nothing it can
apply to (no list, no paragraph of two sentences...).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

SENTENCE_END = re.compile(r"(?<=[a-z)]\.) (?=[A-Z])")  # ". T" inside a line; never "No. 4" or "e.g. x"
_LABEL = re.compile(r"^(?P<indent>[ \t]*)(?P<label>(?:[-*+] +)?(?:\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivx]{1,5})[.)] +)?)")
_TOP = re.compile(r"^(?:#{1,3} |\d{1,3}\. )")
_NUMBER = re.compile(r"(?<![\d.])(\d{1,4})(?![\d.])")
_LEADING_NUMBER = re.compile(r"^([ \t]*(?:[-*+] +)?)(\d{1,3})(?=[.)](?: |$)|(?:\.\d{1,3})+ )", re.MULTILINE)
_MODAL = re.compile(r"\b(will|shall)\b(?! not\b)")


@dataclass(frozen=True)
class Transformation:
    id: str
    apply: Callable[[str], str | None]
    expected_findings: int  # deviation + missing + added
    expected_moves: int  # moved notices
    note: str


def _boundaries(content: str) -> list[re.Match[str]]:
    """Sentence ends in ``content`` outside emphasis and HTML tags: where a split keeps the markup whole."""
    out = []
    for m in SENTENCE_END.finditer(content):
        before = content[: m.start()]
        if before.count("**") % 2 == 0 and before.count("<") == before.count(">") and before.count("_") % 2 == 0:
            out.append(m)
    return out


def _split_at_first_boundary(content: str, joint: str) -> str:
    m = _boundaries(content)[0]
    return content[: m.start()] + joint + content[m.end() :]


def _split_line(line: str) -> tuple[str, str]:
    m = _LABEL.match(line)
    return line[: m.end()], line[m.end() :]


def _is_prose(line: str, min_sentences: int = 1) -> bool:
    _, content = _split_line(line)
    if not content or content.lstrip().startswith(("#", "|", ">", "<", ":")) or "|" in content:
        return False
    return len(_boundaries(content)) + 1 >= min_sentences and len(content) >= 40


def _middle(candidates: list[int]) -> int | None:
    return candidates[len(candidates) // 2] if candidates else None


def one_sentence_per_line(text: str) -> str | None:
    """Every sentence on its own line (Markdown renders the paragraph the same)."""
    out = SENTENCE_END.sub("\n", text)
    return out if out != text else None


def split_paragraph(text: str) -> str | None:
    """A paragraph of several sentences split in two at a sentence boundary (same indentation)."""
    lines = text.split("\n")
    k = _middle([i for i, line in enumerate(lines) if _is_prose(line, 2)])
    if k is None:
        return None
    prefix, content = _split_line(lines[k])
    indent = " " * len(prefix) if prefix.strip() else prefix
    lines[k] = prefix + _split_at_first_boundary(content, "\n\n" + indent)
    return "\n".join(lines)


def merge_paragraphs(text: str) -> str | None:
    """Two consecutive unlabelled paragraphs joined into one."""
    lines = text.split("\n")
    starts = [i for i in range(len(lines) - 2)
              if _is_prose(lines[i]) and not _split_line(lines[i])[0].strip() and lines[i + 1] == ""
              and _is_prose(lines[i + 2]) and not _split_line(lines[i + 2])[0].strip()
              and not re.match(r"[*_\s]*(?:\d|\([a-z0-9]{1,3}\))", lines[i + 2])  # "**22.6. Amendments**" is a clause of its own
              and _split_line(lines[i])[0] == _split_line(lines[i + 2])[0]]
    k = _middle(starts)
    if k is None:
        return None
    lines[k : k + 3] = [lines[k] + " " + lines[k + 2].lstrip()]
    return "\n".join(lines)


def add_bullets(text: str) -> str | None:
    """The sentences of a paragraph of four or more made into a bulleted list, words unchanged."""
    lines = text.split("\n")
    k = _middle([i for i, line in enumerate(lines) if _is_prose(line, 4)])
    if k is None:
        return None
    prefix, content = _split_line(lines[k])
    indent = " " * len(prefix)
    cuts = [0, *[m.end() for m in _boundaries(content)]]
    sentences = [content[a:b].rstrip(" ") for a, b in zip(cuts, [*cuts[1:], len(content)])]
    lines[k] = prefix + sentences[0] + "\n\n" + "\n".join(f"{indent}* {s}" for s in sentences[1:])
    return "\n".join(lines)


def _sections(lines: list[str]) -> list[tuple[int, int]]:
    starts = [i for i, line in enumerate(lines) if _TOP.match(line)]
    return [(a, b) for a, b in zip(starts, [*starts[1:], len(lines)])]


def move_section(text: str) -> str | None:
    """A top-level section (heading or "N." item with its body) moved two sections later."""
    lines = text.split("\n")
    sections = _sections(lines)
    if len(sections) < 4:
        return None
    k = len(sections) // 2 - 1
    (a, b), (_, d) = sections[k], sections[k + 2]
    block = lines[a:b]
    if block and block[-1] != "":
        block = [*block, ""]
    rest = lines[:a] + lines[b:d] + ([""] if lines[d - 1] != "" else []) + block + lines[d:]
    return "\n".join(rest)


def renumber(text: str) -> str | None:
    """Every leading number label one higher ("3." -> "4.", "3.2" -> "4.2"), as after an insertion."""
    out, count = _LEADING_NUMBER.subn(lambda m: m.group(1) + str(int(m.group(2)) + 1), text)
    return out if count else None


def duplicate_clause(text: str) -> str | None:
    """A clause repeated right after itself with other typography (quotes, spacing)."""
    lines = text.split("\n")
    k = _middle([i for i, line in enumerate(lines) if _is_prose(line, 2)])
    if k is None:
        return None
    prefix, content = _split_line(lines[k])
    copy = content.replace("'", "\u2019").replace('"', "\u201c").replace(", ", ",  ", 1)
    lines[k : k + 1] = [lines[k], "", prefix + copy]
    return "\n".join(lines)


def swap_list_items(text: str) -> str | None:
    """Two consecutive items of one list exchange their text (labels stay in place)."""
    lines = text.split("\n")
    pairs = []
    for i in range(len(lines) - 1):
        a, b = _split_line(lines[i]), _split_line(lines[i + 1])
        j = i + 1
        if not b[1] and i + 2 < len(lines):  # items separated by a blank line
            j, b = i + 2, _split_line(lines[i + 2])
        if a[0].strip() and b[0].strip() and len(a[0]) == len(b[0]) and a[1] and b[1] and a[1] != b[1] \
                and not _TOP.match(lines[i]) and _is_prose(lines[i]) and _is_prose(lines[j]):
            pairs.append((i, j))
    choice = _middle(pairs)
    if choice is None:
        return None
    i, j = choice
    (pa, ca), (pb, cb) = _split_line(lines[i]), _split_line(lines[j])
    lines[i], lines[j] = pa + cb, pb + ca
    return "\n".join(lines)


def _change_one_term(content: str) -> str | None:
    """One change of legal effect: the first number raised by 7, else the first "will"/"shall" made "may"."""
    m = _NUMBER.search(content) or _MODAL.search(content)
    if m is None:
        return None
    new = str(int(m.group(1)) + 7) if m.group(1).isdigit() else "may"
    return content[: m.start()] + new + content[m.end() :]


def move_clause_with_change(text: str) -> str | None:
    """A clause moved to the end of the section two sections later, one term in it changed: one deviation."""
    lines = text.split("\n")
    sections = _sections(lines)
    if len(sections) < 4:
        return None
    candidates = [(s, i) for s, (a, b) in enumerate(sections[:-2]) for i in range(a, b)
                  if _is_prose(lines[i], 2) and _change_one_term(_split_line(lines[i])[1])]
    choice = _middle(candidates)
    if choice is None:
        return None
    section, k = choice
    target = sections[section + 2][1]
    prefix, content = _split_line(lines[k])
    moved = prefix + _change_one_term(content)
    return "\n".join(lines[:k] + lines[k + 1 : target] + ["", moved, ""] + lines[target:])


def split_with_change(text: str) -> str | None:
    """A paragraph split at a sentence boundary, one term in it changed: one deviation across the split."""
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines)
                  if _is_prose(line, 2) and _change_one_term(_split_line(line)[1])]
    k = _middle(candidates)
    if k is None:
        return None
    prefix, content = _split_line(lines[k])
    indent = " " * len(prefix) if prefix.strip() else prefix
    changed = _change_one_term(content)
    if not _boundaries(changed):
        return None
    lines[k] = prefix + _split_at_first_boundary(changed, "\n\n" + indent)
    return "\n".join(lines)


BENIGN = [
    Transformation("one-sentence-per-line", one_sentence_per_line, 0, 0, "every sentence on its own line"),
    Transformation("split-paragraph", split_paragraph, 0, 0, "one paragraph split in two at a sentence boundary"),
    Transformation("merge-paragraphs", merge_paragraphs, 0, 0, "two consecutive paragraphs joined"),
    Transformation("add-bullets", add_bullets, 0, 0, "a paragraph's sentences made into a bulleted list"),
    Transformation("move-section", move_section, 0, 1, "a top-level section moved two sections later"),
    Transformation("renumber", renumber, 0, 0, "every leading number label one higher"),
    Transformation("duplicate-clause", duplicate_clause, 0, 0, "a clause repeated with other quotes and spacing"),
    Transformation("swap-list-items", swap_list_items, 0, 1, "two consecutive list items exchanged"),
]
ONE_FINDING = [
    Transformation("move-with-change", move_clause_with_change, 1, 0, "a clause moved two sections later, one number or modal changed"),
    Transformation("split-with-change", split_with_change, 1, 0, "a paragraph split in two, one number or modal changed"),
]
