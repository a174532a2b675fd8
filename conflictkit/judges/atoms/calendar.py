"""Dates, calendar words and clock times, normalized so format never matters.

"January 1, 2025" == "1 January 2025" == "2025-01-01"; "5:00 p.m." == "17:00" == "5pm"; "the first
Business Day after" == "one (1) Business Day after". The words (month names, the orders a date is
written in, weekdays, ordinal periods) are the pack's ``dates.yaml``.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.numgrammar import NumberGrammar, grammar
from conflictkit.judges.atoms.screen import may_match, screen
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.lexicon import LanguagePack


def claim(mask: Mask, start: int, end: int) -> bool:
    """Take ``[start, end)`` from the mask if it is still free."""
    if not mask.free(start, end):
        return False
    mask.take(start, end)
    return True


def fmt(value: float) -> str:
    """A number as its key writes it: "30", "2.5"."""
    return str(int(value)) if value == int(value) else f"{value:g}"


def uncompared(kind: str, key: str, text: str, m: re.Match[str], stripped: bool = False) -> Atom:
    """A number atom over the whole of ``m`` with no comparator or direction of its own (a clock time, a
    share, a frequency, a currency); ``stripped`` quotes it without trailing whitespace."""
    quote = text[m.start():m.end()]
    return Atom("number", kind, key, quote.rstrip() if stripped else quote, m.start(), m.end(),
                attrs=(("cmp", ""), ("dir", ""), ("cmp_start", str(m.start()))))


def duration_unit(g: NumberGrammar, word: str, value: float) -> tuple[float, str]:
    """Normalize a duration unit: business days stay business days; weeks are 7 days; years 12 months."""
    word = re.sub(r"[\s-]+", " ", word).strip()
    if any(w.startswith(tuple(g.n.business_days)) for w in word.split()):  # "consecutive business days", "volle Werktage"
        return value, "business day"
    base = word.split()[-1].rstrip(".").rstrip(g.n.period_plural)
    base = g.n.period_words.get(base, base)
    if base == "week":
        return value * 7, "day"
    if base == "year":
        return value * 12, "month"
    if base == "minute":
        return value / 60, "hour"
    return value, base


def extract_dates(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Calendar dates in any common format, normalized to ISO (year-month-day, or a prefix of it)."""
    d = grammar(lex).dates
    atoms: list[Atom] = []
    passed: dict[tuple[str, ...] | None, bool] = {}  # the patterns share their month names' screen
    for pattern, literals in zip(d.patterns, d.screens, strict=True):
        if literals not in passed:
            passed[literals] = may_match(literals, low)
        if passed[literals]:
            atoms += [a for m in pattern.finditer(low) if (a := _date(d, text, m, mask)) is not None]
    return atoms


def _date(d, text: str, m: re.Match[str], mask: Mask) -> Atom | None:
    parts = m.groupdict()
    mon = parts.get("mon")
    if mon and mon in d.ambiguous and not text[m.start("mon")].isupper():
        return None  # the modal "may", not the month
    month = d.months.get(mon) if mon else int(parts["mnum"])
    day = int(parts["day"]) if parts.get("day") else None
    if not month or not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31) or not claim(mask, m.start(), m.end()):
        return None
    year = parts.get("year")
    key = "-".join(p for p in ((year or "?"), f"{month:02d}", f"{day:02d}" if day else "") if p)
    return Atom("date", "date", key, text[m.start():m.end()], m.start(), m.end())


