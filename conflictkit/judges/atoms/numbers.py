"""Numbers, amounts, percentages, durations, counts and dates, normalized so format never matters.

"thirty (30) days" == "30 days" == "thirty days" == "30-day"; "$1,000" == "USD 1,000" ==
"one thousand dollars" == "US$1,000.00" == "$1 000" == "USD 1'000"; "5%" == "five percent" == "5 per cent";
"3,5%" == "3.5%" (a decimal comma in a rate or an amount); "1/2 of the Fee" == "50% of the Fee";
"one (1) year" == "12 months"; "January 1, 2025" == "1 January 2025" == "2025-01-01".
Days, business days, months and years stay different units (only weeks->days, years->months
and minutes->hours are converted, which are exact). Comparators ("at least", "not more than",
"within", "no later than", "or more") and directions ("prior to", "after") are kept with the
number, and their words are claimed so the "not" of "not less than" is never a negation.
Numbers of cross-references ("Section 4.2", "Exhibit 3") are claimed and ignored: renumbering
is formatting.
"""

from __future__ import annotations

import re

from conflictkit.judges.atoms.screen import may_match, screen
from conflictkit.judges.atoms.text import Atom, Mask

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}
_SCALES = {"hundred": 100, "thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMWORD = "(?:" + "|".join(sorted(list(_UNITS) + list(_SCALES) + ["one-half", "one half", "a half"], key=len, reverse=True)) + ")"
_WORDS = rf"\b{_NUMWORD}(?:(?:[\s-]+|\s+and\s+){_NUMWORD})*\b"
_DIGITS = (r"(?<![\w.,])\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d])|(?<![\w.,])\d{1,3}(?:\.\d{3}){2,}(?![\d,])"  # 10.000,00
           r"|(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|(?<![\w.,])(?:\d+(?:\.\d+)?(?![\d])|\.\d+(?![\d.]))")
_CORE = re.compile(rf"(?P<d>{_DIGITS})|(?P<w>{_WORDS})")

_CURRENCY_PREFIX = re.compile(
    r"(?:(?P<c>us\s?\$|u\.s\.\s?\$|a\$|au\$|c\$|ca\$|s\$|nz\$|hk\$|\$|€|£|¥|usd|eur|gbp|cad|aud|chf|jpy|inr|sgd|nzd|hkd)\s?)$"
)
_PREFIX_CODES = {"$": "USD", "us$": "USD", "u.s.$": "USD", "a$": "AUD", "au$": "AUD", "c$": "CAD", "ca$": "CAD",
                 "s$": "SGD", "nz$": "NZD", "hk$": "HKD", "€": "EUR", "£": "GBP", "¥": "JPY"}
_PAREN = re.compile(
    r"\s?[(\[]\s?(?:(?:us\s?\$|u\.s\.\s?\$|\$|€|£|usd|eur|gbp)\s?)?(?P<d>\d[\d,]*(?:\.\d+)?)\s?(?:%|percent|per\s?cent)?\s?[)\]]"
)
_PAREN_WORDS = re.compile(rf"\s?[(\[]\s?(?P<w>{_WORDS})\s?[)\]]")
_SCALE = re.compile(r"\s?(?P<s>million|billion|thousand|mm|bn|m|k)\b")
_UNIT = re.compile(
    r"[\s-]?(?:(?P<cur>(?:u\.?s\.?\s|united\s+states\s|american\s|canadian\s|australian\s)?dollars?|euros?|"
    r"pounds?(?:\s+sterling)?|usd|eur|gbp|cad|aud|chf|€|£)|(?P<pct>%|percent(?:age\s+points?)?|per\s?cent|pc\b)|"
    r"(?P<dur>(?:(?:calendar|business|working|banking|consecutive)\s+)?(?:days?|weeks?|months?|years?|hours?|minutes?"
    r"|hrs?\b\.?|yrs?\b\.?|mos?\b\.?|wks?\b\.?|mins?\b\.?)"
    r"|(?:(?:calendar|business|working)[\s-])?(?:day|week|month|year|hour)(?=[\s-]))"
    r"|(?P<times>times|x\b|fold))(?:'s|')?"
)
_CODE_WORDS = {"usd": "USD", "eur": "EUR", "gbp": "GBP", "cad": "CAD", "aud": "AUD", "chf": "CHF", "jpy": "JPY",
               "inr": "INR", "sgd": "SGD", "nzd": "NZD", "hkd": "HKD"}
_PER = re.compile(
    r"(?:\s?(?:per|a|an|each|every)\s+|\s?/\s?)(?P<p>annum|year|calendar\s+year|month|calendar\s+month|quarter|week|day|hour|"
    r"user|seat|license|licence|unit|invoice)\b|\s(?P<adv>annually|monthly|quarterly|weekly|daily|hourly)\b"
    r"|\s?(?P<abbr>p\.\s?a\.?|p\.\s?c\.\s?m\.?|pcm|p\.\s?w\.?)(?![a-z])"
)
_PER_ADV = {"annually": "year", "monthly": "month", "quarterly": "quarter", "weekly": "week", "daily": "day",
            "hourly": "hour", "annum": "year", "calendar year": "year", "calendar month": "month", "licence": "license"}
# The drafting abbreviations of a rate's period ("p.a." is "per annum", "pcm" "per calendar month"), read
# without their dots and spaces; "p.m." is not one of them (a clock time).
_PER_ABBREVIATIONS = {"pa": "year", "pcm": "month", "pw": "week"}
_WITHIN_OF = re.compile(r"\s(?P<dir>of)\s")


def _per_unit(per: re.Match[str]) -> str:
    if per.group("abbr"):
        return _PER_ABBREVIATIONS[re.sub(r"[.\s]", "", per.group("abbr"))]
    word = per.group("p") or per.group("adv")
    return _PER_ADV.get(word, word)


_DIRECTION = re.compile(
    r"\s?(?:of\s+|'\s?|'s\s+)?(?:(?:advance\s+|prior\s+)?(?:written\s+)?(?:notice\s+)?)?"
    r"(?P<dir>prior\s+to|before|in\s+advance(?:\s+of)?|preceding|after|following|from|of\s+receipt|of\s+the\s+date)\b"
)
_COMPARATORS = [
    (">=", r"at\s+least|not\s+(?:be\s+)?less\s+than|no\s+less\s+than|not\s+fewer\s+than|no\s+fewer\s+than|a\s+minimum\s+of|"
           r"minimum\s+of|at\s+a\s+minimum|no\s+sooner\s+than|not\s+sooner\s+than|not\s+earlier\s+than|no\s+earlier\s+than"),
    ("<=", r"at\s+most|not\s+(?:be\s+)?more\s+than|no\s+more\s+than|not\s+to\s+exceed|not\s+exceeding|up\s+to|"
           r"a\s+maximum\s+of|maximum\s+of|no\s+greater\s+than|not\s+greater\s+than|within|(?:shall|will|must|may|does|do)\s+not\s+exceed|"
           r"(?:limited|capped|restricted)\s+(?:to|at)|(?:subject\s+to\s+)?a\s+(?:cap|ceiling)\s+of|"
           r"no\s+later\s+than|not\s+later\s+than|in\s+no\s+event\s+later\s+than|on\s+or\s+before"),
    (">", r"more\s+than|greater\s+than|in\s+excess\s+of|exceeding|over|above|longer\s+than"),
    ("<", r"less\s+than|fewer\s+than|under|below|shorter\s+than"),
]
_COMPARATOR_BEFORE = re.compile(
    r"(?:^|[^\w])(?P<cmp>" + "|".join(f"(?P<c{i}>{pat})" for i, (_, pat) in enumerate(_COMPARATORS)) + r")\s+(?:the\s+)?$"
)
_COMPARATOR_AFTER = re.compile(r"\s?(?:,\s?)?or\s+(?P<post>more|greater|longer|less|fewer|shorter)\b")
_POST_CMP = {"more": ">=", "greater": ">=", "longer": ">=", "less": "<=", "fewer": "<=", "shorter": "<="}
# Comparator idioms are claimed even with no number after them ("no later than the Effective Date").
COMPARATOR_IDIOMS = re.compile(
    r"\b(?:no|not)\s+(?:be\s+)?(?:later|earlier|sooner|less|more|fewer|greater)(?:\s+[a-z]+)?\s+than\b"  # "no less care than"
    r"|\bnot\s+(?:to\s+)?exceed(?:ing)?\b"
    r"|\bin\s+no\s+event\s+later\s+than\b"
)
_XREF_WORD = (r"section|clause|article|schedule|exhibit|annex|annexure|appendix|attachment|addendum|rider|table|figure|"
              r"paragraph|para\.?|subsection|item|part|rule|regulation|§|no\.|number|chapter|title|page|form|version|"
              r"v\.?|iso|soc|sec\.|art\.|cl\.|sched\.|#")
_XREF_LIST = r"(?:[\d.()a-z]+\s*(?:,\s*(?:and|or)?|and|or|through|to|-)\s*)"
_XREF = re.compile(
    rf"(?<![a-z])(?:(?:{_XREF_WORD})\s*{_XREF_LIST}?|(?:sections|clauses|articles|schedules|exhibits|annexes|annexures|"
    rf"appendices|attachments|addenda|riders|tables|paragraphs|subsections|items|parts|§§|nos\.|secs\.|arts\.)\s*"
    rf"{_XREF_LIST}*)$"
)
_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+){2,}|\d+\.\d+(?=\s*\()")
_LEADING_NUMBER = re.compile(
    r"^\s*(?:\d+(?:\.\d+)+\.?|\d+[.)]|[ivxlc]+[.)]|[a-z][.)]|\(\w{1,5}\))(?:\s*(?:\d+(?:\.\d+)*[.)]|\(\w{1,5}\)))*\s+"
)

_MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
_MONTH_ABBR = {m[:3]: i for m, i in _MONTHS.items()} | {"sept": 9}
_MONTH = r"(?P<mon>january|february|march|april|may|june|july|august|september|october|november|december|" \
         r"jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?"
_DATES = [
    re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})\b"),
    re.compile(rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTH},?\s+(?P<year>\d{{4}})\b"),
    re.compile(r"\b(?P<year>\d{4})-(?P<mnum>\d{1,2})-(?P<day>\d{1,2})\b"),
    re.compile(r"\b(?P<mnum>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})\b"),
    re.compile(rf"\b{_MONTH}\s+(?P<year>\d{{4}})\b"),
    re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:%|percent|days?|months?|years?))"),
    re.compile(rf"\b(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?{_MONTH}\b"),
]
_DATE_SCREENS = [screen(p) for p in _DATES]  # most need a month's name: a clause without one is not scanned


