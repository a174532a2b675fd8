"""The lexical pass: pair by BM25 the clauses whose lexical match is clear, so that only the rest are embedded.

Between two versions of a document most changed clauses are edits of themselves: a number, a word,
a sentence added. Their best lexical counterpart (:mod:`conflictkit.retrievers.bm25`) is their
own earlier version, far ahead of any other clause, and a neural embedding would only say so again.
A reference clause and an input clause are a *clear* match when each is the other's best (mutual),
their relevance is at least ``clear``, and it leads each one's runner-up by at least ``margin``.
Both are then settled: they are paired with their lexical top-k (so the judge still sees the
alternatives it would weigh) and need no vector. The clear pair's relevance is 1.0: the match is
as full a sign of one matter as a high cosine is to the judge (it then rests P(same) on its own
word, heading and atom evidence); their other pairs keep their BM25 relevance. What is left,
clauses whose lexical match is missing or ambiguous (a rewritten clause, a new one,
near-duplicates), is embedded and ranked by the retriever's own similarity.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field

from conflictkit.model import CandidatePair, IndexedDocument
from conflictkit.retrievers.blocks import top_k_rows_and_columns
from conflictkit.retrievers.bm25 import BM25Index
from conflictkit.stages import Options, Settlement


class LexicalOptions(Options):
    """When a lexical (BM25) match is clear enough to pair two clauses without embedding them."""

    clear: float = Field(0.7, ge=0.0, le=1.0, description="BM25 relevance (1.0: same words) at which a mutual best match is clear")
    margin: float = Field(0.3, ge=0.0, le=1.0, description="how far a clear match must lead each clause's next best")
    min_relevance: float = Field(0.1, ge=0.0, le=1.0, description="minimum relevance of the other lexical pairs a settled clause keeps")


def lexical_pass(reference: IndexedDocument, input: IndexedDocument, options: LexicalOptions, top_k: int,
                 open: tuple[list[int], list[int]]) -> Settlement:
    """Settle the clear lexical matches among the ``open`` positions of each side (see the module docstring).

    The BM25 statistics are those of each document's operative clauses, not of the open ones alone:
    when few clauses changed, the words they share would otherwise count as common and the words
    that changed as rare, and no edit would look clear.
    """
    from conflictkit.retrievers.cosine import operative_indices  # (the cosine retriever imports this module)

    ref_idx, inp_idx = open
    n, m = len(ref_idx), len(inp_idx)
    if not n or not m:
        return Settlement(candidates=[], open_reference=list(ref_idx), open_input=list(inp_idx))
    background = tuple([document.clauses[k].text for k in sorted(set(operative_indices(document)) - set(positions))]
                       for document, positions in ((reference, ref_idx), (input, inp_idx)))
    index = BM25Index([reference.clauses[i].text for i in ref_idx], [input.clauses[j].text for j in inp_idx],
                      background=background)
    by_row, by_col = top_k_rows_and_columns(index.rows, n, m, max(top_k, 2))
    clear = _clear_matches(by_row, by_col, n, m, options)
    pairs = [
        CandidatePair.model_construct(
            reference_id=reference.clauses[ref_idx[i]].id, input_id=input.clauses[inp_idx[j]].id,
            # a clear match is full evidence of one matter, as a high cosine would be; other pairs keep their relevance
            relevance=1.0 if (i, j) in clear else score,
            signals={"bm25": score, "lexical_match": 1.0} if (i, j) in clear else {"bm25": score},
        )
        for (i, j), score in _kept(by_row, by_col, clear, top_k, options.min_relevance)
    ]
    settled_rows, settled_cols = {i for i, _ in clear}, {j for _, j in clear}
    return Settlement(
        candidates=pairs,
        open_reference=[ref_idx[i] for i in range(n) if i not in settled_rows],
        open_input=[inp_idx[j] for j in range(m) if j not in settled_cols],
    )


def _clear_matches(by_row, by_col, n: int, m: int, options: LexicalOptions) -> set[tuple[int, int]]:
    """(row, column) of the clear matches: each the other's best, relevance >= clear, margin over both next bests."""
    row_best, row_score, row_next = _best_and_next(by_row, n)
    col_best, _, col_next = _best_and_next(by_col, m)
    rows = np.arange(n)
    best = np.maximum(row_best, 0)
    clear = (row_best >= 0) & (row_score >= options.clear) & (row_score - row_next >= options.margin)
    clear &= (col_best[best] == rows) & (row_score - col_next[best] >= options.margin)
    return set(zip(rows[clear].tolist(), row_best[clear].tolist()))


def _kept(by_row, by_col, clear: set[tuple[int, int]], top_k: int, floor: float) -> list[tuple[tuple[int, int], float]]:
    """The lexical top-k pairs (either side's, relevance >= floor) that hold a settled clause, sorted."""
    rows, cols = {i for i, _ in clear}, {j for _, j in clear}
    kept: dict[tuple[int, int], float] = {}
    for top, transposed in ((by_row, False), (by_col, True)):
        for line, other, score, rank in zip(top.rows.tolist(), top.cols.tolist(), top.scores.tolist(), top.ranks.tolist()):
            i, j = (other, line) if transposed else (line, other)
            if rank <= top_k and score >= floor and (i in rows or j in cols):
                kept[(i, j)] = score
    return sorted(kept.items())


def _best_and_next(top, lines: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per line (row, or column for a transposed result): its best counterpart (-1: none), that score, the next best score."""
    best = np.full(lines, -1, dtype=np.int64)
    score = np.zeros(lines)
    following = np.zeros(lines)
    first, second = top.ranks == 1, top.ranks == 2
    best[top.rows[first]] = top.cols[first]
    score[top.rows[first]] = top.scores[first]
    following[top.rows[second]] = top.scores[second]
    return best, score, following
