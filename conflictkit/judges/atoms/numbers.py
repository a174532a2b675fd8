"""Numbers, amounts, percentages, durations, counts and frequencies, normalized so format never matters.

"thirty (30) days" == "30 days" == "thirty days" == "30-day"; "$1,000" == "USD 1,000" ==
"one thousand dollars" == "US$1,000.00" == "$1 000" == "USD 1'000"; "5%" == "five percent" == "5 per cent";
"3,5%" == "3.5%" (a decimal comma in a rate or an amount); "1/2 of the Fee" == "50% of the Fee";
"one (1) year" == "12 months". Days, business days, months and years stay different units (only
weeks->days, years->months and minutes->hours are converted, which are exact). Comparators ("at
least", "not more than", "within", "no later than", "or more") and directions ("prior to",
"after") are kept with the number, and their words are claimed so the "not" of "not less than" is
never a negation. Numbers of cross-references ("Section 4.2", "Exhibit 3") are claimed and
ignored: renumbering is formatting. Every word and pattern is the pack's (``numbers.yaml``,
compiled by :mod:`conflictkit.judges.atoms.numgrammar`); dates are :mod:`conflictkit.judges.atoms.calendar`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from conflictkit.judges.atoms.calendar import claim, duration_unit, fmt, times_of_day, uncompared
from conflictkit.judges.atoms.numgrammar import NumberGrammar, grammar
from conflictkit.judges.atoms.screen import may_match
from conflictkit.judges.atoms.text import Atom, Mask
from conflictkit.lexicon import LanguagePack, load

_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+){2,}|\d+\.\d+(?=\s*\()")
_LEADING_NUMBER = re.compile(
    r"^\s*(?:\d+(?:\.\d+)+\.?|\d+[.)]|[ivxlc]+[.)]|[a-z][.)]|\(\w{1,5}\))(?:\s*(?:\d+(?:\.\d+)*[.)]|\(\w{1,5}\)))*\s+"
)
_PER_YEAR = {"hour": 8760, "day": 365, "week": 52, "2 weeks": 26, "month": 12, "quarter": 4, "half-year": 2, "year": 1}
_GROUP_SEPARATORS = " '"  # what flat() leaves of spaces, thin spaces and apostrophes between digit groups
_THREE_DIGITS = re.compile(r"\d{3}(?![\d'])(?! \d)|\d{3}(?=[ ']\d{3}(?!\d))")
_DECIMAL_COMMA = re.compile(r",\d{1,2}(?![\d,])")
_SPLIT_WORDS = re.compile(r"[\s-]+")


def words_to_number(phrase: str, lex: LanguagePack | None = None) -> float | None:
    """The value of a number phrase in the pack's language ("one hundred and twenty-five" -> 125), or None."""
    g = grammar(lex or load())
    n = g.n
    total, current, seen = 0.0, 0.0, False
    phrase = g.fraction_phrase.sub(lambda m: _SPLIT_WORDS.split(m.group())[-1], phrase)
    for word in _words_of(g, phrase):
        if word in n.joiners or not word:
            continue
        if word in n.units:
            current += n.units[word]
        elif word in n.fractions:
            current += n.fractions[word]
        elif word in n.scales and n.scales[word] < 1000:
            current = max(current, 1) * n.scales[word]  # "two hundred": a hundred multiplies what is before it
        elif word in n.scales:
            total += max(current, 1) * n.scales[word]  # "two thousand": a thousand closes a group
            current = 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


def _words_of(g: NumberGrammar, phrase: str) -> list[str]:
    """The number words of a phrase; in a compounding language each word is split into the number words it is made of."""
    words = _SPLIT_WORDS.split(phrase)
    if not g.compound_parts:
        return words
    parts = re.compile(f"(?:{g.compound_parts})")
    out = []
    for word in words:
        pieces = parts.findall(word)
        out += pieces if "".join(pieces) == word else [word]  # a word not made of number words stays itself (no number)
    return out