def words_to_number(phrase: str) -> float | None:
    """The value of an English number phrase ("one hundred and twenty-five" -> 125), or None."""
    total, current, seen = 0.0, 0.0, False
    phrase = re.sub(r"\b(?:one|a)[\s-]half\b", "half", phrase)
    for word in re.split(r"[\s-]+", phrase):
        if word == "and" or not word:
            continue
        if word in _UNITS:
            current += _UNITS[word]
        elif word == "half":
            current += 0.5
        elif word == "hundred":
            current = max(current, 1) * 100
        elif word in _SCALES:
            total += max(current, 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


def _digits(s: str) -> float:
    if s.startswith("."):
        return float("0" + s)  # ".5%"
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", s) and (s.count(".") > 1 or "," in s):
        return float(s.replace(".", "").replace(",", "."))  # European: 10.000,00
    return float(s.replace(",", ""))


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


def _claim(mask: Mask, start: int, end: int) -> bool:
    if not mask.free(start, end):
        return False
    mask.take(start, end)
    return True


_PERIODS = {"day": "day", "daily": "day", "week": "week", "weekly": "week", "month": "month", "monthly": "month",
            "quarter": "quarter", "quarterly": "quarter", "year": "year", "annum": "year", "annually": "year",
            "yearly": "year", "annual": "year", "calendar year": "year", "calendar month": "month", "hour": "hour",
            "hourly": "hour", "semi-annually": "half-year", "semiannually": "half-year", "biweekly": "2 weeks",
            "fortnightly": "2 weeks"}
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_PER_YEAR = {"hour": 8760, "day": 365, "week": 52, "2 weeks": 26, "month": 12, "quarter": 4, "half-year": 2, "year": 1}
_FREQUENCY = re.compile(
    r"\b(?:(?P<times>once|twice|thrice|(?P<n>\w+)\s+(?:\(\d+\)\s+)?times)\s+(?:a|an|per|each|every|in\s+any)\s+"
    r"(?P<per>calendar\s+year|calendar\s+month|day|week|month|quarter|year|annum|hour)"
    r"|(?P<adv>daily|weekly|monthly|quarterly|annually|yearly|hourly|semi-?annually|biweekly|fortnightly)"
    r"|(?:each|every|per)\s+(?P<every>day|week|month|quarter|year|hour|calendar\s+year|calendar\s+month))\b"
)
_CURRENCY_WORDS = re.compile(
    r"\b(?P<c>(?:u\.?s\.?\s|united\s+states\s)dollars?|euros?|pounds?\s+sterling|sterling|usd|eur|gbp|"
    r"canadian\s+dollars?|australian\s+dollars?|swiss\s+francs?|yen)\b"
)
_CURRENCY_CODES = {"euro": "EUR", "pound": "GBP", "sterling": "GBP", "usd": "USD", "eur": "EUR", "gbp": "GBP",
                   "canadian": "CAD", "australian": "AUD", "swiss": "CHF", "yen": "JPY"}


_FREQUENCY_SCREEN = screen(_FREQUENCY)


def extract_frequencies(text: str, low: str, mask: Mask) -> list[Atom]:
    """How often: "quarterly" == "once per quarter" == "every quarter"; "twice a year" != "annually"."""
    atoms = []
    if not may_match(_FREQUENCY_SCREEN, low):
        return atoms
    for m in _FREQUENCY.finditer(low):
        if not mask.free(m.start(), m.end()):
            continue
        if m.group("times"):
            times = _TIMES.get(m.group("times")) or words_to_number(m.group("n") or "") or _safe_int(m.group("n"))
            if not times:
                continue
            count, period = times, _PERIODS[re.sub(r"\s+", " ", m.group("per"))]
        elif m.group("adv"):
            count, period = 1, _PERIODS[m.group("adv").replace("semi-annually", "semiannually")]
        else:
            count, period = 1, _PERIODS[re.sub(r"\s+", " ", m.group("every"))]
        mask.take(m.start(), m.end())
        per_year = count * _PER_YEAR[period]  # "twice a year" == "semi-annually"
        atoms.append(_uncompared("frequency", f"frequency:{_fmt(per_year)}/year", text, m))
    return atoms


def _safe_int(s: str | None) -> float | None:
    return float(s) if s and s.isdigit() else None


def extract_currencies(text: str, low: str, mask: Mask) -> list[Atom]:
    """Currencies named without an amount ("payable in euros"); run after amounts have claimed theirs."""
    atoms = []
    for m in _CURRENCY_WORDS.finditer(low):
        if not mask.free(m.start(), m.end()):
            continue
        word = m.group("c")
        code = next((c for k, c in _CURRENCY_CODES.items() if word.startswith(k)), "USD")
        mask.take(m.start(), m.end())
        atoms.append(_uncompared("currency", f"currency:{code}", text, m))
    return atoms


_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
    "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split())} | {
    "twenty-first": 21, "twenty-second": 22, "twenty-third": 23, "twenty-fourth": 24, "twenty-fifth": 25,
    "twenty-sixth": 26, "twenty-seventh": 27, "twenty-eighth": 28, "twenty-ninth": 29, "thirtieth": 30,
    "thirty-first": 31, "last": -1, "final": -1, "penultimate": -2}
