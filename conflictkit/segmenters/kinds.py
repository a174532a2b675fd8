"""What a clause's text says about it: its title, and whether it is a definition or a signature line.

All tests work on a clause's cleaned, flattened text (see :mod:`conflictkit.segmenters.markup`)
and use only the shape of the text and drafting words, never a list of known documents.
"""

from __future__ import annotations

import re

from conflictkit.lexicon import MODALS

_SMALL_WORDS = frozenset({"a", "an", "and", "or", "of", "the", "to", "for", "in", "on", "with", "by", "at", "from",
                          "as", "vs", "vs.", "per", "its", "under", "into", "upon", "between", "not", "&", "-", "/"})
_VERBS = MODALS | {"is", "are", "was", "were", "be", "been", "has", "have", "does", "do", "means", "mean"}
_TITLE_END = re.compile(r"[.:]\s+|\s+[-–]\s+")
_TERM = r"\"(?P<q>[^\"]{1,80})\"|'(?P<s>[^']{1,80})'"
_DEFINING = (r"(?:shall\s+|will\s+)?(?:means?|has\s+the\s+meanings?|have\s+the\s+meanings?"
             r"|shall\s+have\s+the\s+meanings?"
             r"|refers?\s+to|is\s+defined\s+(?:as|in)|are\s+defined\s+(?:as|in)|shall\s+(?:include|refer\s+to))\b")
# "Affiliate" means ... / "Affiliate" of a party means ... / "X" (or "Y") shall mean ...
_QUOTED_DEFINITION = re.compile(rf"^(?:{_TERM})(?:\s*\([^)]{{0,80}}\))?[^.;:\"]{{0,60}}?[,:]?\s+{_DEFINING}")
# Affiliate means ... (an unquoted capitalised term of a few words, as in definitions lists)
_BARE_DEFINITION = re.compile(r"^(?P<t>[A-Z][\w'/-]*(?:\s+(?:[A-Z0-9][\w'/-]*|of|and|or|the|to|in|for)){0,5}),?\s+"
                              r"(?:shall\s+)?(?:means|has\s+the\s+meaning|refers\s+to)\b")
# When we say "Services", we mean ... / As used in this Agreement, "X" means ...
_LEAD_IN_DEFINITION = re.compile(rf"^(?:when\s+we\s+(?:say|use|refer\s+to)|as\s+used\s+(?:in|herein)|for\s+(?:the\s+)?"
                                 rf"purposes\s+of|in\s+this\s+(?:agreement|contract|section|clause|schedule))[^.]{{0,160}}?(?:{_TERM})[^.]{{0,80}}?\b(?:we\s+mean|we\s+are\s+"
                                 rf"referring\s+to|{_DEFINING})", re.IGNORECASE)
_DEFINITION_LIST = re.compile(r"^(?P<t>[A-Z][^:]{0,60}):\s+(?:means?|refers?\s+to)\b"
                              rf"|^(?:{_TERM})\s*(?::|\s-\s)\s*\S")  # '"Business Day": a day other than ...'

_WITNESS = re.compile(r"^(?:in\s+witness\s+(?:whereof|thereof)|executed\s+(?:by\s+the\s+parties\s+)?as\s+of|"
                      r"signed\s+(?:for\s+and\s+)?on\s+behalf\s+of|agreed\s+and\s+accepted|accepted\s+and\s+agreed)",
                      re.IGNORECASE)
_SIGNATURE_OPENER = re.compile(r"^(?:by|signature|signed|sign|/s/)\s*(?::|$)|^_{3,}|^/s/|^by\b[^.:]{0,60}:|"
                               r"^(?:signed|executed(?:\s+as\s+a\s+deed)?)\s+by\b|"
                               r"^(?:very\s+truly\s+yours|sincerely|yours\s+(?:faithfully|truly|sincerely))\b",
                               re.IGNORECASE)