def extract_calendar_words(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Dates named without a full date: "the fifteenth day of each month", "the end of March",
    "every Friday", "Q3", "the second anniversary". Run after full dates have claimed theirs."""
    g = grammar(lex)
    d = g.dates
    screens = lex.memo("dates.screens", lambda: {p: screen(p) for p in (d.ordinal, d.weekday, d.quarter, d.month_alone)})
    atoms: list[Atom] = []
    for m in d.ordinal.finditer(low) if may_match(screens[d.ordinal], low) else ():
        atom = _ordinal(g, lex, text, low, m, mask)
        if atom is not None:
            atoms.append(atom)
    for pattern, key in ((d.weekday, lambda m: "weekday:" + m.group("w").lower()),
                         (d.quarter, lambda m: "quarter:" + m.group("q")),
                         (d.month_alone, lambda m: "month:" + m.group().lower())):
        if not may_match(screens[pattern], text):
            continue
        for m in pattern.finditer(text):
            if claim(mask, m.start(), m.end()):
                atoms.append(Atom("date", "date", key(m), text[m.start():m.end()], m.start(), m.end()))
    return atoms


def _ordinal(g: NumberGrammar, lex: LanguagePack, text: str, low: str, m: re.Match[str], mask: Mask) -> Atom | None:
    """One ordinal period: a duration after an event, a window at one edge of a span, or a date."""
    d, dates = g.dates, lex.data.dates
    relative = m.group("o") in dates.relative_ordinals
    after = d.ordinal_after.match(low, m.end())
    if (relative and not after) or not claim(mask, m.start(), m.end()):
        return None  # "the next month": neither a date nor a period after an event
    n = int(m.group("d")) if m.group("d") else lex.data.numbers.ordinals.get(m.group("o"), 1)  # "the next Business Day"
    unit = dates.unit_spellings.get(m.group("u"), m.group("u"))
    if n > 0 and unit in dates.period_units and after:
        # "the first Business Day after deposit" == "one (1) Business Day after deposit": the n-th
        # period after an event ends where n periods after it do
        value, period = duration_unit(g, d.ordinal_restated.sub("", low[m.end("o"):m.end()]), n)
        mask.take(after.start(), after.end())
        return Atom("number", "duration", f"duration:{fmt(value)}:{period}", text[m.start():m.end()], m.start(), m.end(),
                    attrs=(("cmp", ""), ("dir", "after"), ("cmp_start", str(m.start())), ("dir_end", str(after.end()))))
    if unit in dates.window_units and d.of_a_span.match(low, m.end()):
        # "the last year of employment" == "the final twelve months of employment": a window one
        # period long at one edge of a span (or the n-th such window: "the second year of the Term"), not a date
        value, period = duration_unit(g, unit, 1)
        return Atom("number", "duration", f"duration:{fmt(value)}:{period}", text[m.start():m.end()], m.start(), m.end(),
                    attrs=(("cmp", ""), ("dir", ""), ("cmp_start", str(m.start())),
                           ("edge", {1: "first", -1: "last"}.get(n, f"#{n}")), ("edge_start", str(m.start()))))
    return Atom("date", "date", f"ordinal:{n}:{unit}", text[m.start():m.end()], m.start(), m.end())


def times_of_day(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Clock times, on a 24-hour clock: "5:00 p.m." == "17:00" == "5pm"; "noon" == "12:00"."""
    d, dates = grammar(lex).dates, lex.data.dates
    atoms: list[Atom] = []
    if ":" not in low and not d.clock_hint.search(low) and not any(w in low for w in dates.clock_words):
        return atoms  # most clauses name no time of day: skip the full pattern
    for m in d.time_of_day.finditer(low):
        if m.group("word"):
            hour, minute = dates.clock_words[m.group("word")], 0
        elif m.group("ap"):
            hour, minute = int(m.group("h")), int(m.group("m") or 0)
            if not 1 <= hour <= 12 or minute > 59:
                continue
            hour = hour % 12 + (12 if m.group("ap").startswith(tuple(dates.afternoon)) else 0)
        else:
            hour, minute = int(m.group("h24")), int(m.group("m24"))
        if claim(mask, m.start(), m.end()):
            atoms.append(uncompared("time", f"time:{hour:02d}:{minute:02d}", text, m, stripped=True))
    return atoms