_ORDINAL = re.compile(
    r"\b(?P<o>" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r"|next|(?P<d>\d{1,2})(?:st|nd|rd|th))\s+"
    r"(?:\(\s?\d{1,2}(?:st|nd|rd|th)\s?\)\s+)?(?:(?:business|working|banking|calendar|full)\s+)?"
    r"(?P<u>day|week|month|quarter|year|anniversary|instal+ment|payment|renewal|period|milestone)s?\b"
)
_WEEKDAY = re.compile(r"\b(?P<w>Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b")
_QUARTER = re.compile(r"\b[Qq](?P<q>[1-4])\b")
_MONTH_ALONE = re.compile(
    r"\b(?P<m>January|February|March|April|June|July|August|September|October|November|December)\b"
    r"|(?<=\bof\s)(?P<may>May)\b|(?<=\bin\s)(?P<may2>May)\b"
)


_CALENDAR_SCREENS = {p: screen(p) for p in (_ORDINAL, _WEEKDAY, _QUARTER, _MONTH_ALONE)}
_PAREN_ORDINAL = re.compile(r"\(\s?\d{1,2}(?:st|nd|rd|th)\s?\)")
_PERIOD_UNITS = {"day", "week", "month", "quarter", "year"}
# "the first Business Day after", "... immediately after", "... next following", "... that follows"
_ORDINAL_AFTER = re.compile(
    r",?\s+(?:(?:that|which)\s+(?:is|falls|occurs)\s+|(?:falling|occurring|to\s+occur)\s+)?(?:(?:immediately|directly|next)\s+)?"
    r"(?:after|following|succeeding|subsequent\s+to|that\s+follows|to\s+follow)\b")


