"""Runs of consecutive clauses: splits, merges and re-wrapped paragraphs.

A one-to-one link grows into a neighbouring unaligned clause when that clause is a piece of the
link's other side: its topic words are (almost) all there, or, for a piece that was also
reworded, most of them are there and it brings most of what the other side says that the link's
own side does not. A deleted clause next to an unchanged one brings nothing of that kind (the
unchanged pair leaves nothing unexplained), so it stays missing. Only adjacent unaligned clauses
are taken, so this stays linear; the grown link is then judged once on the concatenated runs.
"""

from __future__ import annotations

from collections.abc import Callable

from conflictkit.align.text import topic_words

Run = list[int]


def grow(
    ref_run: Run, inp_run: Run, free_ref: set[int], free_inp: set[int],
    ref_text: Callable[[int], str], inp_text: Callable[[int], str], threshold: float,
) -> tuple[Run, Run]:
    """The link's runs grown on either side into adjacent free clauses that are pieces of the other side."""
    ref_run, inp_run = list(ref_run), list(inp_run)
    changed = True
    while changed:
        changed = False
        for run, free, text, other, other_text in (
            (ref_run, free_ref, ref_text, inp_run, inp_text),
            (inp_run, free_inp, inp_text, ref_run, ref_text),
        ):
            for candidate, at_end in ((run[0] - 1, False), (run[-1] + 1, True)):
                if candidate in free and is_piece(text(candidate), [text(k) for k in run], [other_text(k) for k in other], threshold):
                    free.discard(candidate)
                    run.insert(len(run) if at_end else 0, candidate)
                    changed = True
    return ref_run, inp_run


def regions(links: list[tuple[Run, Run]], n: int, m: int) -> list[tuple[range, range]]:
    """The stretches between consecutive in-order links (and before the first, after the last)."""
    out = []
    prev_r, prev_i = -1, -1
    for ref_run, inp_run in [*links, ([n], [m])]:
        out.append((range(prev_r + 1, ref_run[0]), range(prev_i + 1, inp_run[0])))
        prev_r, prev_i = ref_run[-1], inp_run[-1]
    return out


def is_piece(candidate: str, own: list[str], other: list[str], threshold: float) -> bool:
    """Whether ``candidate`` is a piece of the ``other`` side of a link whose own side is ``own``."""
    words = topic_words(candidate)
    if not words:
        return False
    other_words = frozenset().union(*(topic_words(t) for t in other))
    contained = len(words & other_words) / len(words)
    if contained >= threshold:
        return True
    unexplained = other_words - frozenset().union(*(topic_words(t) for t in own))
    brings = len(words & unexplained) / len(unexplained) if len(unexplained) >= 2 else 0.0
    return contained >= threshold / 2 + 0.1 and brings >= 0.5
