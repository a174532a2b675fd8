"""The words the rules segmenter reads, from the language pack it was handed (``segmenter.yaml``).

The segmenter stage is handed its pack (:meth:`conflictkit.stages.Component.use_language`) and reads
one document with it: :func:`reading` makes that pack the one the segmentation's many small
functions read (through :func:`words`), so a title test or a numbering label deep in the block
scanner needs no pack threaded through every call. Functions other stages call directly
(:func:`~conflictkit.segmenters.kinds.is_title`, :func:`~conflictkit.segmenters.kinds.defined_term`,
:func:`~conflictkit.segmenters.labels.parse_label`) also take a pack explicitly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from conflictkit.lexicon import LanguagePack, load
from conflictkit.lexicon.regex import compile_pattern

_ACTIVE: ContextVar[LanguagePack | None] = ContextVar("conflictkit_segmenter_pack", default=None)
_TERM = r"\"(?P<q>[^\"]{1,80})\"|'(?P<s>[^']{1,80})'"


@contextmanager
def reading(pack: LanguagePack) -> Iterator[None]:
    """Within the block, the segmenter's functions read ``pack``."""
    token = _ACTIVE.set(pack)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


@dataclass(frozen=True)
class SegmenterWords:
    """The segmenter's words and patterns of one pack, compiled once."""

    small_words: frozenset[str]
    verbs: frozenset[str]
    line_verbs: frozenset[str]
    finite_verbs: frozenset[str]
    modals: frozenset[str]
    quoted_definition: re.Pattern[str]
    bare_definition: re.Pattern[str]
    lead_in_definition: re.Pattern[str]
    definition_list: re.Pattern[str]
    witness: re.Pattern[str]
    signature_opener: re.Pattern[str]
    signature_field: re.Pattern[str]
    boilerplate: re.Pattern[str]
    attachments: re.Pattern[str]
    keyword: re.Pattern[str]
    keyword_starts: str
    top_keywords: frozenset[str]
    run_on_heading: re.Pattern[str]
    page_artefact: re.Pattern[str]
    field_small_words: frozenset[str]


def words(pack: LanguagePack | None = None) -> SegmenterWords:
    """The segmenter's words of ``pack``, or of the pack being read (:func:`reading`), or of the default pack."""
    pack = pack or _ACTIVE.get() or load()
    return pack.memo("segmenter.words", lambda: _compile(pack))


def _compile(pack: LanguagePack) -> SegmenterWords:
    s, i = pack.data.segmenter, re.IGNORECASE
    modals = pack.words("words.modals")
    small = "|".join(s.term_small_words)
    keywords = "|".join(s.label_keywords)
    title_words = "|".join(s.run_on_title_words)
    page, of = "|".join(s.page_words), "|".join(s.page_of)
    return SegmenterWords(
        small_words=frozenset(s.title_small_words), verbs=modals | frozenset(s.title_verbs),
        line_verbs=modals | frozenset(s.title_line_verbs), finite_verbs=frozenset(s.finite_verbs), modals=modals,
        # "Affiliate" means ... / "Affiliate" of a party means ... / "X" (or "Y") shall mean ...
        quoted_definition=compile_pattern(rf"^(?:{_TERM})(?:\s*\([^)]{{0,80}}\))?[^.;:\"]{{0,60}}?[,:]?\s+{s.defining}"),
        # Affiliate means ... (an unquoted capitalised term of a few words, as in definitions lists)
        bare_definition=compile_pattern(
            rf"^(?P<t>\p{{Lu}}[\w'/-]*(?:\s+(?:[\p{{Lu}}0-9][\w'/-]*|{small})){{0,5}}),?\s+{s.bare_defining}"),
        # When we say "Services", we mean ... / As used in this Agreement, "X" means ...
        lead_in_definition=compile_pattern(
            rf"^{s.lead_in}[^.]{{0,160}}?(?:{_TERM})[^.]{{0,80}}?\b(?:{s.lead_in_defining}|{s.defining})", i),
        definition_list=compile_pattern(rf"^(?P<t>\p{{Lu}}[^:]{{0,60}}):\s+{s.list_defining}|^(?:{_TERM})\s*(?::|\s-\s)\s*\S"),
        witness=compile_pattern(s.witness, i), signature_opener=compile_pattern(s.signature_opener, i),
        signature_field=compile_pattern(s.signature_field, i), boilerplate=compile_pattern(s.boilerplate, i),
        attachments=compile_pattern(s.attachments, i),
        keyword=compile_pattern(
            rf"(?P<kw>(?i:{keywords})|§§?)[ ]*(?P<num>\d{{1,3}}(?:\.\d{{1,3}})*[A-Za-z]?|[IVXLC]{{1,7}}|[A-Z])(?P<dot>\.(?!\d))?"
            # a label is followed by the end, punctuation, or a capitalised title; "Section 4 of this" is prose
            r"(?=$|[ ]*[:)\]\-]|[ ]+[\p{Lu}\"'(\[*_<]|(?<=\.)[ ])"),
        keyword_starts="§" + "".join(sorted({c for k in s.label_keywords for c in (k[:1].lower(), k[:1].upper())})),
        top_keywords=frozenset(s.top_keywords),
        run_on_heading=compile_pattern(
            rf"(?<=[.;:!?\"')\]])[ ]+(?={s.run_on_top}[ ]+(?:\d{{1,3}}|[IVXL]{{1,6}})\b)"  # ". ARTICLE 2 COMPLIANCE"
            rf"|(?:(?<=[.;:!?\"')\]])|(?<=\p{{Lu}}{{2}}))[ ]+(?=(?:{s.run_on_keywords}[ ]+)?"
            rf"(?:\d{{1,3}}(?:\.\d{{1,3}})+\.?|\d{{1,3}}\.|[IVXL]{{1,6}}\.)[ ]+"
            rf"\p{{Lu}}[\w'&/-]*(?:[ ]+(?:\p{{Lu}}[\w'&/-]*|{title_words})){{0,7}}[.:](?:[ ]|$))"),
        # a page number or page footer on a line of its own: "12", "- 3 -", "Page 3 of 10", "iv"
        page_artefact=compile_pattern(
            rf"(?i:(?:{page})[ ]+)?[-(\[]?[ ]?(?:\d{{1,4}}|[ivxlc]{{1,6}})[ ]?[-)\]]?(?:[ ]+(?:{of})[ ]+\d{{1,4}})?"
            rf"|(?i:(?:{page})[ ]+\d{{1,4}}(?:[ ]+(?:{of})[ ]+\d{{1,4}})?)"),
        field_small_words=frozenset(s.field_small_words))
