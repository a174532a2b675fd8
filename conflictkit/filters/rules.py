"""The ``rules`` filter: flags clauses that carry no obligation, so they are never missing or added.

Reasons, checked in this order: the segmenter's own kinds ("heading", "signature"); definitions are
never flagged; "page artefact" (page numbers, running headers and footers repeated on every page);
"table of contents"; "boilerplate" ("[Signature page follows]"); "drafting note" ("[Drafting note:
...]"); non-binding text printed with the terms: "non-binding summary" ("In short: ...", a "Short
version" column, a section headed "Plain English"), "change log" (a "Revision history" section, "v2.1
(2024-03-01): Updated section 4"), "update banner" ("We've updated our Terms; the new version takes
effect on 1 May"), "editor's note"; "footnote" (a markdown "[^1]: ..." definition); "blank form field" ("Name: ______",
"[insert date]", "{effective_date}", "Effective Date:" with no value); "cover page field" (who signs
and where to send notices). Operative clauses get None, and so does a version stamp ("Last updated: July
10, 2020", "Version 1.0"): a new date or version is reported, apart from the terms (``version_stamp``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from collections.abc import Sequence
from functools import lru_cache

from pydantic import Field

from conflictkit.lexicon import DEFAULT_LANGUAGE, LanguagePack, load
from conflictkit.lexicon.regex import compile_pattern
from conflictkit.model import Clause
from conflictkit.segmenters.blocks import page_artefact
from conflictkit.segmenters.kinds import is_title
from conflictkit.stages import Filter, Options

_KEY = re.compile(r"^(?P<key>[^:|]{1,60}?)\s*[:|]\s*")
_FOOTNOTE = re.compile(r"^\[\^[^\]]{1,20}\]:")  # a markdown footnote definition: "[^1]: ..."
_TOC_ENTRY = re.compile(r"(?:\.{3,}|\s[.\u2026 ]{3,}|\t)\s*\d{1,4}$|\s\d{1,4}$")


@dataclass(frozen=True)
class _FilterWords:
    """The patterns of the pack's ``filter.yaml``, compiled once per pack."""

    placeholder: re.Pattern[str]
    identity_key: re.Pattern[str]
    drafting_note: re.Pattern[str]
    toc_title: re.Pattern[str]
    summary_text: re.Pattern[str]
    summary_heading: re.Pattern[str]
    self_non_binding: re.Pattern[str]
    change_log_heading: re.Pattern[str]
    change_log_entry: re.Pattern[str]
    update_banner: re.Pattern[str]
    concrete_date: re.Pattern[str]
    conditional: re.Pattern[str]
    editor_note: re.Pattern[str]
    not_labels: frozenset[str]
    modals: frozenset[str]
    word: re.Pattern[str]


def _words(pack: LanguagePack) -> _FilterWords:
    def build() -> _FilterWords:
        f, i = pack.data.filter, re.IGNORECASE
        label = f.summary_label
        return _FilterWords(
            placeholder=compile_pattern(f.placeholder), identity_key=compile_pattern(f.identity_key, i),
            drafting_note=compile_pattern(f.drafting_note, i), toc_title=compile_pattern(f.toc_title, i),
            summary_text=compile_pattern(rf"^[\s>|*_#(\[]*(?:{label})\s*[\]):.\u2013\u2014-]\s*\S", i),
            summary_heading=compile_pattern(rf"^\W*(?:{label})\W*$|{f.not_binding}", i),
            self_non_binding=compile_pattern(f.self_non_binding, i), change_log_heading=compile_pattern(f.change_log_heading, i),
            change_log_entry=compile_pattern(f.change_log_entry, i), update_banner=compile_pattern(f.update_banner, i),
            concrete_date=compile_pattern(f.concrete_date, i), conditional=compile_pattern(f.conditional, i),
            editor_note=compile_pattern(f.editor_note, i), not_labels=frozenset(f.not_labels),
            modals=pack.words("words.modals"), word=compile_pattern(r"[\p{L}0-9]"))
    return pack.memo("filter.words", build)


class RulesFilterOptions(Options):
    """Options of the rules filter."""

    repeated_min: int = Field(3, ge=2, description="a short line seen this many times is a running header/footer")
    repeated_max_chars: int = Field(80, ge=1, description="longest text that can be a running header/footer")


class RulesFilter(Filter):
    """Flags headings, signatures, blank form fields, cover-page fields and page artefacts."""

    name = "rules"
    Options = RulesFilterOptions
    version = "2"
    reads_words = True

    def flag(self, clauses: Sequence[Clause]) -> list[str | None]:
        """One reason (or None for an operative clause) per clause, in order."""
        limit = self.options.repeated_max_chars
        counts = Counter(c.text.lower() for c in clauses if len(c.text) <= limit)
        reasons: list[str | None] = []
        in_toc = False
        w = _words(self.language)
        for clause in clauses:
            if w.toc_title.match(clause.text):
                in_toc = True
            elif in_toc and not _toc_entry(clause, self.language):
                in_toc = False
            reasons.append(self._reason(clause, counts, in_toc))
        return reasons

    def _reason(self, clause: Clause, counts: Counter, in_toc: bool) -> str | None:
        if clause.kind in ("heading", "signature"):
            return clause.kind
        if clause.kind == "definition":
            return None
        text, pack, language = clause.text, self.language, self.language.language
        if page_artefact(pack).fullmatch(text) or self._running_header(text, counts):
            return "page artefact"
        if in_toc or (len(text) <= 120 and re.search(r"\.{4,}\s*\d{1,4}$", text)):
            return "table of contents"
        if clause.kind == "boilerplate":
            return "boilerplate"
        if _words(pack).drafting_note.match(text):
            return "drafting note"
        if version_stamp(text, language):
            return None
        non_binding = non_binding_reason(text, clause.heading, language)
        if non_binding is not None:
            return non_binding
        if _FOOTNOTE.match(text):
            return "footnote"
        if blank_form_field(text, language):
            return "blank form field"
        if len(text) <= 120 and _words(pack).identity_key.match(text) and not _has_modal(text, pack):
            return "cover page field"
        return None

    def _running_header(self, text: str, counts: Counter) -> bool:
        if len(text) > self.options.repeated_max_chars or counts[text.lower()] < self.options.repeated_min:
            return False
        # a repeated sentence ("Reserved.") or a repeated field may be content; a repeated label is not
        return (not _has_modal(text, self.language) and not text.endswith((".", ":", ";"))
                and _words(self.language).word.search(text) is not None)


