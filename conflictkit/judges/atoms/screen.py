"""A cheap screen in front of a regex: the literal words any match must contain.

Most lexicon patterns can only match where a fixed word occurs (``\\bnon[\\s-]?exclusive\\b``
needs "exclusive"); looking for that word with ``in`` is far cheaper than running the regex
engine over the clause, and a clause lacking it cannot match, so the screen never changes a
result. The words are read from the pattern's parse tree; a pattern the reader cannot vouch
for (case-insensitive, a required part it does not understand) gets no screen and always runs.
"""

from __future__ import annotations

import re

try:  # the regex parser is private to the re package: without it there is no screen, every pattern runs
    from re import _constants as sre  # type: ignore[attr-defined]
    from re import _parser  # type: ignore[attr-defined]

    _REPEATS = {sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT}
except (ImportError, AttributeError):  # pragma: no cover - CPython 3.11-3.14 have both
    _parser = None


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings of which every match of ``pattern`` contains at least one, or None if unknown."""
    if _parser is None or pattern.flags & re.IGNORECASE or not isinstance(pattern.pattern, str):
        return None
    try:
        found = _sequence(list(_parser.parse(pattern.pattern, pattern.flags)))
    except (re.error, TypeError, ValueError, RecursionError, AttributeError):
        return None
    return found if found and min(map(len, found)) >= 2 else None


def _sequence(items: list) -> frozenset[str] | None:
    """The best screen of a sequence: its longest literal run, or a part's own screen."""
    candidates: list[frozenset[str]] = []
    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL:
            run.append(chr(av))
            continue
        if op is sre.AT:
            continue  # \b, ^, $ consume nothing: the literals on both sides stay adjacent
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        part = _part(op, av)
        if part:
            candidates.append(part)
    if run:
        candidates.append(frozenset({"".join(run)}))
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)), default=None)


def _part(op, av) -> frozenset[str] | None:
    """The screen of one non-literal part of a sequence, if every match of the part needs one."""
    if op is sre.SUBPATTERN:
        _, add_flags, _, body = av
        return None if add_flags & re.IGNORECASE else _sequence(list(body))
    if op is sre.ATOMIC_GROUP:
        return _sequence(list(av))
    if op in _REPEATS:
        low, _, body = av
        return _sequence(list(body)) if low >= 1 else None
    if op is sre.BRANCH:
        alternatives = [_sequence(list(branch)) for branch in av[1]]
        if any(not a for a in alternatives):
            return None
        return frozenset().union(*alternatives)
    return None


def screen(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """The literals of which a text must hold one for ``pattern`` to match it (longest first), or
    None when the pattern has no screen and must always run; test a text with :func:`may_match`."""
    literals = required_literals(pattern)
    if literals is None:
        return None
    # a text holding "september" holds "sep": looking for the shorter alone says the same
    needed = {w for w in literals if not any(o != w and o in w for o in literals)}
    return tuple(sorted(needed, key=lambda w: (-len(w), w)))


def may_match(literals: tuple[str, ...] | None, text: str) -> bool:
    """False only when ``text`` holds none of ``literals`` (so their pattern cannot match it)."""
    if literals is None:
        return True
    for word in literals:  # a plain loop: measurably cheaper than any() over a generator here
        if word in text:
            return True
    return False