_WINDOW_UNITS = {"week", "month", "year"}  # "the first day of the month" is a date, not a window
_OF_A_SPAN = re.compile(r"\s+of\b")
# "the final twelve months of employment": which end of a span a period sits at
_EDGE_BEFORE = re.compile(r"\b(?P<edge>first|initial|opening|last|final|closing)\s+$")
_EDGE_OF_ORDINAL = {1: "first", -1: "last"}
_EDGES = {"first": "first", "initial": "first", "opening": "first", "last": "last", "final": "last", "closing": "last"}


def extract_calendar_words(text: str, low: str, mask: Mask) -> list[Atom]:
    """Dates named without a full date: "the fifteenth day of each month", "the end of March",
    "every Friday", "Q3", "the second anniversary". Run after full dates have claimed theirs."""
    atoms: list[Atom] = []
    for m in _ORDINAL.finditer(low) if may_match(_CALENDAR_SCREENS[_ORDINAL], low) else ():
        if m.group("o") == "next" and not _ORDINAL_AFTER.match(low, m.end()):
            continue  # "the next month": neither a date nor a period after an event
        if not _claim(mask, m.start(), m.end()):
            continue
        n = int(m.group("d")) if m.group("d") else _ORDINALS.get(m.group("o"), 1)  # "the next Business Day"
        unit = m.group("u").replace("installment", "instalment")
        after = _ORDINAL_AFTER.match(low, m.end())

        if n > 0 and unit in _PERIOD_UNITS and after:
            # "the first Business Day after deposit" == "one (1) Business Day after deposit": the n-th
            # period after an event ends where n periods after it do
            value, period = _duration_unit(_PAREN_ORDINAL.sub("", low[m.end("o") if m.group("o") else m.end("d") + 2:m.end()]), n)
            atoms.append(Atom("number", "duration", f"duration:{_fmt(value)}:{period}", text[m.start():m.end()],
                              m.start(), m.end(), attrs=(("cmp", ""), ("dir", "after"), ("cmp_start", str(m.start())),
                                                         ("dir_end", str(after.end())))))
            mask.take(after.start(), after.end())
            continue
        if unit in _WINDOW_UNITS and _OF_A_SPAN.match(low, m.end()):
            # "the last year of employment" == "the final twelve months of employment": a window one
            # period long at one edge of a span (or the n-th such window: "the second year of the Term"), not a date
            value, period = _duration_unit(unit, 1)
            atoms.append(Atom("number", "duration", f"duration:{_fmt(value)}:{period}", text[m.start():m.end()],
                              m.start(), m.end(), attrs=(("cmp", ""), ("dir", ""), ("cmp_start", str(m.start())),
                                                         ("edge", _EDGE_OF_ORDINAL.get(n, f"#{n}")),
                                                         ("edge_start", str(m.start())))))
            continue
        atoms.append(Atom("date", "date", f"ordinal:{n}:{unit}", text[m.start():m.end()], m.start(), m.end()))
    for pattern, key in ((_WEEKDAY, lambda m: "weekday:" + m.group("w").lower()),
                         (_QUARTER, lambda m: "quarter:" + m.group("q")),
                         (_MONTH_ALONE, lambda m: "month:" + (m.group("m") or "May").lower())):
        if not may_match(_CALENDAR_SCREENS[pattern], text):
            continue
        for m in pattern.finditer(text):
            if _claim(mask, m.start(), m.end()):
                atoms.append(Atom("date", "date", key(m), text[m.start():m.end()], m.start(), m.end()))
    return atoms