_SIGNATURE_FIELD = re.compile(r"^(?:by|name|print(?:ed)?\s+name|title|its|date|dated|signature|signed|email|e-mail|"
                              r"address|notice\s+address|company|witness|authori[sz]ed\s+signatory|position)"
                              r"\s*(?::|$|\|)", re.IGNORECASE)
_BOILERPLATE = re.compile(r"^\[?\(?(?:the\s+)?(?:remainder\s+of\s+(?:this\s+)?page\s+(?:is\s+)?intentionally\s+"
                          r"(?:left\s+)?"
                          r"blank|(?:this\s+)?page\s+(?:is\s+)?intentionally\s+(?:left\s+)?blank|signature\s+pages?\s+"
                          r"follows?|\[?signature\s+page\s+to\b)", re.IGNORECASE)


def _title_cased(words: list[str]) -> bool:
    if not words or not (words[0][:1].isupper() or words[0][:1].isdigit()):
        return False
    for w in words:
        if w.lower() in _SMALL_WORDS:
            continue
        first = w.lstrip("(\"'")[:1]
        if first.isalpha() and not first.isupper():
            return False
    return True


def _no_verbs(words: list[str]) -> bool:
    return not any(w.strip(".,;:()\"'").lower() in _VERBS for w in words)


def is_title(text: str) -> bool:
    """A short heading-like text: "Definitions.", "Fees and Payment", "CONFIDENTIALITY"."""
    if not text or len(text) > 100 or text.endswith((",", ";")):
        return False
    words = text.rstrip(".:").split()
    return 0 < len(words) <= 12 and _no_verbs(words) and (_title_cased(words) or text.isupper())


def inline_title(text: str, sentence_case: bool = False) -> str | None:
    """The run-in title of "Payment Terms. Customer shall pay ...": "Payment Terms", or None.

    ``sentence_case`` also accepts a short title in sentence case ("Return or destruction. The
    Recipient shall..."), as numbered clauses of British drafting have.
    """
    m = _TITLE_END.search(text, 0, 80)
    if m is None or m.end() >= len(text):
        return None
    head = text[: m.start()]
    words = head.split()
    if not 0 < len(words) <= 8 or not _no_verbs(words) or "|" in head:
        return None
    if not _title_cased(words):
        following = text[m.end() : m.end() + 1]
        if not (sentence_case and len(words) <= 5 and words[0][:1].isupper() and following.isupper()):
            return None
    return head.strip(" *_")


def is_definition(text: str) -> bool:
    """True when the text defines a term ('"Affiliate" means ...', 'When we say "You", we mean ...')."""
    head = text[:400]
    return bool(
        _QUOTED_DEFINITION.match(head)
        or _BARE_DEFINITION.match(head)
        or _DEFINITION_LIST.match(head)
        or _LEAD_IN_DEFINITION.match(head)
    )


def defined_term(text: str) -> str | None:
    """The term a definition defines ('"Affiliate" means ...' -> "affiliate", lower-cased), or None."""
    head = text[:400]
    for pattern in (_QUOTED_DEFINITION, _DEFINITION_LIST, _BARE_DEFINITION):
        m = pattern.match(head)
        if m is not None:
            term = next((g for g in (m.groupdict().get(k) for k in ("q", "s", "t")) if g), None)
            if term:
                return term.strip().lower()
    return None


def opens_signatures(text: str) -> bool:
    """An attestation ("IN WITNESS WHEREOF...") or a first signature line ("By: ____")."""
    return bool(_WITNESS.match(text) or _SIGNATURE_OPENER.match(text))


def is_signature_field(text: str) -> bool:
    """A line of a signature block: "Name:", "Title: CEO", "Date: ____", "____", "/s/ J. Smith"."""
    return len(text) <= 120 and bool(_SIGNATURE_FIELD.match(text) or _SIGNATURE_OPENER.match(text))


def is_boilerplate(text: str) -> bool:
    """Page-layout notes: "[Signature page follows]", "This page intentionally left blank"."""
    return len(text) <= 160 and _BOILERPLATE.match(text) is not None