@lru_cache(maxsize=65536)
def non_binding_reason(text: str, heading: str | None = None, language: str = DEFAULT_LANGUAGE) -> str | None:
    """Why a text printed with the terms binds no one, or None: a plain-language summary ("In short:
    ...", a "Short version" column, a section headed "Summary (not binding)"), a change-log entry,
    an update banner ("We've updated our Terms; the new version takes effect on 1 May"), an editor's note."""
    w = _words(load(language))
    if w.summary_text.match(text) or w.self_non_binding.search(text) or (heading and w.summary_heading.search(heading)):
        return "non-binding summary"
    if w.change_log_entry.match(text) or (heading and w.change_log_heading.match(heading)):
        return "change log"
    if len(text) <= 300 and w.update_banner.search(text) and w.concrete_date.search(text) and not w.conditional.search(text):
        return "update banner"  # "If we update these Terms, the new version takes effect..." is operative
    if w.editor_note.match(text):
        return "editor's note"
    return None


@lru_cache(maxsize=65536)
def version_stamp(text: str, language: str = DEFAULT_LANGUAGE) -> bool:
    """A short line stating the document's own date or version ("Last updated: July 10, 2020",
    "Version 1.0", "These Terms were last updated on 14 March 2024"): compared like a clause, so a new
    date or version is reported (reason ``version_date``), never missing or added as a term."""
    if not any(c.isdigit() for c in text):
        return False
    lexicon = load(language)
    if len(text) > int(lexicon.get("editorial.version_max_chars")):
        return False
    patterns = lexicon.memo("editorial.version", lambda: [re.compile(p, re.IGNORECASE)
                                                          for p in lexicon.get("editorial.version_patterns")])
    if not any(p.search(text) for p in patterns) or not re.search(r"\d", text):
        return False
    return not _has_modal(text, lexicon)


_ANCHOR_LINK = re.compile(r"\[[^\[\]]*\]\(\s*#[^()\s]*\s*\)|<a\s[^>]*href\s*=\s*[\"']#[^>]*>.*?</a>", re.IGNORECASE | re.DOTALL)
_LIST_MARKS = re.compile(r"^[\s>*+\-\d.()|]*$")


def navigation_only(source: str) -> bool:
    """Whether a clause's text in its file is nothing but links to places in the same document (an
    entry of a table of contents written as a list of anchor links)."""
    if "#" not in source:
        return False
    rest, found = _ANCHOR_LINK.subn(" ", source)
    return found > 0 and _LIST_MARKS.match(rest) is not None


def flag_navigation(clauses: list[Clause], original: str, language: str = DEFAULT_LANGUAGE) -> list[Clause]:
    """Flag tables of contents written as anchor links, with the short line that introduces them
    ("Links to each of those sections are as follows:"): they are navigation, not terms."""
    out = list(clauses)
    pack = load(language)
    for k, clause in enumerate(clauses):
        if clause.filtered is not None or not navigation_only(original[clause.span.start:clause.span.end]):
            continue
        out[k] = clause.model_copy(update={"filtered": "table of contents"})
        before = k - 1
        while before >= 0 and out[before].filtered == "table of contents":
            before -= 1
        if before >= 0 and out[before].filtered is None and out[before].text.rstrip().endswith(":") \
                and len(out[before].text) <= 300 and not _has_modal(out[before].text, pack):
            out[before] = out[before].model_copy(update={"filtered": "table of contents"})
    return out


def _has_modal(text: str, pack: LanguagePack) -> bool:
    modals = _words(pack).modals
    return any(w.strip(".,;:()\"'").lower() in modals for w in text.split())


def _toc_entry(clause: Clause, pack: LanguagePack) -> bool:
    text = clause.text
    return len(text) <= 120 and (clause.kind == "heading" or _TOC_ENTRY.search(text) is not None
                                 or (is_title(text, pack) and not _has_modal(text, pack)))


def _field_label(key: str, pack: LanguagePack) -> bool:
    """A form label ("Effective Date", "Governing Law"), not a salutation or lead-in ("If to the Company")."""
    words = key.split()
    return 0 < len(words) <= 5 and words[0].lower() not in _words(pack).not_labels and is_title(key, pack)


def blank_form_field(text: str, language: str = DEFAULT_LANGUAGE) -> bool:
    """True for a field with nothing filled in: "Name: ____", "[insert date]", "Effective Date:", "{term}"."""
    if len(text) > 200:
        return False
    pack = load(language)
    w = _words(pack)
    rest = w.placeholder.sub(" ", text).strip()
    had_placeholder = rest != text.strip()
    key = _KEY.match(rest)
    if key is not None and _field_label(key.group("key"), pack):
        rest = rest[key.end():]
    elif not had_placeholder:
        return False
    rest = rest.strip(" .,;:|-")
    if not w.word.search(rest):
        return had_placeholder or key is not None
    # "Term: [●] months": what is left around the blank is a unit, not a term
    return had_placeholder and len(rest.split()) <= 2 and not _has_modal(rest, pack)
