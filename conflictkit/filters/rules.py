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
from collections.abc import Sequence
from functools import lru_cache

from pydantic import Field

from conflictkit.hookspecs import hookimpl
from conflictkit.lexicon import DEFAULT_LANGUAGE, MODALS, load
from conflictkit.model import Clause
from conflictkit.segmenters.blocks import PAGE_ARTEFACT
from conflictkit.segmenters.kinds import is_title
from conflictkit.stages import Filter, Options

# Placeholders a template leaves for the user to fill in.
_PLACEHOLDER = re.compile(
    r"_{2,}|\.{4,}|\[\s*\]|\{[^{}]{1,80}\}|<<[^<>]{0,80}>>|\[\s*[\u25cf\u2022\u00b7*.\s-]+\]"
    r"|\[\s*(?i:insert|fill\s+in|enter|specify|select|add|describe|list|name\s+of|today|tbd|tbc|to\s+come)\b[^\]]{0,160}\]"
    r"|\[(?i:y{2,4}|dd?|mm?|[/. -])+\]"
    r"|\[[^\]]{0,30}\b(?i:name|date|address|amount|number|state|country|company|party|email|signature|jurisdiction"
    r"|county|city|price|fee|percentage|period|title)\b[^\]]{0,30}\]"
)
_KEY = re.compile(r"^(?P<key>[^:|]{1,60}?)\s*[:|]\s*")
_IDENTITY_KEY = re.compile(
    r"^(?:name|print(?:ed)?\s+name|full\s+name|company|company\s+name|legal\s+name|address|notice\s+address|"
    r"registered\s+address|email|e-mail|phone|telephone|fax|attention|attn\.?|title|signature|contact|"
    r"contact\s+person|last\s+(?:updated|modified|revised)|revision\s+date|version|document\s+version)\b"
    r"\s*(?:[:|]|$)", re.IGNORECASE)
_FOOTNOTE = re.compile(r"^\[\^[^\]]{1,20}\]:")  # a markdown footnote definition: "[^1]: ..."
_DRAFTING_NOTE = re.compile(r"^[\[(]?\s*(?:drafting\s+note|note\s+to\s+(?:draft|drafter|user)s?|editor'?s\s+note"
                            r"|instructions?(?:\s+to\s+(?:user|drafter)s?)?)\s*[:.\-]", re.IGNORECASE)
_TOC_TITLE = re.compile(r"^(?:table\s+of\s+contents|contents|index|toc)\.?$", re.IGNORECASE)
_TOC_ENTRY = re.compile(r"(?:\.{3,}|\s[.\u2026 ]{3,}|\t)\s*\d{1,4}$|\s\d{1,4}$")
_WORD = re.compile(r"[A-Za-z0-9]")

# Non-binding text printed with the terms: plain-language summaries, change logs, update banners, notes.
_SUMMARY_LABEL = (r"(?:the\s+)?short\s+version|in\s+short|in\s+brief|in\s+plain\s+(?:english|language|terms)"
                  r"|plain[\s-]+(?:english|language)(?:\s+summary)?|tl;?\s?dr|in\s+a\s+nutshell|the\s+gist"
                  r"|what\s+this\s+means(?:\s+for\s+you)?|summary(?:\s+\(not\s+(?:legally\s+)?binding\))?"
                  r"|(?:non-binding|informal)\s+summary|key\s+points")
_SUMMARY_TEXT = re.compile(rf"^[\s>|*_#(\[]*(?:{_SUMMARY_LABEL})\s*[\]):.\u2013\u2014-]\s*\S", re.IGNORECASE)
_SUMMARY_HEADING = re.compile(rf"^\W*(?:{_SUMMARY_LABEL})\W*$|\bnot\s+(?:legally\s+)?binding\b", re.IGNORECASE)
_SELF_NON_BINDING = re.compile(r"\bthis\s+(?:summary|column|overview|explanation)\s+(?:is|are)\s+(?:provided\s+)?"
                               r"(?:for\s+(?:information|convenience)(?:\s+only)?|not\s+(?:legally\s+)?binding)", re.IGNORECASE)
_CHANGE_LOG_HEADING = re.compile(
    r"^\W*(?:change\s*log|revision\s+history|version\s+history|document\s+history|summary\s+of\s+changes"
    r"|what'?s\s+(?:new|changed)|what\s+changed|release\s+notes|recent\s+changes|amendment\s+history)\W*$",
    re.IGNORECASE)
