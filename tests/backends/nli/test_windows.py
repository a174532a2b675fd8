"""Sentence windows and their aggregation, with a word-count tokenizer (no model needed)."""

from __future__ import annotations

import numpy as np

from conflictkit_nli.windows import SPECIAL_TOKENS, aggregate, budgets, window_pairs, windows


def words(texts):
    return [len(t.split()) for t in texts]


LONG = " ".join(f"Sentence number {i} says the party shall do thing {i}." for i in range(1, 11))  # 10 x 10 words


def test_pair_that_fits_is_not_split():
    assert window_pairs("a b c", "d e", 16, words) == (["a b c"], ["d e"])


def test_long_clause_is_cut_at_sentence_ends_into_windows_that_fit():
    short = "The party shall do thing 3."
    wa, wb = window_pairs(LONG, short, 40, words)
    assert wb == [short]
    assert len(wa) > 1 and " ".join(wa) == LONG
    assert all(n + words([short])[0] + SPECIAL_TOKENS <= 40 for n in words(wa))
    assert all(w.endswith(".") for w in wa)


def test_two_long_sides_share_the_window():
    wa, wb = window_pairs(LONG, LONG, 48, words)
    assert max(words(wa)) + max(words(wb)) + SPECIAL_TOKENS <= 48
    assert budgets(100, 100, 48) == (22, 22) and budgets(5, 100, 48) == (5, 39)


def test_a_sentence_longer_than_the_window_is_cut_between_words():
    sentence = " ".join(["word"] * 50) + "."
    pieces = windows(sentence, 12, words)
    assert all(n <= 12 for n in words(pieces)) and " ".join(pieces) == sentence


def test_semicolons_split_a_long_sentence():
    text = "the first limb is long enough here; the second limb is also long enough; and a third limb ends it."
    assert windows(text, 9, words) == ["the first limb is long enough here;", "the second limb is also long enough;", "and a third limb ends it."]


def test_aggregation_takes_max_contradiction_and_weakest_entailed_hypothesis_window():
    contradiction = np.array([[0.1, 0.2], [0.9, 0.05]])  # premise windows x hypothesis windows
    entailment = np.array([[0.8, 0.1], [0.05, 0.6]])
    c, e, n = aggregate(contradiction, entailment)
    assert c == 0.9 and e == 0.6 and n == 0.0
    c, e, n = aggregate(np.array([[0.1]]), np.array([[0.3]]))
    assert (c, e) == (0.1, 0.3) and abs(n - 0.6) < 1e-12