def extract_dates(text: str, low: str, mask: Mask) -> list[Atom]:
    """Calendar dates in any common format, normalized to ISO (year-month-day, or a prefix of it)."""
    atoms: list[Atom] = []
    passed: dict[tuple[str, ...] | None, bool] = {}  # the patterns share their month names' screen
    for pattern, literals in zip(_DATES, _DATE_SCREENS, strict=True):
        if literals not in passed:
            passed[literals] = may_match(literals, low)
        if not passed[literals]:
            continue
        for m in pattern.finditer(low):
            parts = m.groupdict()
            mon = parts.get("mon")
            if mon and mon.startswith("may") and len(mon) == 3 and not text[m.start("mon")].isupper():
                continue  # the modal "may", not the month
            month = _MONTHS.get(mon or "", _MONTH_ABBR.get(mon or "")) if mon else int(parts["mnum"])
            day = int(parts["day"]) if parts.get("day") else None
            if not month or not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            if not _claim(mask, m.start(), m.end()):
                continue
            year = parts.get("year")
            key = "-".join(p for p in ((year or "?"), f"{month:02d}", f"{day:02d}" if day else "") if p)
            atoms.append(Atom("date", "date", key, text[m.start():m.end()], m.start(), m.end()))
    return atoms


def _skip_xrefs(text: str, low: str, mask: Mask, numbers: list[re.Match[str]] | None = None) -> None:
    """Claim numbers that only point elsewhere (section numbers, leading list numbers); ``numbers``
    are the clause's ``_CORE`` matches when the caller has them already."""
    lead = _LEADING_NUMBER.match(low)
    if lead and lead.end() < len(low) and text[lead.end()].isupper():
        mask.take(lead.start(), lead.end())
    for m in _SECTION_NUMBER.finditer(low):
        mask.take(m.start(), m.end())
    for m in _CORE.finditer(low) if numbers is None else numbers:
        if m.group("d") and _XREF.search(low, max(0, m.start() - 60), m.start()):
            mask.take(m.start(), m.end())


_TIME_OF_DAY = re.compile(
    r"\b(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s?(?P<ap>a\.?\s?m\b\.?|p\.?\s?m\b\.?)|\b(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)\b"
    r"(?:\s?(?:hrs|hours|h)\b)?|\b(?P<word>noon|midday|midnight)\b"
)


_CLOCK_HINT = re.compile(r"\d\s?[ap]\.?\s?m\b")


