"""Check that a quoted extraction is in a document, at the offsets it cites.

Matching is exact after typographic normalization only (:func:`conflictkit.normalize.normalize`
with ``flatten=True`` on both sides): curly quotes, dashes, ligatures, soft hyphens, odd spaces,
zero-width characters, whitespace runs and line breaks. Case, words and punctuation must match, and
a match must begin and end on word boundaries ("limited liability" is not in "unlimited liability").
Offsets are half-open code-point offsets into the original document text. A cited span may include
surrounding whitespace or characters the normalizer removes. A mismatch is reported, never repaired.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from conflictkit.errors import UserError
from conflictkit.grounding.index import WordIndex, bounded
from conflictkit.grounding.material import check_text
from conflictkit.grounding.nearmiss import NearMiss, explain_not_found
from conflictkit.normalize import map_span, normalize

Status = Literal["grounded", "offset_mismatch", "not_found", "ambiguous"]
STATUSES: tuple[str, ...] = ("grounded", "offset_mismatch", "not_found", "ambiguous")
MAX_LISTED = 20  # occurrences listed in ``found_at``; ``occurrences`` always has the full count


class Verification(BaseModel):
    """The result of checking one extraction.

    ``start``/``end`` are the cited offsets, or where the quote was found when none were cited and
    it occurs once. ``found_at`` lists where the quote occurs (for ``offset_mismatch`` and
    ``ambiguous``) and ``occurrences`` how often (a quote grounded at its cited offsets is not
    searched for elsewhere: 1); ``near_miss`` holds the passage that differs from a ``not_found`` quote only
    in meaning-bearing words, with those changes (``a`` is the document, ``b`` the quote).
    """

    model_config = ConfigDict(frozen=True)

    label: str | None = None
    status: Status
    start: int | None = None
    end: int | None = None
    detail: str
    found_at: list[tuple[int, int]] = []
    occurrences: int = 0
    near_miss: NearMiss | None = None

    @property
    def grounded(self) -> bool:
        return self.status == "grounded"

    def to_dict(self) -> dict:
        """JSON-friendly form."""
        data = self.model_dump()
        data["found_at"] = [list(span) for span in self.found_at]
        return data


class Verifier:
    """Verifies many quotes against one document, normalized and indexed once."""

    def __init__(self, document_text: str) -> None:
        original = check_text(document_text, "document")
        norm = normalize(original, flatten=True)
        if not norm.text.strip(" "):
            raise UserError("the document is empty: there is no text to verify quotes against")
        self.original = original
        self.text = norm.text
        self.offsets = norm.offsets
        self._length = len(norm.text.strip(" "))  # what a quote may not exceed
        self._index: WordIndex | None = None

    @property
    def index(self) -> WordIndex:
        """The word index of the normalized text, built on first use."""
        if self._index is None:
            self._index = WordIndex(self.text)
        return self._index

    def verify(self, quote: str, *, start: int | None = None, end: int | None = None,
               label: str | None = None) -> Verification:
        """Check one quote; raise :class:`UserError` for a bad quote or bad offsets."""
        q = self._quote(quote)
        cited = _check_offsets(start, end, len(self.original))
        if cited and self._at(q, *cited):
            return Verification(label=label, status="grounded", start=start, end=end,
                                detail="found at the cited offsets", occurrences=1)
        spans = [map_span(self.offsets, p, p + len(q)) for p in self.index.find(q)]
        if cited and cited in spans:  # a cited span that cuts through a ligature, mapped exactly
            return Verification(label=label, status="grounded", start=start, end=end,
                                detail="found at the cited offsets", occurrences=len(spans))
        common = {"label": label, "start": start, "end": end, "occurrences": len(spans),
                  "found_at": spans[:MAX_LISTED]}
        if cited and spans:
            return Verification(status="offset_mismatch", detail=self._mismatch(cited, spans), **common)
        if not spans:
            near, detail = explain_not_found(self, q, quote)
            held = f"; the cited offsets {start}-{end} hold {self.show(*cited)}" if cited else ""
            return Verification(status="not_found", detail=detail + held, near_miss=near, **common)
        if len(spans) == 1:
            (s, e), = spans
            return Verification(label=label, status="grounded", start=s, end=e, occurrences=1,
                                found_at=spans, detail=f"found once, at {s}-{e}")
        listed = ", ".join(f"{s}-{e}" for s, e in spans[:3]) + (", ..." if len(spans) > 3 else "")
        return Verification(status="ambiguous",
                            detail=f"occurs {len(spans)} times (at {listed}); cite start and end to say which",
                            **common)

    def locate(self, quote: object) -> tuple[int, int] | None:
        """Where a quote from an untrusted source (a model's answer) first occurs, or None.

        None also for what :meth:`verify` refuses as a quote (not a string, empty, longer than the
        document): such a quote is simply not found.
        """
        try:
            result = self.verify(quote)  # type: ignore[arg-type]
        except UserError:
            return None
        if result.status == "grounded":
            return result.start, result.end  # type: ignore[return-value]
        return result.found_at[0] if result.status == "ambiguous" else None

    def show(self, start: int, end: int, limit: int = 60) -> str:
        """A short, one-line, quoted preview of ``original[start:end]``."""
        ns, ne = self._normalized_span(start, end)
        text = self.text[ns:ne]
        return '"' + (text if len(text) <= limit else text[: limit - 3] + "...") + '"'

    def _quote(self, quote: str) -> str:
        q = normalize(check_text(quote, "quote"), flatten=True).text.strip(" ")
        if not q:
            raise UserError("the quote is empty: give the text to look for")
        if len(q) > self._length:
            raise UserError(f"the quote ({len(q)} characters) is longer than the document "
                            f"({self._length} characters, normalized)")
        return q

    def _at(self, q: str, start: int, end: int) -> bool:
        """Whether the original span ``[start, end)`` holds exactly ``q`` once normalized."""
        ns, ne = self._normalized_span(start, end)
        return self.text[ns:ne] == q and bounded(self.text, ns, ne)

    def _normalized_span(self, start: int, end: int) -> tuple[int, int]:
        """The normalized text produced by original ``[start, end)``, without edge spaces."""
        ns = int(np.searchsorted(self.offsets, start, "left"))
        ne = int(np.searchsorted(self.offsets, end, "left"))
        while ns < ne and self.text[ns] == " ":
            ns += 1
        while ne > ns and self.text[ne - 1] == " ":
            ne -= 1
        return ns, ne

    def _mismatch(self, cited: tuple[int, int], spans: list[tuple[int, int]]) -> str:
        where = ", ".join(f"{s}-{e}" for s, e in spans[:3]) + (", ..." if len(spans) > 3 else "")
        return (f"not at the cited offsets {cited[0]}-{cited[1]} (which hold {self.show(*cited)}); "
                f"the quote occurs at {where}")


def verify_extraction(document_text: str, quote: str, *, start: int | None = None,
                      end: int | None = None, label: str | None = None) -> Verification:
    """Check one quote against one document; use :class:`Verifier` for many quotes."""
    return Verifier(document_text).verify(quote, start=start, end=end, label=label)


def _check_offsets(start: object, end: object, length: int) -> tuple[int, int] | None:
    if start is None and end is None:
        return None
    if start is None or end is None:
        given = "start" if end is None else "end"
        raise UserError(f"only {given} was given: give both start and end, or neither")
    for name, value in (("start", start), ("end", end)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise UserError(f"{name} must be an integer offset, got {value!r}")
    start, end = int(start), int(end)
    if start < 0 or end > length:
        raise UserError(f"the offsets {start}-{end} are outside the document (0-{length})")
    if start >= end:
        raise UserError(f"start ({start}) must be less than end ({end})")
    return start, end
