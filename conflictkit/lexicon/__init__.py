"""Language packs: every word list, pattern and number grammar of one language, loaded once and validated.

A pack is a folder of YAML files, ``conflictkit/judges/atoms/lang/<code>/*.yaml`` (or ``<code>/`` in
a folder on ``$CONFLICTKIT_LEXICON_PATH``), one file per section of
:class:`~conflictkit.lexicon.schema.PackData`, plus optional extra tables (``tables/<name>.yaml``)
and the pack's contract cases (``cases.jsonl``, see :mod:`conflictkit.testing.packs`). The config
chooses one (``language: en``, or ``auto``: :func:`detect`), and every stage that reads words gets
the same :class:`LanguagePack`. Adding a language is adding a folder (see CONTRIBUTING.md).

The module-level names (``NEGATORS``, ``MODALS``, ``REVERSING``...) are the default pack's lists,
for code that has no pack at hand (third-party tokenizers); the stages read their own pack.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from conflictkit.lexicon.pack import LanguagePack, LexiconError, describe_errors
from conflictkit.lexicon.schema import PackData

DEFAULT_LANGUAGE = "en"
AUTO = "auto"
"""The ``language:`` that detects the language from the documents (:func:`detect`)."""
_LANG_FOLDER = "judges/atoms/lang"  # package data; found from the top package, so the judge is not imported
LEXICON_PATH_ENV = "CONFLICTKIT_LEXICON_PATH"
_NOT_SECTIONS = ("cases.jsonl", "tables", "README.md")  # what else a pack folder may hold

Lexicon = LanguagePack
"""The former name of :class:`LanguagePack`."""

__all__ = ["AUTO", "DEFAULT_LANGUAGE", "data_digest", "LEXICON_PATH_ENV", "LanguagePack", "Lexicon", "LexiconError", "detect",
           "languages", "load", "on_path", "pack_folder", "reversing"]


def _roots() -> list[Any]:
    """Where language folders are looked for: ``$CONFLICTKIT_LEXICON_PATH`` (folders separated by
    the OS path separator) first, then the packs shipped in the package."""
    extra = [Path(p) for p in os.environ.get(LEXICON_PATH_ENV, "").split(os.pathsep) if p]
    return [*extra, resources.files("conflictkit").joinpath(_LANG_FOLDER)]


@lru_cache(maxsize=1)
def data_digest() -> str:
    """A digest of every pack file of every language on every root: part of every cache key
    (:mod:`conflictkit.codekey`), so an edited word list never returns a result of the old one."""
    sha = hashlib.sha256()

    def walk(folder: Any, name: str) -> None:
        for entry in sorted(folder.iterdir(), key=lambda p: p.name):
            if entry.is_dir():
                walk(entry, f"{name}/{entry.name}")
            elif entry.is_file():
                sha.update(f"{name}/{entry.name}\0".encode("utf-8", "surrogateescape"))
                sha.update(entry.read_bytes())

    for n, root in enumerate(_roots()):
        if root.is_dir():
            walk(root, str(n))
    return sha.hexdigest()


def languages() -> list[str]:
    """The languages that have a pack (a folder with a ``pack.yaml``)."""
    found = {p.name for root in _roots() if root.is_dir() for p in root.iterdir()
             if p.is_dir() and not p.name.startswith(("_", ".")) and p.joinpath("pack.yaml").is_file()}
    return sorted(found)


def pack_folder(language: str) -> Any:
    """The folder of a language's pack: the first root whose ``<language>/`` holds a ``pack.yaml``."""
    if not language.isidentifier():
        raise LexiconError(f"{language!r} is not a language code (a pack's folder name, such as 'en')")
    folder = next((r.joinpath(language) for r in _roots() if r.joinpath(language, "pack.yaml").is_file()), None)
    if folder is None:
        partial = next((r.joinpath(language) for r in _roots() if r.joinpath(language).is_dir()), None)
        if partial is not None:
            raise LexiconError(f"language pack {language!r} ({partial}) is incomplete: pack.yaml is missing; "
                               f"a pack has the same files as conflictkit/judges/atoms/lang/en/")
        raise LexiconError(f"no language pack for {language!r} (available: {', '.join(languages())}); "
                           f"add a folder {language}/ with the same files as conflictkit/judges/atoms/lang/en/ "
                           f"(in the package, or in a folder on ${LEXICON_PATH_ENV})")
    return folder


