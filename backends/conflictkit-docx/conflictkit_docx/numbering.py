"""Automatic list numbering computed from ``numbering.xml``, so labels like "5.4" and "(b)" survive.

Word stores a numbered paragraph as (numId, ilvl); the label is the level's ``lvlText`` pattern
("%1.%2", "(%3)") filled with the counters of the levels above, each in its level's format. The
counters belong to the abstract numbering a num instance points to (instances of one abstract
list continue each other unless a ``startOverride`` restarts them), and a level resets the
levels below it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from conflictkit.formats.numerals import roman
from conflictkit_docx.package import decimal, w

_PLACEHOLDER = re.compile(r"%([1-9])")
# What a file may claim is held to what a label can be, so no numbering definition costs more than a
# label: a list number (1e9 in letters would be 38 million "z"s; 1e12 in roman a billion "M"s), a
# level's pattern and the label it makes.
MAX_VALUE = 32_767  # the largest number Word's "Set Numbering Value" accepts; a larger one is shown as this
MAX_LEVEL_TEXT = 255  # characters of a level's pattern read ("%1.%2")
MAX_LABEL = 100  # characters of a label kept ("5.4.3(b)(iv)" is 12)
LEVELS = range(9)  # w:ilvl 0-8: the levels a Word list has


@dataclass
class Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    legal: bool = False  # isLgl: every counter in the label shown as a decimal


@dataclass
class _Instance:
    abstract: str
    overrides: dict[int, Level] = field(default_factory=dict)
    starts: dict[int, int] = field(default_factory=dict)
    used: bool = False


def _level(element) -> Level:
    level = Level()
    start = element.find(w("start"))
    value = decimal(start.get(w("val"))) if start is not None else None
    if value is not None:
        level.start = value
    fmt = element.find(w("numFmt"))
    if fmt is not None:
        level.fmt = fmt.get(w("val")) or "decimal"
    text = element.find(w("lvlText"))
    if text is not None:
        level.text = (text.get(w("val")) or "")[:MAX_LEVEL_TEXT]
    level.legal = element.find(w("isLgl")) is not None
    return level


def _letters(n: int) -> str:
    # Word repeats the letter past z: 27 -> "aa", 28 -> "bb"
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else ""


def format_number(n: int, fmt: str) -> str:
    """One counter in one of Word's number formats (decimal, lowerLetter, upperRoman...), at most :data:`MAX_VALUE`."""
    n = min(n, MAX_VALUE)
    if fmt in ("lowerLetter",):
        return _letters(n)
    if fmt == "upperLetter":
        return _letters(n).upper()
    if fmt == "lowerRoman":
        return roman(n)
    if fmt == "upperRoman":
        return roman(n).upper()
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("bullet", "none"):
        return ""
    return str(n)  # decimal and the formats Word itself falls back to decimal for


class Numbering:
    """The numbering definitions of one document, with the running counters."""

    def __init__(self, root) -> None:
        self.abstract: dict[str, dict[int, Level]] = {}
        self.instances: dict[str, _Instance] = {}
        self.counters: dict[str, dict[int, int]] = {}
        if root is None:
            return
        defines: dict[str, str] = {}  # list style name -> the abstract list that defines it (w:styleLink)
        uses: dict[str, str] = {}  # abstract list -> the list style it takes its levels from (w:numStyleLink)
        for element in root.iter(w("abstractNum")):
            abstract_id = element.get(w("abstractNumId"), "")
            levels = {ilvl: _level(lvl) for lvl in element.iter(w("lvl"))
                      if (ilvl := decimal(lvl.get(w("ilvl"), "0"))) in LEVELS}  # a level Word has no place for is never shown
            self.abstract[abstract_id] = levels
            for tag, table in (("styleLink", defines), ("numStyleLink", None)):
                link = element.find(w(tag))
                if link is not None and table is not None:
                    table[link.get(w("val"), "")] = abstract_id
                elif link is not None:
                    uses[abstract_id] = link.get(w("val"), "")
        for element in root.iter(w("num")):
            ref = element.find(w("abstractNumId"))
            abstract_id = ref.get(w("val"), "") if ref is not None else ""
            # a list that links to a list style shares that style's levels and counters
            instance = _Instance(abstract=defines.get(uses.get(abstract_id, ""), abstract_id))
            for override in element.iter(w("lvlOverride")):
                ilvl = decimal(override.get(w("ilvl"), "0"))
                if ilvl not in LEVELS:
                    continue
                start = override.find(w("startOverride"))
                value = decimal(start.get(w("val")), low=0) if start is not None else None
                if value is not None:
                    instance.starts[ilvl] = value
                lvl = override.find(w("lvl"))
                if lvl is not None:
                    instance.overrides[ilvl] = _level(lvl)
            self.instances[element.get(w("numId"), "")] = instance

    def _levels(self, instance: _Instance) -> dict[int, Level]:
        return {**self.abstract.get(instance.abstract, {}), **instance.overrides}

    def label(self, num_id: str, ilvl: int) -> str:
        """The label of the next paragraph numbered (num_id, ilvl); advances the counters. "" for none."""
        instance = self.instances.get(num_id)
        if instance is None or num_id == "0":
            return ""  # numId 0 removes numbering
        levels = self._levels(instance)
        level = levels.get(ilvl)
        if level is None:
            return ""
        counters = self.counters.setdefault(instance.abstract, {})
        if not instance.used:
            instance.used = True
            for restarted, start in instance.starts.items():
                counters[restarted] = start - 1
                for deeper in [k for k in counters if k > restarted]:
                    del counters[deeper]
        counters[ilvl] = counters.get(ilvl, level.start - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            del counters[deeper]
        if level.fmt == "bullet":
            return "-"

        def fill(match: re.Match) -> str:
            k = int(match.group(1)) - 1
            other = levels.get(k, Level())
            value = counters.get(k, other.start)
            return format_number(value, "decimal" if level.legal and k != ilvl else other.fmt)

        return _PLACEHOLDER.sub(fill, level.text).strip()[:MAX_LABEL]
