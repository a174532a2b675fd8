"""Runs of consecutive clauses: splits, merges and re-wrapped paragraphs.

A one-to-one link grows into a neighbouring unaligned clause when that clause's topic words are
(almost) all in the other side of the link: the clause is a piece of its counterpart, not a
clause of its own. Only adjacent unaligned clauses are taken, so this stays linear; the grown
link is then judged once on the concatenated runs.
"""

from __future__ import annotations

from collections.abc import Callable

from conflictkit.align.text import containment

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
            whole = " ".join(other_text(k) for k in other)
            for candidate, at_end in ((run[0] - 1, False), (run[-1] + 1, True)):
                if candidate in free and containment(text(candidate), whole) >= threshold:
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