def _times_of_day(text: str, low: str, mask: Mask) -> list[Atom]:
    """Clock times, on a 24-hour clock: "5:00 p.m." == "17:00" == "5pm"; "noon" == "12:00"."""
    atoms: list[Atom] = []
    if ":" not in low and not _CLOCK_HINT.search(low) and not any(w in low for w in ("noon", "midday", "midnight")):
        return atoms  # most clauses name no time of day: skip the full pattern
    for m in _TIME_OF_DAY.finditer(low):
        if m.group("word"):
            hour, minute = (0 if m.group("word") == "midnight" else 12), 0
        elif m.group("ap"):
            hour, minute = int(m.group("h")), int(m.group("m") or 0)
            if not 1 <= hour <= 12 or minute > 59:
                continue
            hour = hour % 12 + (12 if m.group("ap").startswith("p") else 0)
        else:
            hour, minute = int(m.group("h24")), int(m.group("m24"))
        if _claim(mask, m.start(), m.end()):
            atoms.append(_uncompared("time", f"time:{hour:02d}:{minute:02d}", text, m, stripped=True))
    return atoms


_FRACTION = re.compile(
    r"\b(?P<f>(?:(?:a|one)[\s-])?half|(?:the\s+)?(?:other|remaining)\s+half|(?:a|one)[\s-]third|two[\s-]thirds|"
    r"(?:a|one)[\s-]quarter|three[\s-]quarters)\b(?:\s+of\b)?"
)
_HALF_OF_A_PERIOD = re.compile(r"\b(?:first|second|last|latter|former|and)\s+$")
_FRACTIONS = {"half": 50.0, "third": 33.33, "thirds": 66.67, "quarter": 25.0, "quarters": 75.0}


def _fractions(text: str, low: str, mask: Mask) -> list[Atom]:
    """Shares said as fractions: "half of the Fee" == "50% of the Fee", "the other half" == "the remaining 50%"."""
    atoms: list[Atom] = []
    if "half" not in low and "third" not in low and "quarter" not in low:
        return atoms
    for m in _FRACTION.finditer(low):
        last = m.group("f").split()[-1].split("-")[-1]
        rest = re.match(r"(?:the\s+)?(?:other|remaining)\s", m.group("f"))
        if not (m.group().endswith("of") or rest) or not rest and _HALF_OF_A_PERIOD.search(low, max(0, m.start() - 8), m.start()):
            continue  # "a quarter" alone is more often three months than a share; "the first half of" a year is a period
        if not _claim(mask, m.start(), m.end()):
            continue
        atoms.append(_uncompared("percent", f"percent:{_fmt(_FRACTIONS[last])}:", text, m))
    return atoms


_EVERY_N = re.compile(
    r"\b(?:(?:once\s+)?(?:every|each)|at\s+intervals\s+of)\s+(?P<n>" + _WORDS[2:-2] + r"|\d{1,3})(?:\s?\(\d{1,3}\))?[\s-]+"
    r"(?P<u>(?:calendar\s+)?(?:days?|weeks?|months?|years?|quarters?))\b(?:\s+periods?\b)?"
)
_UNIT_PER_YEAR = {"day": 365, "week": 52, "month": 12, "quarter": 4, "year": 1}


def _every_n(text: str, low: str, mask: Mask) -> list[Atom]:
    """How often, said as a period: "every three months" == "quarterly", "every 6 months" ==
    "twice a year"; "every 30 days" stays 365/30 a year, not monthly."""
    atoms: list[Atom] = []
    if "every" not in low and "each" not in low and "intervals" not in low:
        return atoms
    for m in _EVERY_N.finditer(low):
        n = _safe_int(m.group("n")) or words_to_number(m.group("n"))
        if not n or not _claim(mask, m.start(), m.end()):
            continue
        per_year = _UNIT_PER_YEAR[m.group("u").split()[-1].rstrip("s")] / n
        atoms.append(_uncompared("frequency", f"frequency:{_fmt(round(per_year, 3))}/year", text, m))
    return atoms


_GROUP_SEPARATORS = " '"  # what flat() leaves of spaces, thin spaces and apostrophes between digit groups
_THREE_DIGITS = re.compile(r"\d{3}(?![\d'])(?! \d)|\d{3}(?=[ ']\d{3}(?!\d))")
_DECIMAL_COMMA = re.compile(r",\d{1,2}(?![\d,])")
_DECIMAL_CONTEXT = re.compile(r"\s?(?:%|percent|per\s?cent|euros?|francs?|pounds?|dollars?|usd|eur|gbp|chf)")


def _plain_separators(low: str, numbers: list[re.Match[str]]) -> str:
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
            chars[end] = ","  # each later group is a number of its own here, so it joins on its turn
        elif sep == "," and m.group().isdigit() and _DECIMAL_COMMA.match(low, end) and _reads_as_decimal(low, m, end):
            chars = chars if chars is not None else list(low)
            chars[end] = "."
    return low if chars is None else "".join(chars)


def _reads_as_decimal(low: str, m: re.Match[str], comma: int) -> bool:
    """A comma before one or two digits is a decimal comma when the figure is a rate or an amount
    ("3,5%", "EUR 1,50", "1,50 euros"); "items 1,2" stays a list."""
    pre = _CURRENCY_PREFIX.search(low, max(0, m.start() - 8), m.start())
    if pre and pre.end() == m.start():
        return True
    after = _DECIMAL_COMMA.match(low, comma).end()
    return bool(_DECIMAL_CONTEXT.match(low, after))