@contextmanager
def on_path(folder: Any | None) -> Iterator[None]:
    """Within the block, packs in ``folder`` come first (``folder`` put first on ``$CONFLICTKIT_LEXICON_PATH``);
    ``None`` changes nothing. Loaded packs are forgotten on the way in and out."""
    if folder is None:
        yield
        return
    before = os.environ.get(LEXICON_PATH_ENV)
    os.environ[LEXICON_PATH_ENV] = os.pathsep.join(p for p in (str(folder), before or "") if p)
    load.cache_clear()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(LEXICON_PATH_ENV, None)
        else:
            os.environ[LEXICON_PATH_ENV] = before
        load.cache_clear()


def read_yaml(path: Any, name: str) -> Any:
    """One YAML file of a pack; :class:`LexiconError` naming it when it is not valid YAML."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise LexiconError(f"language pack file {name} is not valid YAML{where}: "
                           f"{getattr(e, 'problem', None) or str(e).splitlines()[0]}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise LexiconError(f"cannot read language pack file {name}: {e}") from None


@lru_cache(maxsize=None)
def load(language: str = DEFAULT_LANGUAGE) -> LanguagePack:
    """The pack of ``language`` (a folder under ``conflictkit/judges/atoms/lang/`` or on
    ``$CONFLICTKIT_LEXICON_PATH``), read and validated once per process. An incomplete or malformed
    pack raises :class:`LexiconError` with one line naming every problem."""
    folder = pack_folder(language)
    sections: dict[str, Any] = {}
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if entry.name in _NOT_SECTIONS or entry.name.startswith((".", "_")):
            continue
        if not entry.name.endswith(".yaml"):
            raise LexiconError(f"language pack {language!r}: {entry.name} is not a file of a language pack "
                               f"(sections are <name>.yaml; extra tables go in tables/)")
        data = read_yaml(entry, f"{language}/{entry.name}")
        if not isinstance(data, dict):
            raise LexiconError(f"language pack file {language}/{entry.name} must be a mapping of lists and tables")
        sections[entry.name[: -len(".yaml")]] = data
    try:
        data = PackData.model_validate(sections)
    except ValidationError as exc:
        raise LexiconError(f"language pack {language!r} ({folder}) is incomplete or malformed: "
                           + "; ".join(describe_errors(exc))) from None
    return LanguagePack(language, sections, data, Path(str(folder)), _tables(language))


def _tables(language: str) -> dict[str, Path]:
    """The extra tables of a language: ``<language>/tables/<name>.yaml`` in every root, the first one found winning."""
    found: dict[str, Path] = {}
    for root in _roots():
        folder = root.joinpath(language, "tables")
        if folder.is_dir():
            for entry in sorted(folder.iterdir(), key=lambda p: p.name):
                if entry.name.endswith(".yaml"):
                    found.setdefault(entry.name[: -len(".yaml")], Path(str(entry)))
    return found


def detect(texts: list[str], candidates: list[str] | None = None) -> str:
    """The language of ``texts`` (``language: auto``): the pack whose ``detection_words`` make up the
    largest share of the texts' words. Deterministic: a tie goes to the default language, then to
    the first code in alphabetical order; texts with no words are in the default language."""
    from conflictkit.lexicon.detection import best_language

    return best_language(texts, candidates if candidates is not None else languages(), DEFAULT_LANGUAGE)


def reversing(lex: LanguagePack) -> frozenset[str]:
    """Tokens whose change can reverse or shift a clause's meaning (numbers are detected separately):
    negators, exceptions, conditions, modals and quantifiers. The redline marks these."""
    return lex.memo("reversing", lambda: frozenset().union(*(lex.words(f"words.{k}") for k in (
        "negators", "exceptions", "conditions", "modals", "quantifiers"))))


def _default_lists() -> dict[str, frozenset[str] | tuple[str, ...]]:
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


def __getattr__(name: str) -> Any:
    if name.startswith("__"):  # "from conflictkit.lexicon import load" asks for __path__: no pack to load for that
        raise AttributeError(f"module 'conflictkit.lexicon' has no attribute {name!r}")
    lists = _default_lists()
    if name in lists:
        return lists[name]
    raise AttributeError(f"module 'conflictkit.lexicon' has no attribute {name!r}")