def _digits(g: NumberGrammar, s: str) -> float:
    if g.n.decimal_mark == ",":
        return float(("0" + s if s.startswith(",") else s).replace(".", "").replace(",", "."))
    if s.startswith("."):
        return float("0" + s)  # ".5%"
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", s) and (s.count(".") > 1 or "," in s):
        return float(s.replace(".", "").replace(",", "."))  # European: 10.000,00
    return float(s.replace(",", ""))


def _safe_int(s: str | None) -> float | None:
    return float(s) if s and s.isdigit() else None


def extract_frequencies(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """How often: "quarterly" == "once per quarter" == "every quarter"; "twice a year" != "annually"."""
    g = grammar(lex)
    atoms: list[Atom] = []
    if not may_match(g.frequency_screen, low):
        return atoms
    for m in g.p.frequency.finditer(low):
        if not mask.free(m.start(), m.end()):
            continue
        if m.group("times"):
            times = g.n.times.get(m.group("times")) or words_to_number(m.group("n") or "", lex) or _safe_int(m.group("n"))
            if not times:
                continue
            count, period = times, g.n.periods[re.sub(r"\s+", " ", m.group("per"))]
        else:
            count, period = 1, g.n.periods[re.sub(r"\s+", " ", m.group("adv") or m.group("every"))]
        mask.take(m.start(), m.end())
        per_year = count * _PER_YEAR[period]  # "twice a year" == "semi-annually"
        atoms.append(uncompared("frequency", f"frequency:{fmt(per_year)}/year", text, m))
    return atoms


def _currency_named(g: NumberGrammar, words: str) -> str:
    """The ISO code of a currency named in words ("euros" -> EUR, "canadian dollars" -> CAD)."""
    return next((code for start, code in g.n.currency_names.items() if words.startswith(start)), g.n.default_currency)


def extract_currencies(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Currencies named without an amount ("payable in euros"); run after amounts have claimed theirs."""
    g = grammar(lex)
    atoms = []
    for m in g.p.currency_words.finditer(low):
        if claim(mask, m.start(), m.end()):
            atoms.append(uncompared("currency", f"currency:{_currency_named(g, m.group('c'))}", text, m))
    return atoms


def _skip_xrefs(g: NumberGrammar, text: str, low: str, mask: Mask, numbers: list[re.Match[str]]) -> None:
    """Claim numbers that only point elsewhere (section numbers, leading list numbers)."""
    lead = _LEADING_NUMBER.match(low)
    if lead and lead.end() < len(low) and text[lead.end()].isupper():
        mask.take(lead.start(), lead.end())
    for m in _SECTION_NUMBER.finditer(low):
        mask.take(m.start(), m.end())
    for m in numbers:
        if m.group("d") and g.xref.search(low, max(0, m.start() - 60), m.start()):
            mask.take(m.start(), m.end())


def _fractions(g: NumberGrammar, text: str, low: str, mask: Mask) -> list[Atom]:
    """Shares said as fractions: "half of the Fee" == "50% of the Fee", "the other half" == "the remaining 50%"."""
    atoms: list[Atom] = []
    if not any(cue in low for cue in g.n.fraction_cues):
        return atoms
    for m in g.p.fraction_shares.finditer(low):
        last = m.group("f").split()[-1].split("-")[-1]
        rest = g.p.fraction_rest.match(m.group("f"))
        if not (m.group("of") or rest) or not rest and g.p.fraction_period.search(low, max(0, m.start() - 8), m.start()):
            continue  # "a quarter" alone is more often three months than a share; "the first half of" a year is a period
        if claim(mask, m.start(), m.end()):
            atoms.append(uncompared("percent", f"percent:{fmt(g.n.fraction_values[last])}:", text, m))
    return atoms


_UNIT_PER_YEAR = {"day": 365, "week": 52, "month": 12, "quarter": 4, "year": 1}


def _every_n(g: NumberGrammar, lex: LanguagePack, text: str, low: str, mask: Mask) -> list[Atom]:
    """How often, said as a period: "every three months" == "quarterly", "every 6 months" ==
    "twice a year"; "every 30 days" stays 365/30 a year, not monthly."""
    atoms: list[Atom] = []
    if not any(cue in low for cue in g.n.every_n_cues):
        return atoms
    for m in g.every_n.finditer(low):
        n = _safe_int(m.group("n")) or words_to_number(m.group("n"), lex)
        if not n or not claim(mask, m.start(), m.end()):
            continue
        base = m.group("u").split()[-1].rstrip(g.n.period_plural)
        per_year = _UNIT_PER_YEAR[g.n.period_words.get(base, base)] / n
        atoms.append(uncompared("frequency", f"frequency:{fmt(round(per_year, 3))}/year", text, m))
    return atoms


def _plain_separators(g: NumberGrammar, low: str, numbers: list[re.Match[str]]) -> str:
    """``low`` with digit groups written the plain way, same length: "1 250 000" and "1'250'000" as
    "1,250,000"; a decimal comma that cannot separate thousands ("3,5%", "EUR 1,50") as a point.
    Only the characters right after each number are looked at, so clauses without them cost nothing."""
    chars: list[str] | None = None
    for m in numbers:
        end = m.end()
        if not low[end + 1:end + 2].isdigit() or m.group("d") is None:
            continue  # most numbers end before a space and a word: nothing to join
        sep = low[end]
        if sep in _GROUP_SEPARATORS and _THREE_DIGITS.match(low, end + 1) and re.fullmatch(r"\d{1,3}", m.group()):
            chars = chars if chars is not None else list(low)
            chars[end] = "," if g.n.decimal_mark == "." else "."  # each later group joins on its turn
        elif sep == "," and m.group().isdigit() and _DECIMAL_COMMA.match(low, end) and _reads_as_decimal(g, low, m, end):
            chars = chars if chars is not None else list(low)
            chars[end] = "."
    return low if chars is None else "".join(chars)


def _reads_as_decimal(g: NumberGrammar, low: str, m: re.Match[str], comma: int) -> bool:
    """A comma before one or two digits is a decimal comma when the figure is a rate or an amount
    ("3,5%", "EUR 1,50", "1,50 euros"); "items 1,2" stays a list."""
    pre = g.p.currency_prefix.search(low, max(0, m.start() - 8), m.start())
    if pre and pre.end() == m.start():
        return True
    after = _DECIMAL_COMMA.match(low, comma).end()
    return bool(g.p.decimal_context.match(low, after))


def _slash_fractions(g: NumberGrammar, text: str, low: str, mask: Mask, numbers: list[re.Match[str]]) -> list[Atom]:
    """Shares written with a slash: "1/2 of the Fees" == "50% of the Fees"; a date ("1/2/2026") or
    "24/7" is no share, because only "n/d of" is one."""
    atoms: list[Atom] = []
    if "/" not in low:
        return atoms
    for m in numbers:
        if m.group("d") is None or low[m.end():m.end() + 1] != "/":
            continue
        f = g.p.slash_fraction.match(low, m.start())
        if f is None or int(f.group("d")) == 0 or int(f.group("n")) > int(f.group("d")):
            continue
        if (m.start() and low[m.start() - 1] == "/") or not claim(mask, f.start(), f.end()):
            continue  # the tail of a date or a path
        share = round(100 * int(f.group("n")) / int(f.group("d")), 2)
        atoms.append(uncompared("percent", f"percent:{fmt(share)}:", text, f))
    return atoms


def extract_numbers(text: str, low: str, mask: Mask, lex: LanguagePack) -> list[Atom]:
    """Amounts, percentages, durations, counts and clock times, each with its comparator and direction."""
    g = grammar(lex)
    for m in g.p.comparator_idioms.finditer(low):
        mask.take(m.start(), m.end())
    numbers = list(g.core.finditer(low))  # one scan for both passes: the matches do not depend on the mask
    separated = _plain_separators(g, low, numbers)
    if separated != low:  # same length, so every position still points into ``text``
        low, numbers = separated, list(g.core.finditer(separated))
    _skip_xrefs(g, text, low, mask, numbers)
    atoms: list[Atom] = (times_of_day(text, low, mask, lex) + _slash_fractions(g, text, low, mask, numbers)
                         + _fractions(g, text, low, mask) + _every_n(g, lex, text, low, mask))
    for m in numbers:
        if mask.free(m.start(), m.end()):
            atom = _number_at(g, lex, text, low, m, mask)
            if atom is not None:
                atoms.append(atom)
    return atoms


# -- one number and what comes with it -------------------------------------------------------------

@dataclass
class _Reading:
    """A number being read: its value and extent so far, and what the words around it add."""

    m: re.Match[str]
    is_words: bool
    value: float
    start: int
    end: int
    currency: str | None = None
    restated: bool = False
    kind: str = "count"
    unit: str = ""
    cmp: str = ""
    cmp_start: int = 0
    direction: re.Match[str] | None = None

    @property
    def bare_word(self) -> bool:
        """A count of less than two said in words alone ("one"), with no figure restating it."""
        return self.is_words and not self.restated and self.kind == "count" and self.value < 2


def _number_at(g: NumberGrammar, lex: LanguagePack, text: str, low: str, m: re.Match[str], mask: Mask) -> Atom | None:
    r = _value(g, lex, low, m)
    if r is None:
        return None
    _currency_before(g, low, r)
    _restatement(g, lex, low, r)
    _scale(g, low, r)
    _unit(g, low, r)
    if r.bare_word and not _single_item(g, low, m):
        return None  # "one of the parties", "any one": not a quantity
    if r.kind == "count" and not r.is_words and _looks_like_year(r.value, m.group()):
        r.kind = "year"
    _per(g, low, r)
    _bounds(g, low, r)
    _direction(g, low, r, mask)
    if not mask.free(r.start, r.end):
        r.end = m.end()
    mask.take(r.cmp_start if r.cmp else r.start, r.end)
    return _atom(g, text, low, r)


def _part_of_name(g: NumberGrammar, low: str, end: int) -> bool:
    """Digits glued to letters that are no unit ("37signals", "3M Company"): a name, not a number."""
    glued = g.glued.match(low, end)
    return glued is not None and glued.group() not in g.n.glued_units


def _value(g: NumberGrammar, lex: LanguagePack, low: str, m: re.Match[str]) -> _Reading | None:
    is_words = m.group("w") is not None
    if not is_words and _part_of_name(g, low, m.end()):
        return None
    value = words_to_number(m.group(), lex) if is_words else _digits(g, m.group())
    return None if value is None else _Reading(m, is_words, value, m.start(), m.end())


def _currency_before(g: NumberGrammar, low: str, r: _Reading) -> None:
    """A currency symbol or code right before the figure ("US$1,000", "EUR 50")."""
    pre = g.p.currency_prefix.search(low, max(0, r.start - 8), r.start)
    if pre and pre.end() == r.start:
        code = re.sub(r"\s", "", pre.group("c"))
        r.currency = g.n.currency_symbols.get(code) or g.n.currency_codes.get(code)
        r.start = pre.start()


def _restatement(g: NumberGrammar, lex: LanguagePack, low: str, r: _Reading) -> None:
    """The figure restated in parentheses ("thirty (30)", "30 (thirty)"): the figure in them counts."""
    for pattern in (g.p.restated, g.restated_words):
        p = pattern.match(low, r.end)
        if p:
            inner = _digits(g, p.group("d")) if "d" in p.groupdict() else words_to_number(p.group("w"), lex)
            r.value, r.end, r.restated = (inner if inner is not None else r.value), p.end(), True
            return


def _scale(g: NumberGrammar, low: str, r: _Reading) -> None:
    """A scale after the figure ("5 million", "2bn"); an abbreviation only after digits."""
    scale = g.p.scale_after.match(low, r.end)
    if scale and not (scale.group("s") in g.n.scale_abbreviations and r.is_words):
        r.value *= g.n.scale_values[scale.group("s")]
        r.end = scale.end()


def _unit(g: NumberGrammar, low: str, r: _Reading) -> None:
    """The unit after the number: a currency, a percentage, a duration or a multiple."""
    u = g.p.unit.match(low, r.end)
    if u:
        r.end = u.end()
        if u.group("cur"):
            r.kind = "money"
            r.currency = r.currency or _currency_named(g, u.group("cur"))
        elif u.group("pct"):
            r.kind = "percentage points" if any(w in u.group("pct") for w in g.n.percentage_points) else "percent"
        elif u.group("dur"):
            r.kind, (r.value, r.unit) = "duration", duration_unit(g, u.group("dur"), r.value)
        else:
            r.kind, r.unit = "multiple", "times"
        p = g.p.restated.match(low, r.end)
        if p:
            r.end = p.end()
    if r.currency and r.kind == "count":
        r.kind = "money"
    if r.kind == "money":
        r.unit = r.currency or g.n.default_currency


def _single_item(g: NumberGrammar, low: str, m: re.Match[str]) -> bool:
    """Whether a bare "one" counts a thing ("one additional licence" == "one (1) additional licence",
    "one copy" != "copies"), not a pronoun or an idiom ("one of", "any one", "one or more")."""
    if m.group() not in g.n.single_items:
        return False
    return not g.p.not_a_count_after.match(low, m.end()) and not g.p.not_a_count_before.search(
        low, max(0, m.start() - 12), m.start())


def _looks_like_year(value: float, raw: str) -> bool:
    return len(raw) == 4 and raw.isdigit() and 1900 <= value <= 2100


def _per(g: NumberGrammar, low: str, r: _Reading) -> None:
    """A rate's period ("$10 per user", "2% per annum", "p.a.")."""
    per = g.p.per.match(low, r.end)
    if per and r.kind in ("money", "percent", "count", "multiple"):
        if per.group("abbr"):
            period = g.n.per_abbreviations[re.sub(r"[.\s]", "", per.group("abbr"))]
        else:
            word = per.group("p") or per.group("adv")
            period = g.n.per_words.get(word, word)
        r.unit += "/" + period
        r.end = per.end()


def _bounds(g: NumberGrammar, low: str, r: _Reading) -> None:
    """The comparator before the number ("at least"), or after it ("or more")."""
    r.cmp, r.cmp_start = "", r.start
    before = g.comparator_before.search(low, max(0, r.start - 40), r.start)
    if before:
        r.cmp, r.cmp_start = next(((sign, before.start("cmp")) for i, sign in enumerate(g.signs)
                                   if before.group(f"c{i}")), ("", r.start))
    post = g.p.comparator_after.match(low, r.end)
    if post:
        r.cmp, r.end = g.n.post_comparators[post.group("post")], post.end()


def _direction(g: NumberGrammar, low: str, r: _Reading, mask: Mask) -> None:
    """The direction of a duration ("30 days after", "prior to"); "within 14 days of" is after."""
    if r.kind != "duration":
        return
    d = g.p.direction.match(low, r.end)
    if d is None and r.cmp and low.startswith(tuple(g.n.within), r.cmp_start):
        d = g.p.within_of.match(low, r.end)  # "within 14 days of delivery": the days after it
    if d:
        r.direction = d
        mask.take(d.start("dir"), d.end("dir"))  # "in advance" here is the direction, not a "prior" qualifier


def _atom(g: NumberGrammar, text: str, low: str, r: _Reading) -> Atom:
    d = r.direction
    direction = "" if d is None else "before" if d.group("dir").startswith(tuple(g.n.directions_before)) else "after"
    attrs: tuple[tuple[str, str], ...] = (("cmp", r.cmp), ("dir", direction), ("cmp_start", str(r.cmp_start if r.cmp else r.start)))
    edge = g.p.edge_before.search(low, max(0, r.start - 9), r.start) if r.kind == "duration" else None
    if edge:
        attrs += (("edge", g.n.edges[edge.group("edge")]), ("edge_start", str(edge.start())))
    if r.bare_word:
        attrs += (("counted", low[r.m.end():].split(maxsplit=1)[0].strip(".,;:")),)  # a bare "one": what it counts
    if d:
        attrs += (("dir_end", str(d.end("dir"))),)  # quoted with the number: "14 days after" / "14 days before"
    return Atom("number", r.kind, f"{r.kind}:{fmt(r.value)}:{r.unit}", text[r.start:r.end], r.start, r.end, attrs=attrs)