_SLASH_FRACTION = re.compile(r"(?P<n>\d{1,2})/(?P<d>\d{1,3})(?=\s+of\b)")


def _slash_fractions(text: str, low: str, mask: Mask, numbers: list[re.Match[str]]) -> list[Atom]:
    """Shares written with a slash: "1/2 of the Fees" == "50% of the Fees"; a date ("1/2/2026") or
    "24/7" is no share, because only "n/d of" is one."""
    atoms: list[Atom] = []
    if "/" not in low:
        return atoms
    for m in numbers:
        if m.group("d") is None or low[m.end():m.end() + 1] != "/":
            continue
        f = _SLASH_FRACTION.match(low, m.start())
        if f is None or int(f.group("d")) == 0 or int(f.group("n")) > int(f.group("d")):
            continue
        if (m.start() and low[m.start() - 1] == "/") or not _claim(mask, f.start(), f.end()):
            continue  # the tail of a date or a path
        share = round(100 * int(f.group("n")) / int(f.group("d")), 2)
        atoms.append(_uncompared("percent", f"percent:{_fmt(share)}:", text, f))
    return atoms


def _uncompared(kind: str, key: str, text: str, m: re.Match[str], stripped: bool = False) -> Atom:
    """A number atom over the whole of ``m`` with no comparator or direction of its own (a clock time, a
    share, a frequency, a currency); ``stripped`` quotes it without trailing whitespace."""
    quote = text[m.start():m.end()]
    return Atom("number", kind, key, quote.rstrip() if stripped else quote, m.start(), m.end(),
                attrs=(("cmp", ""), ("dir", ""), ("cmp_start", str(m.start()))))


def extract_numbers(text: str, low: str, mask: Mask) -> list[Atom]:
    """Amounts, percentages, durations, counts and clock times, each with its comparator and direction."""
    for m in COMPARATOR_IDIOMS.finditer(low):
        mask.take(m.start(), m.end())
    numbers = list(_CORE.finditer(low))  # one scan for both passes: the matches do not depend on the mask
    separated = _plain_separators(low, numbers)
    if separated != low:  # same length, so every position still points into ``text``
        low, numbers = separated, list(_CORE.finditer(separated))
    _skip_xrefs(text, low, mask, numbers)
    atoms: list[Atom] = (_times_of_day(text, low, mask) + _slash_fractions(text, low, mask, numbers)
                         + _fractions(text, low, mask) + _every_n(text, low, mask))
    for m in numbers:
        if not mask.free(m.start(), m.end()):
            continue
        atom = _number_at(text, low, m, mask)
        if atom is not None:
            atoms.append(atom)
    return atoms


_GLUED = re.compile(r"[a-z]+")
_GLUED_UNITS = frozenset({"st", "nd", "rd", "th", "d", "day", "days", "h", "hr", "hrs", "hour", "hours", "min", "mins",
                          "m", "k", "bn", "mm", "x", "am", "pm", "kg", "g", "mg", "km", "cm", "gb", "mb", "tb", "kb",
                          "ms", "s", "sec", "secs", "yr", "yrs", "mo", "mos", "wk", "wks", "pct", "pc", "bp", "bps", "pa",
                          "usd", "eur", "gbp"})


def _part_of_name(low: str, end: int) -> bool:
    """Digits glued to letters that are no unit ("37signals", "3M Company"): a name, not a number."""
    glued = _GLUED.match(low, end)
    return glued is not None and glued.group() not in _GLUED_UNITS


