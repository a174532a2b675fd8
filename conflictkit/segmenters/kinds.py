"""What a clause's text says about it: its title, and whether it is a definition or a signature line.

All tests work on a clause's cleaned, flattened text (see :mod:`conflictkit.segmenters.markup`)
and use only the shape of the text and the pack's drafting words (``segmenter.yaml``), never a list
of known documents.
"""

from __future__ import annotations

import re

from conflictkit.lexicon import LanguagePack
from conflictkit.segmenters.words import words

_TITLE_END = re.compile(r"[.:]\s+|\s+[-–]\s+")


def _title_cased(tokens: list[str], pack: LanguagePack | None = None) -> bool:
    if not tokens or not (tokens[0][:1].isupper() or tokens[0][:1].isdigit()):
        return False
    small = words(pack).small_words
    for w in tokens:
        if w.lower() in small:
            continue
        first = w.lstrip("(\"'")[:1]
        if first.isalpha() and not first.isupper():
            return False
    return True


def _no_verbs(tokens: list[str], pack: LanguagePack | None = None) -> bool:
    verbs = words(pack).verbs
    return not any(w.strip(".,;:()\"'").lower() in verbs for w in tokens)


def is_title(text: str, pack: LanguagePack | None = None) -> bool:
    """A short heading-like text: "Definitions.", "Fees and Payment", "CONFIDENTIALITY"."""
    if not text or len(text) > 100 or text.endswith((",", ";")):
        return False
    tokens = text.rstrip(".:").split()
    return 0 < len(tokens) <= 12 and _no_verbs(tokens, pack) and (_title_cased(tokens, pack) or text.isupper())


def inline_title(text: str, sentence_case: bool = False) -> str | None:
    """The run-in title of "Payment Terms. Customer shall pay ...": "Payment Terms", or None.

    ``sentence_case`` also accepts a short title in sentence case ("Return or destruction. The
    Recipient shall..."), as numbered clauses of British drafting have.
    """
    m = _TITLE_END.search(text, 0, 80)
    if m is None or m.end() >= len(text):
        return None
    head = text[: m.start()]
    tokens = head.split()
    if not 0 < len(tokens) <= 8 or not _no_verbs(tokens) or "|" in head:
        return None
    if not _title_cased(tokens):
        following = text[m.end() : m.end() + 1]
        if not (sentence_case and len(tokens) <= 5 and tokens[0][:1].isupper() and following.isupper()):
            return None
    return head.strip(" *_")


def is_definition(text: str, pack: LanguagePack | None = None) -> bool:
    """True when the text defines a term ('"Affiliate" means ...', 'When we say "You", we mean ...')."""
    head, w = text[:400], words(pack)
    return bool(
        w.quoted_definition.match(head)
        or w.bare_definition.match(head)
        or w.definition_list.match(head)
        or w.lead_in_definition.match(head)
    )


def defined_term(text: str, pack: LanguagePack | None = None) -> str | None:
    """The term a definition defines ('"Affiliate" means ...' -> "affiliate", lower-cased), or None."""
    head, w = text[:400], words(pack)
    for pattern in (w.quoted_definition, w.definition_list, w.bare_definition):
        m = pattern.match(head)
        if m is not None:
            term = next((g for g in (m.groupdict().get(k) for k in ("q", "s", "t")) if g), None)
            if term:
                return term.strip().lower()
    return None


def opens_signatures(text: str) -> bool:
    """An attestation ("IN WITNESS WHEREOF...") or a first signature line ("By: ____")."""
    w = words()
    return bool(w.witness.match(text) or w.signature_opener.match(text))


def is_signature_field(text: str) -> bool:
    """A line of a signature block: "Name:", "Title: CEO", "Date: ____", "____", "/s/ J. Smith"."""
    w = words()
    return len(text) <= 120 and bool(w.signature_field.match(text) or w.signature_opener.match(text))


def is_boilerplate(text: str) -> bool:
    """Page-layout notes: "[Signature page follows]", "This page intentionally left blank"."""
    return len(text) <= 160 and words().boilerplate.match(text) is not None
