"""Word lists and patterns of legal drafting that carry meaning, one lexicon per language.

A language is a folder of YAML files, ``conflictkit/judges/atoms/lang/<code>/*.yaml``, read once
and merged: each file is one section of the lexicon (``words.yaml`` -> ``lexicon.section("words")``).
The legal-atoms judge, the redline (meaning-reversing words), the filters and the BM25 tokenizer
read the same lists, so a word added to ``words.yaml`` is known to all of them. Adding a language
is adding a folder with the same files (see CONTRIBUTING.md).

The module-level names (``NEGATORS``, ``MODALS``, ``REVERSING``...) are the English lists, loaded on
first use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
import os
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml

T = TypeVar("T")
DEFAULT_LANGUAGE = "en"
_LANG_FOLDER = "judges/atoms/lang"  # package data; found from the top package, so the judge is not imported
LEXICON_PATH_ENV = "CONFLICTKIT_LEXICON_PATH"


class LexiconError(ValueError):
    """A language with no lexicon, or a lexicon file that is not what the loader expects."""


class Lexicon:
    """The merged word lists and patterns of one language; compiled forms are memoized on it."""

    def __init__(self, language: str, sections: dict[str, dict[str, Any]]) -> None:
        self.language = language
        self._sections = sections
        self._memo: dict[str, Any] = {}

    def section(self, name: str) -> dict[str, Any]:
        """One file of the lexicon as read (``"words"`` is ``words.yaml``)."""
        try:
            return self._sections[name]
        except KeyError:
            raise LexiconError(f"the {self.language!r} lexicon has no {name}.yaml; add "
                               f"conflictkit/judges/atoms/lang/{self.language}/{name}.yaml") from None

    def get(self, path: str) -> Any:
        """A value by dotted path: ``"words.negators"``, ``"modality.auxiliaries"``."""
        name, _, rest = path.partition(".")
        value: Any = self.section(name)
        for key in rest.split(".") if rest else ():
            if not isinstance(value, dict) or key not in value:
                raise LexiconError(f"the {self.language!r} lexicon has no {path!r} (in {name}.yaml)")
            value = value[key]
        return value

    def words(self, path: str) -> frozenset[str]:
        """A word list as a set: ``lexicon.words("words.negators")``; a mapping gives its keys,
        a mapping of lists (``modals: {obligation: [...]}``) the union of its lists."""
        def build() -> frozenset[str]:
            value = self.get(path)
            if isinstance(value, dict):
                if all(isinstance(v, list) for v in value.values()):
                    return frozenset(w for v in value.values() for w in v)
                return frozenset(value)
            return frozenset(value)
        return self.memo(f"words:{path}", build)

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """``build()`` once per lexicon: compiled patterns and derived tables live as long as it does."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]


def _roots() -> list[Any]:
    """Where language folders are looked for: ``$CONFLICTKIT_LEXICON_PATH`` (folders separated by
    the OS path separator) first, then the lexicons shipped in the package."""
    extra = [Path(p) for p in os.environ.get(LEXICON_PATH_ENV, "").split(os.pathsep) if p]
    return [*extra, resources.files("conflictkit").joinpath(_LANG_FOLDER)]


def languages() -> list[str]:
    """The languages that have a lexicon folder."""
    found = {p.name for root in _roots() if root.is_dir() for p in root.iterdir()
             if p.is_dir() and not p.name.startswith(("_", "."))}
    return sorted(found)


@lru_cache(maxsize=None)
def load(language: str = DEFAULT_LANGUAGE) -> Lexicon:
    """The lexicon of ``language`` (a folder under ``conflictkit/judges/atoms/lang/`` or on
    ``$CONFLICTKIT_LEXICON_PATH``), read once per process."""
    folder = next((r.joinpath(language) for r in _roots() if r.joinpath(language).is_dir()), None)
    if not language.isidentifier() or folder is None:
        raise LexiconError(f"no lexicon for language {language!r} (available: {', '.join(languages())}); "
                           f"add a folder {language}/ with the same files as conflictkit/judges/atoms/lang/en/ "
                           f"(in the package, or in a folder on ${LEXICON_PATH_ENV})")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    sections: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".yaml"):
            continue
        try:
            data = yaml.load(entry.read_text(encoding="utf-8"), Loader=loader)
        except yaml.YAMLError as e:
            raise LexiconError(f"lexicon file {language}/{entry.name} is not valid YAML: {e}") from None
        if not isinstance(data, dict):
            raise LexiconError(f"lexicon file lang/{language}/{entry.name} must be a mapping of lists and tables")
        sections[entry.name[: -len(".yaml")]] = data
    return Lexicon(language, sections)


def _english() -> dict[str, frozenset[str] | tuple[str, ...]]:
    lex = load(DEFAULT_LANGUAGE)

    def build() -> dict[str, frozenset[str] | tuple[str, ...]]:
        obligation, permission = lex.words("words.modals.obligation"), lex.words("words.modals.permission")
        recommendation = lex.words("words.modals.recommendation")
        lists: dict[str, frozenset[str] | tuple[str, ...]] = {
            "NEGATORS": lex.words("words.negators"), "MODALS_OBLIGATION": obligation,
            "MODALS_PERMISSION": permission, "MODALS_RECOMMENDATION": recommendation,
            "MODALS": obligation | permission | recommendation, "EXCEPTIONS": lex.words("words.exceptions"),
            "CONDITIONS": lex.words("words.conditions"), "EXCEPTION_PHRASES": tuple(lex.get("words.exception_phrases")),
            "QUANTIFIERS": lex.words("words.quantifiers"), "SCOPE_WORDS": lex.words("words.scope_words"),
            "QUALIFIERS": lex.words("words.qualifiers"),
        }
        lists["REVERSING"] = reversing(lex)
        return lists

    return lex.memo("module-lists", build)


def reversing(lex: Lexicon) -> frozenset[str]:
    """Tokens whose change can reverse or shift a clause's meaning (numbers are detected separately):
    negators, exceptions, conditions, modals and quantifiers. The redline marks these."""
    return lex.memo("reversing", lambda: frozenset().union(*(lex.words(f"words.{k}") for k in (
        "negators", "exceptions", "conditions", "modals", "quantifiers"))))


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # "from conflictkit.lexicon import load" asks for __path__: no lexicon to load for that
        raise AttributeError(f"module 'conflictkit.lexicon' has no attribute {name!r}")
    lists = _english()
    if name in lists:
        return lists[name]
    raise AttributeError(f"module 'conflictkit.lexicon' has no attribute {name!r}")