def _number_at(text: str, low: str, m: re.Match[str], mask: Mask) -> Atom | None:
    is_words = m.group("w") is not None
    if not is_words and _part_of_name(low, m.end()):
        return None
    value = words_to_number(m.group()) if is_words else _digits(m.group())
    if value is None:
        return None
    start, end = m.start(), m.end()
    currency = None
    pre = _CURRENCY_PREFIX.search(low, max(0, start - 8), start)
    if pre and pre.end() == start:
        code = re.sub(r"\s", "", pre.group("c"))
        currency = _PREFIX_CODES.get(code) or _CODE_WORDS.get(code)
        start = pre.start()
    paren_digits = False
    for pattern in (_PAREN, _PAREN_WORDS):
        p = pattern.match(low, end)
        if p:
            inner = _digits(p.group("d")) if "d" in p.groupdict() else words_to_number(p.group("w"))
            value, end, paren_digits = (inner if inner is not None else value), p.end(), True
            break
    scale = _SCALE.match(low, end)
    if scale and not (scale.group("s") in ("m", "k") and is_words):
        value *= {"million": 1e6, "mm": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "thousand": 1e3, "k": 1e3}[scale.group("s")]
        end = scale.end()
    kind, unit = "count", ""
    u = _UNIT.match(low, end)
    if u:
        end = u.end()
        if u.group("cur"):
            kind = "money"
            word = u.group("cur")
            currency = currency or ("EUR" if word.startswith(("euro", "€")) else "GBP" if word.startswith(("pound", "£"))
                                    else _CODE_WORDS.get(word, "CAD" if "canad" in word else "AUD" if "austral" in word else "USD"))
        elif u.group("pct"):
            kind = "percentage points" if "point" in u.group("pct") else "percent"
        elif u.group("dur"):
            kind, (value, unit) = "duration", _duration_unit(u.group("dur"), value)
        else:
            kind, unit = "multiple", "times"
        p = _PAREN.match(low, end)
        if p:
            end = p.end()
    if currency and kind == "count":
        kind = "money"
    if kind == "money":
        unit = currency or "USD"
    if is_words and not paren_digits and kind == "count" and value < 2 and not _single_item(low, m):
        return None  # "one of the parties", "any one": not a quantity
    if kind == "count" and not is_words and _looks_like_year(value, m.group()):
        kind = "year"
    per = _PER.match(low, end)
    if per and kind in ("money", "percent", "count", "multiple"):
        unit += "/" + _per_unit(per)
        end = per.end()
    cmp, cmp_start = _comparator(low, start)
    post = _COMPARATOR_AFTER.match(low, end)
    if post:
        cmp, end = _POST_CMP[post.group("post")], post.end()
    direction = ""
    d = _DIRECTION.match(low, end) if kind == "duration" else None
    if d is None and kind == "duration" and cmp and low.startswith("within", cmp_start):
        d = _WITHIN_OF.match(low, end)  # "within 14 days of delivery": the days after it, as "within 14 days after"
    if d:
        direction = "before" if d.group("dir").startswith(("prior", "before", "in advance", "preced")) else "after"
        mask.take(d.start("dir"), d.end("dir"))  # "in advance" here is the direction, not a "prior" qualifier
    if not mask.free(start, end):
        end = m.end()
    mask.take(cmp_start if cmp else start, end)
    key = f"{kind}:{_fmt(value)}:{unit}"
    attrs = (("cmp", cmp), ("dir", direction), ("cmp_start", str(cmp_start if cmp else start)))
    edge = _EDGE_BEFORE.search(low, max(0, start - 9), start) if kind == "duration" else None
    if edge:
        attrs += (("edge", _EDGES[edge.group("edge")]), ("edge_start", str(edge.start())))
    if is_words and not paren_digits and kind == "count" and value < 2:
        attrs += (("counted", low[m.end():].split(maxsplit=1)[0].strip(".,;:")),)  # a bare "one": what it counts
    if d:
        attrs += (("dir_end", str(d.end("dir"))),)  # quoted with the number: "14 days after" / "14 days before"
    return Atom("number", kind, key, text[start:end], start, end, attrs=attrs)


_NOT_A_COUNT_AFTER = re.compile(r"\s+(?:of|or|and|another|to|such|who|that|which|party|parties|in|by|at|as|time|way)\b|[^\s]|$")
_NOT_A_COUNT_BEFORE = re.compile(r"\b(?:any|no|each|every|the|this|that|at|which|only|such|than|is|be|one)\s+$")


def _single_item(low: str, m: re.Match[str]) -> bool:
    """Whether a bare "one" counts a thing ("one additional licence" == "one (1) additional licence",
    "one copy" != "copies"), not a pronoun or an idiom ("one of", "any one", "one or more")."""
    if m.group() != "one":
        return False
    return not _NOT_A_COUNT_AFTER.match(low, m.end()) and not _NOT_A_COUNT_BEFORE.search(low, max(0, m.start() - 12), m.start())


def _looks_like_year(value: float, raw: str) -> bool:
    return len(raw) == 4 and raw.isdigit() and 1900 <= value <= 2100


def _duration_unit(word: str, value: float) -> tuple[float, str]:
    """Normalize a duration unit: business days stay business days; weeks are 7 days; years 12 months."""
    word = re.sub(r"[\s-]+", " ", word).strip()
    if word.startswith(("business", "working", "banking")):
        return value, "business day"
    base = word.split()[-1].rstrip(".").rstrip("s")
    base = {"hr": "hour", "yr": "year", "mo": "month", "wk": "week", "min": "minute"}.get(base, base)
    if base == "week":
        return value * 7, "day"
    if base == "year":
        return value * 12, "month"
    if base == "minute":
        return value / 60, "hour"
    return value, base


def _comparator(low: str, start: int) -> tuple[str, int]:
    m = _COMPARATOR_BEFORE.search(low, max(0, start - 40), start)
    if not m:
        return "", start
    for i, (sign, _) in enumerate(_COMPARATORS):
        if m.group(f"c{i}"):
            return sign, m.start("cmp")
    return "", start
