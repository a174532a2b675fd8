"""Regular expressions of a language pack: Unicode letter classes and one compile step.

Patterns in a pack are Python regular expressions with three additions, so a pattern reads letters
of any script (``re`` has no Unicode letter classes of its own):

- ``\\p{L}``: a letter (any script: "ä", "ß", "é" as well as "a");
- ``\\p{Lu}``: an upper-case letter ("Ä", "A");
- ``\\p{Ll}``: a lower-case letter ("ä", "a").

They work inside a character class too (``[\\p{Lu}0-9&.-]``). Every pack pattern is compiled
through :func:`compile_pattern`, which expands them; a pattern that does not compile is a
malformed pack.
"""

from __future__ import annotations

import re
from functools import lru_cache

_PLANE = 0x10000  # the Basic Multilingual Plane holds the letters of every script a contract is written in


def _ranges(accept) -> str:
    """The characters of the BMP for which ``accept`` holds, as the inside of a character class."""
    parts, start = [], None
    for code in range(_PLANE + 1):
        ok = code < _PLANE and accept(chr(code))
        if ok and start is None:
            start = code
        elif not ok and start is not None:
            first, last = re.escape(chr(start)), re.escape(chr(code - 1))
            parts.append(first if start == code - 1 else f"{first}-{last}")
            start = None
    return "".join(parts)


@lru_cache(maxsize=None)
def letter_class(name: str) -> str:
    """The inside of the character class of ``\\p{name}`` (``L``, ``Lu`` or ``Ll``)."""
    tests = {"L": str.isalpha, "Lu": lambda c: c.isalpha() and c.isupper(), "Ll": lambda c: c.isalpha() and c.islower()}
    return _ranges(tests[name])


_PROPERTY = re.compile(r"\\p\{(L[ul]?)\}")


def expand(pattern: str) -> str:
    """``pattern`` with ``\\p{L}``, ``\\p{Lu}`` and ``\\p{Ll}`` written as character classes ``re`` reads."""
    if "\\p{" not in pattern:
        return pattern
    out, pos = [], 0
    for m in _PROPERTY.finditer(pattern):
        out.append(pattern[pos:m.start()])
        body = letter_class(m.group(1))
        out.append(body if _inside_class(pattern, m.start()) else f"[{body}]")
        pos = m.end()
    out.append(pattern[pos:])
    return "".join(out)


def _inside_class(pattern: str, at: int) -> bool:
    """Whether position ``at`` of ``pattern`` lies inside a character class ``[...]``."""
    inside, k = False, 0
    while k < at:
        c = pattern[k]
        if c == "\\":
            k += 2
            continue
        if not inside and c == "[":
            inside = True
            k += 2 if pattern[k + 1:k + 2] == "]" else 3 if pattern[k + 1:k + 3] == "^]" else 1
            continue
        if inside and c == "]":
            inside = False
        k += 1
    return inside


def compile_pattern(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pack pattern compiled (letter classes expanded); ``re.error`` when it is not a valid expression."""
    return re.compile(expand(pattern), flags)