_CHANGE_LOG_ENTRY = re.compile(
    r"^[\s*\-|]*(?:v(?:ersion)?\s*\d+(?:\.\d+)*|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Z][a-z]+\s+\d{4}|[A-Z][a-z]+\s+\d{1,2},?\s+\d{4})"
    r"\s*(?:\([^)]{0,40}\))?\s*[:|\u2013\u2014-]\s*(?:updated|added|removed|clarified|changed|revised|amended|deleted|"
    r"new|fixed|corrected|moved|renamed|reworded|introduced)\b", re.IGNORECASE)
_UPDATE_BANNER = re.compile(
    r"\bwe(?:'ve|\s+have)?\s+(?:recently\s+)?(?:updated|changed|revised)\s+(?:our|these|this|the)\b"
    r"|\b(?:these|our|this)\s+(?:terms|policy|agreement|notice)[^.]{0,40}\b(?:were|was|have\s+been|has\s+been)\s+"
    r"(?:last\s+)?(?:updated|revised|changed)\b"
    r"|\b(?:new|updated|revised)\s+(?:version\s+of\s+(?:these|this|our)\s+\w+|terms|policy)[^.]{0,60}"
    r"\b(?:takes?|will\s+take|comes?\s+into|will\s+come\s+into|goes?\s+into|will\s+go\s+into)\s+(?:effect|force)\b",
    re.IGNORECASE)
_CONCRETE_DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
    r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b", re.IGNORECASE)
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|where|unless|each\s+time)\b", re.IGNORECASE)
_EDITOR_NOTE = re.compile(r"^[\[(*_]*\s*(?:editor'?s|editorial|explanatory|guidance|practice|reader'?s|author'?s)\s+"
                          r"(?:note|comment)s?\b|^[\[(]\s*note\s*:", re.IGNORECASE)


class RulesFilterOptions(Options):
    """Options of the rules filter."""

    repeated_min: int = Field(3, ge=2, description="a short line seen this many times is a running header/footer")
    repeated_max_chars: int = Field(80, ge=1, description="longest text that can be a running header/footer")


class RulesFilter(Filter):
    """Flags headings, signatures, blank form fields, cover-page fields and page artefacts."""

    name = "rules"
    Options = RulesFilterOptions
    version = "2"

    def flag(self, clauses: Sequence[Clause]) -> list[str | None]:
        """One reason (or None for an operative clause) per clause, in order."""
        limit = self.options.repeated_max_chars
        counts = Counter(c.text.lower() for c in clauses if len(c.text) <= limit)
        reasons: list[str | None] = []
        in_toc = False
        for clause in clauses:
            if _TOC_TITLE.match(clause.text):
                in_toc = True
            elif in_toc and not _toc_entry(clause):
                in_toc = False
            reasons.append(self._reason(clause, counts, in_toc))
        return reasons

    def _reason(self, clause: Clause, counts: Counter, in_toc: bool) -> str | None:
        if clause.kind in ("heading", "signature"):
            return clause.kind
        if clause.kind == "definition":
            return None
        text = clause.text
        if PAGE_ARTEFACT.fullmatch(text) or self._running_header(text, counts):
            return "page artefact"
        if in_toc or (len(text) <= 120 and re.search(r"\.{4,}\s*\d{1,4}$", text)):
            return "table of contents"
        if clause.kind == "boilerplate":
            return "boilerplate"
        if _DRAFTING_NOTE.match(text):
            return "drafting note"
        if version_stamp(text):
            return None
        non_binding = non_binding_reason(text, clause.heading)
        if non_binding is not None:
            return non_binding
        if _FOOTNOTE.match(text):
            return "footnote"
        if blank_form_field(text):
            return "blank form field"
        if len(text) <= 120 and _IDENTITY_KEY.match(text) and not _has_modal(text):
            return "cover page field"
        return None

    def _running_header(self, text: str, counts: Counter) -> bool:
        if len(text) > self.options.repeated_max_chars or counts[text.lower()] < self.options.repeated_min:
            return False
        # a repeated sentence ("Reserved.") or a repeated field may be content; a repeated label is not
        return not _has_modal(text) and not text.endswith((".", ":", ";")) and _WORD.search(text) is not None


