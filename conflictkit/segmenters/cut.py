"""Cutting a paragraph too long to compare into clauses: at its sentence ends, else between words.

A contract's clauses are short (the longest of 17,000 in the corpus is 4,600 characters), but a
plain-text file with no blank lines and no numbering is one paragraph, and so is a 5 MB file on
one line. The judge's work on a pair grows faster than the length of its clauses, so a paragraph
over the segmenter's ``max_chars`` is cut. Every cut depends only on the text around it (a sentence
end; between words, a word chosen by its hash), never on where the previous cut fell, so an edit
moves no cut but its own: the unchanged pieces of two versions stay identical and are settled as
such, and only the changed ones are judged.
"""

from __future__ import annotations

import dataclasses
import re
import zlib

from conflictkit.segmenters.blocks import Block

# a sentence ends at . ! ? or ; (with closing quotes or brackets) before a space and the capital,
# digit or opening mark that starts the next one
_SENTENCE_END = re.compile(r"[.!?;][\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9])")
_WORD = re.compile(r"\S+")
_LETTER = re.compile(r"[^\W\d_]")
_WORD_CUT_ONE_IN = 32  # between words, a piece ends after a word whose hash is 0 modulo this (every ~32 words)


def cut_long(block: Block, text: str, max_chars: int) -> list[Block]:
    """``block`` itself when its text is at most ``max_chars`` long, else its pieces, each at most that long.

    The first piece keeps the block's label and kind; the others are paragraphs that follow it.
    """
    if block.end - block.body <= max_chars:
        return [block]
    pieces = []
    for start, end in _sentences(text, block.body, block.end):
        pieces += _between_words(text, start, end, max_chars) if end - start > max_chars else [(start, end)]
    first = dataclasses.replace(block, end=pieces[0][1], lines=text.count("\n", block.start, pieces[0][1]) + 1)
    rest = [Block(start, end, start, block.indent, "para", lines=text.count("\n", start, end) + 1, soft=block.soft)
            for start, end in pieces[1:]]
    return [first, *rest]


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentences of ``text[start:end]``; a piece with no letter ("1000.", "(a)") stays with the next."""
    out: list[tuple[int, int]] = []
    begin = start
    for match in _SENTENCE_END.finditer(text, start, end):
        if _LETTER.search(text, begin, match.end()) is None:
            continue
        out.append((begin, match.end()))
        begin = _skip_spaces(text, match.end(), end)
    if begin < end:
        out.append((begin, end))
    return out


def _between_words(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """A sentence longer than ``max_chars`` in pieces: once a piece is half that long, after the next
    word whose hash picks it (content-defined); at the latest after the last word that fits (inside a
    word longer than the limit)."""
    out: list[tuple[int, int]] = []
    begin, fits = start, None  # where the piece begins; the end of its last word that fits
    for match in _WORD.finditer(text, start, end):
        while match.end() - begin > max_chars:
            if fits is None:  # one word longer than the limit
                out.append((begin, begin + max_chars))
                begin += max_chars
            else:
                out.append((begin, fits))
                begin, fits = match.start(), None
        fits = match.end()
        if fits - begin >= max_chars // 2 and zlib.crc32(match.group().encode()) % _WORD_CUT_ONE_IN == 0:
            out.append((begin, fits))
            begin, fits = _skip_spaces(text, fits, end), None
    if begin < end:
        out.append((begin, end))
    return out


def _skip_spaces(text: str, position: int, end: int) -> int:
    while position < end and text[position].isspace():
        position += 1
    return position
