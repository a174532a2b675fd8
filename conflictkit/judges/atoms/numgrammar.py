"""The number grammar of a language pack, compiled once per pack: what the number and date readers run.

``numbers.yaml`` and ``dates.yaml`` hold the words and patterns (see their comments and
:class:`conflictkit.lexicon.schema.NumbersSection`); this module only assembles them: the number
words into one phrase pattern (with the pack's joiners, and inside one word where the language
compounds them), the comparators into the pattern read before a number, the month names into the
date patterns (``<MONTH>``), the ordinal words into the ordinal pattern (``<ORDINALS>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.judges.atoms.screen import screen
from conflictkit.lexicon import LanguagePack
from conflictkit.lexicon.regex import compile_pattern

# Figures: "10.000,00", "1.000.000", "1,000.50", "30", ".5" (decimal point); "1.000,50", "1.000", "3,5" (decimal comma)
_DIGITS_POINT = (r"(?<![\w.,])\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d])|(?<![\w.,])\d{1,3}(?:\.\d{3}){2,}(?![\d,])"
                 r"|(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.,])(?:\d+(?:\.\d+)?(?![\d])|\.\d+(?![\d.]))")
_DIGITS_COMMA = (r"(?<![\w.,])\d{1,3}(?:\.\d{3})+(?:,\d+)?(?![\d])|(?<![\w.,])\d{1,3}(?:,\d{3}){2,}(?![\d.])"
                 r"|(?<![\w.,])(?:\d+(?:,\d+)?(?![\d])|,\d+(?![\d,]))")


def _alternation(words: list[str]) -> str:
    """Words (literal) as a regex alternation, longest first (ties in the pack's order)."""
    return "|".join(sorted(words, key=len, reverse=True))


@dataclass(frozen=True)
class _Dates:
    """The compiled date patterns of ``dates.yaml``."""

    months: dict[str, int]
    ambiguous: frozenset[str]
    patterns: tuple[re.Pattern[str], ...]
    screens: tuple[tuple[str, ...] | None, ...]
    month_alone: re.Pattern[str]
    weekday: re.Pattern[str]
    quarter: re.Pattern[str]
    ordinal: re.Pattern[str]
    ordinal_restated: re.Pattern[str]
    ordinal_after: re.Pattern[str]
    of_a_span: re.Pattern[str]
    time_of_day: re.Pattern[str]
    clock_hint: re.Pattern[str]


class NumberGrammar:
    """Everything the number and date readers need of one pack, compiled (see the module docstring)."""

    def __init__(self, lex: LanguagePack) -> None:
        n = lex.data.numbers
        self.n, self.d = n, lex.data.dates
        self.words = _number_words(n)
        self.core = re.compile(rf"(?P<d>{_DIGITS_COMMA if n.decimal_mark == ',' else _DIGITS_POINT})|(?P<w>{self.words})")
        self.restated_words = re.compile(rf"\s?[(\[]\s?(?P<w>{self.words})\s?[)\]]")
        self.fraction_phrase = re.compile(r"\b(?:" + "|".join(dict.fromkeys(
            r"[\s-]".join(map(re.escape, re.split(r"[\s-]+", p))) for p in n.fraction_phrases)) + r")\b")
        self.compound_parts = _alternation([*n.units, *n.scales, *n.fractions, *n.joiners]) if n.compounds else ""
        pats = {name: compile_pattern(getattr(n, name)) for name in (
            "currency_prefix", "currency_words", "restated", "scale_after", "unit", "not_a_count_after",
            "not_a_count_before", "decimal_context", "per", "direction", "within_of", "edge_before", "comparator_after",
            "comparator_idioms", "frequency", "fraction_shares", "fraction_rest", "fraction_period", "slash_fraction")}
        self.p = _Patterns(**pats)
        self.every_n = compile_pattern(n.every_n.replace("<NUMBER_WORDS>", self.words[2:-2]))
        self.comparator_before = compile_pattern(
            r"(?:^|[^\w])(?P<cmp>" + "|".join(f"(?P<c{i}>{'|'.join(alts)})" for i, alts in enumerate(n.comparators.values()))
            + rf"){n.comparator_gap}$")
        self.signs = tuple(n.comparators)
        xref_list = n.xref_list
        self.xref = compile_pattern(
            rf"(?<!\p{{L}})(?:(?:{'|'.join(n.xref_words)})\s*{xref_list}?|(?:{'|'.join(n.xref_plurals)})\s*{xref_list}*)$")
        self.frequency_screen = screen(self.p.frequency)
        self.glued = compile_pattern(r"\p{L}+")
        self.dates = _dates(lex)


@dataclass(frozen=True)
class _Patterns:
    """The single patterns of ``numbers.yaml``, compiled."""

    currency_prefix: re.Pattern[str]
    currency_words: re.Pattern[str]
    restated: re.Pattern[str]
    scale_after: re.Pattern[str]
    unit: re.Pattern[str]
    not_a_count_after: re.Pattern[str]
    not_a_count_before: re.Pattern[str]
    decimal_context: re.Pattern[str]
    per: re.Pattern[str]
    direction: re.Pattern[str]
    within_of: re.Pattern[str]
    edge_before: re.Pattern[str]
    comparator_after: re.Pattern[str]
    comparator_idioms: re.Pattern[str]
    frequency: re.Pattern[str]
    fraction_shares: re.Pattern[str]
    fraction_rest: re.Pattern[str]
    fraction_period: re.Pattern[str]
    slash_fraction: re.Pattern[str]


def _number_words(n) -> str:
    """The pattern of a number phrase ("one hundred and twenty-five"; "dreiundzwanzig" in a compounding language)."""
    word = "(?:" + _alternation([*n.units, *n.scales, *n.fraction_phrases]) + ")"
    joins = "|".join(rf"\s+{re.escape(j)}\s+" for j in n.joiners)
    glue = f"|(?:{'|'.join(map(re.escape, n.joiners))})?" if n.compounds else ""
    return rf"\b{word}(?:(?:[\s-]+{'|' + joins if joins else ''}{glue}){word})*\b"


def _dates(lex: LanguagePack) -> _Dates:
    d, ordinals = lex.data.dates, lex.data.numbers.ordinals
    month = "(?P<mon>" + "|".join([*d.months, *d.month_abbreviations]) + r")\.?"
    patterns = tuple(compile_pattern(p.replace("<MONTH>", month)) for p in d.date_patterns)
    return _Dates(
        months={**d.months, **d.month_abbreviations}, ambiguous=frozenset(d.ambiguous_months), patterns=patterns,
        screens=tuple(screen(p) for p in patterns), month_alone=compile_pattern(d.month_alone),
        weekday=compile_pattern(d.weekday), quarter=compile_pattern(d.quarter),
        ordinal=compile_pattern(d.ordinal.replace("<ORDINALS>", _alternation(list(ordinals)))),
        ordinal_restated=compile_pattern(d.ordinal_restated), ordinal_after=compile_pattern(d.ordinal_after),
        of_a_span=compile_pattern(d.of_a_span), time_of_day=compile_pattern(d.time_of_day),
        clock_hint=compile_pattern(d.clock_hint))


def grammar(lex: LanguagePack) -> NumberGrammar:
    """The pack's number grammar, compiled once per pack."""
    return lex.memo("numbers.grammar", lambda: NumberGrammar(lex))
