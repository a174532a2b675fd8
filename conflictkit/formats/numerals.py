"""Writing list numbers as formats display them (the loaders rebuild labels the file never stores)."""

from __future__ import annotations

_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
          (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def roman(n: int) -> str:
    """``n`` as a lower-case roman numeral: 4 -> "iv"; "" for 0 or less."""
    out = []
    for value, digits in _ROMAN:
        count, n = divmod(n, value)
        out.append(digits * count)
    return "".join(out)