@lru_cache(maxsize=65536)
def non_binding_reason(text: str, heading: str | None = None) -> str | None:
    """Why a text printed with the terms binds no one, or None: a plain-language summary ("In short:
    ...", a "Short version" column, a section headed "Summary (not binding)"), a change-log entry,
    an update banner ("We've updated our Terms; the new version takes effect on 1 May"), an editor's note."""
    if _SUMMARY_TEXT.match(text) or _SELF_NON_BINDING.search(text) or (heading and _SUMMARY_HEADING.search(heading)):
        return "non-binding summary"
    if _CHANGE_LOG_ENTRY.match(text) or (heading and _CHANGE_LOG_HEADING.match(heading)):
        return "change log"
    if len(text) <= 300 and _UPDATE_BANNER.search(text) and _CONCRETE_DATE.search(text) and not _CONDITIONAL.search(text):
        return "update banner"  # "If we update these Terms, the new version takes effect..." is operative
    if _EDITOR_NOTE.match(text):
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
    return not _has_modal(text)


_ANCHOR_LINK = re.compile(r"\[[^\[\]]*\]\(\s*#[^()\s]*\s*\)|<a\s[^>]*href\s*=\s*[\"']#[^>]*>.*?</a>", re.IGNORECASE | re.DOTALL)
_LIST_MARKS = re.compile(r"^[\s>*+\-\d.()|]*$")


def navigation_only(source: str) -> bool:
    """Whether a clause's text in its file is nothing but links to places in the same document (an
    entry of a table of contents written as a list of anchor links)."""
    if "#" not in source:
        return False
    rest, found = _ANCHOR_LINK.subn(" ", source)
    return found > 0 and _LIST_MARKS.match(rest) is not None


def flag_navigation(clauses: list[Clause], original: str) -> list[Clause]:
    """Flag tables of contents written as anchor links, with the short line that introduces them
    ("Links to each of those sections are as follows:"): they are navigation, not terms."""
    out = list(clauses)
    for k, clause in enumerate(clauses):
        if clause.filtered is not None or not navigation_only(original[clause.span.start:clause.span.end]):
            continue
        out[k] = clause.model_copy(update={"filtered": "table of contents"})
        before = k - 1
        while before >= 0 and out[before].filtered == "table of contents":
            before -= 1
        if before >= 0 and out[before].filtered is None and out[before].text.rstrip().endswith(":") \
                and len(out[before].text) <= 300 and not _has_modal(out[before].text):
            out[before] = out[before].model_copy(update={"filtered": "table of contents"})
    return out


def _has_modal(text: str) -> bool:
    return any(w.strip(".,;:()\"'").lower() in MODALS for w in text.split())


def _toc_entry(clause: Clause) -> bool:
    text = clause.text
    return len(text) <= 120 and (clause.kind == "heading" or _TOC_ENTRY.search(text) is not None
                                 or (is_title(text) and not _has_modal(text)))


_NOT_LABELS = frozenset({"if", "when", "where", "whereas", "dear", "ladies", "to", "for", "in", "with", "as", "and",
                         "or", "the", "attention", "attn", "re", "note", "example", "e.g.", "i.e."})


def _field_label(key: str) -> bool:
    """A form label ("Effective Date", "Governing Law"), not a salutation or lead-in ("If to the Company")."""
    words = key.split()
    return 0 < len(words) <= 5 and words[0].lower() not in _NOT_LABELS and is_title(key)


def blank_form_field(text: str) -> bool:
    """True for a field with nothing filled in: "Name: ____", "[insert date]", "Effective Date:", "{term}"."""
    if len(text) > 200:
        return False
    rest = _PLACEHOLDER.sub(" ", text).strip()
    had_placeholder = rest != text.strip()
    key = _KEY.match(rest)
    if key is not None and _field_label(key.group("key")):
        rest = rest[key.end():]
    elif not had_placeholder:
        return False
    rest = rest.strip(" .,;:|-")
    if not _WORD.search(rest):
        return had_placeholder or key is not None
    # "Term: [●] months": what is left around the blank is a unit, not a term
    return had_placeholder and len(rest.split()) <= 2 and not _has_modal(rest)


@hookimpl
def register_filters(register):
    register(RulesFilter)
