"""Property tests on real clauses: typographic noise never breaks grounding, negators always do."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conflictkit.grounding import Verifier, material_difference, redline, tokenize
from conflictkit.lexicon import NEGATORS
from conflictkit.normalize import normalize
from conflictkit.segmenters.markup import markup_free

pytestmark = pytest.mark.corpus
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SPACES = ["\u00a0", "\n", "  ", "\r\n", " \u2009", "\u202f", "\t", " \n "]
INVISIBLE = ["\u00ad", "\u200b", "\u2060", "\ufeff"]
# Whole-word negators (not "n't", which is part of a word) as they appear in running text.
NEGATOR_WORD = re.compile(r"(?<!\w)(" + "|".join(sorted((n for n in NEGATORS if n.isalpha()), key=len, reverse=True)) + r")(?!\w)")


def add_noise(text: str, rng: random.Random, rate: float = 0.3) -> str:
    """``text`` with random typographic noise that the normalizer must see through."""
    out, i = [], 0
    while i < len(text):
        c, hit = text[i], rng.random() < rate
        if hit and text.startswith(("fi", "fl", "ff"), i):
            out.append({"fi": "\ufb01", "fl": "\ufb02", "ff": "\ufb00"}[text[i : i + 2]])
            i += 2
            continue
        if hit and c in "'\"-":
            out.append(rng.choice({"'": "\u2018\u2019", '"': "\u201c\u201d", "-": "\u2010\u2011\u2013"}[c]))
        elif hit and c == " ":
            out.append(rng.choice(SPACES))
        elif hit and c.isalpha() and i and text[i - 1].isalpha():
            out.append(rng.choice(INVISIBLE) + c)  # inside a word, never at its edges
        else:
            out.append(c)
        i += 1
    return "".join(out)


def pick(sources, data) -> tuple:
    source = data.draw(st.sampled_from(sources))
    start, end = data.draw(st.sampled_from(source.spans))
    return source, start, end


def check_found(result, start: int, end: int) -> None:
    assert result.status in ("grounded", "ambiguous"), result.detail
    if result.status == "grounded":
        assert (result.start, result.end) == (start, end)
    else:
        assert (start, end) in result.found_at


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_noisy_quote_is_grounded_at_its_original_offsets(sources, data, rng):
    source, start, end = pick(sources, data)
    quote = rng.choice(["", " ", "\n"]) + add_noise(source.text[start:end], rng) + rng.choice(["", " ", "\r\n"])
    cited = source.verifier.verify(quote, start=start, end=end)
    assert cited.status == "grounded", cited.detail
    assert (cited.start, cited.end) == (start, end)
    check_found(source.verifier.verify(quote), start, end)


@pytest.mark.slow  # normalizes a whole document per example
@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_quote_is_grounded_in_a_noisy_document_at_the_shifted_offsets(sources, data, rng):
    source, start, end = pick(sources, data)
    noisy = add_noise(source.text[start:end], rng)
    document = source.text[:start] + noisy + source.text[end:]
    verifier = Verifier(document)
    quote = source.text[start:end]
    assert verifier.verify(quote, start=start, end=start + len(noisy)).status == "grounded"
    check_found(verifier.verify(quote), start, start + len(noisy))


def _absent(source, quote: str) -> bool:
    return normalize(quote, flatten=True).text.strip() not in source.verifier.text


def _near_miss_names(result, token: str, side: str) -> bool:
    near = result.near_miss
    return near is not None and any(
        c.kind == "negator" and getattr(c, f"{side}_text").lower() == token.lower() for c in near.changes)


@pytest.fixture(scope="module")
def negated(sources) -> list[tuple]:
    """Clauses with a negator strictly inside them (dropping one at an edge leaves a true quote)."""
    found = [(s, a, b) for s in sources for a, b in s.spans
             if any(0 < m.start() and m.end() < b - a - 1 for m in NEGATOR_WORD.finditer(s.text[a:b]))]
    if not found:
        pytest.skip("no clause with a negator inside it")
    return found


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_dropping_a_negator_is_never_grounded(negated, data, rng):
    source, start, end = data.draw(st.sampled_from(negated))
    clause = source.text[start:end]
    inner = [m for m in NEGATOR_WORD.finditer(clause) if 0 < m.start() and m.end() < len(clause) - 1]
    m = data.draw(st.sampled_from(inner))
    quote = add_noise((clause[: m.start()] + clause[m.end() :]).replace("  ", " "), rng)
    assume(_absent(source, quote))
    for result in (source.verifier.verify(quote, start=start, end=end), source.verifier.verify(quote)):
        assert result.status == "not_found", result.detail
        assert _near_miss_names(result, m.group(), "a"), result.detail


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_adding_a_negator_is_never_grounded(sources, data, rng):
    source, start, end = pick(sources, data)
    clause = source.text[start:end]
    spaces = [k for k, c in enumerate(clause) if c == " "]
    assume(spaces)
    k = data.draw(st.sampled_from(spaces)) + 1
    negator = data.draw(st.sampled_from(sorted(n for n in NEGATORS if n.isalpha())))
    quote = add_noise(clause[:k] + negator + " " + clause[k:], rng)
    assume(_absent(source, quote))
    for result in (source.verifier.verify(quote, start=start, end=end), source.verifier.verify(quote)):
        assert result.status == "not_found", result.detail
        assert _near_miss_names(result, negator, "b"), result.detail


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_typographic_noise_is_never_a_difference_or_a_redline_op(sources, data, rng):
    source, start, end = pick(sources, data)
    clause = source.text[start:end]
    noisy = add_noise(clause, rng)
    assert not material_difference(clause, noisy).differs
    assert not redline(noisy, clause).changed


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_redline_ops_rebuild_both_texts_and_point_into_them(sources, data, rng):
    (sa, a0, a1), (sb, b0, b1) = pick(sources, data), pick(sources, data)
    a, b = add_noise(sa.text[a0:a1], rng), sb.text[b0:b1]
    ops = redline(a, b).ops
    old = [op for op in ops if op.op in ("equal", "delete")]
    new = [op for op in ops if op.op in ("equal", "insert")]
    assert _same_tokens(old, a) and _same_tokens(new, b)
    for op in ops:  # markup (a <span> tag) is never in an op, but the op's span still slices its source
        if op.op != "insert":
            assert _words(a[op.a_start : op.a_end]) == tokenize(op.text).words
        if op.op != "delete":
            assert _words(b[op.b_start : op.b_end]) == tokenize(op.text).words


def _words(text: str) -> tuple[str, ...]:
    return tokenize(markup_free(text)[0]).words


def _same_tokens(ops, text: str) -> bool:
    return [w for op in ops for w in tokenize(op.text).words] == list(_words(text))
