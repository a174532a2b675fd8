"""The language pack: every word list, pattern and number grammar of one language, in one validated object.

A pack is read once from its folder (see :func:`conflictkit.lexicon.load`) and checked against
:class:`~conflictkit.lexicon.schema.PackData`; every stage that reads words gets the same object:
the segmenter, the filter, the judge's families, the edit-level judge, the redline's token classes.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from conflictkit.errors import ConfigError
from conflictkit.lexicon.regex import compile_pattern
from conflictkit.lexicon.schema import PackData

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class LexiconError(ConfigError, ValueError):
    """A language with no pack, or a pack that is incomplete or malformed (exit code 2)."""


class LanguagePack:
    """The words and patterns of one language, validated, with compiled forms memoized on it.

    ``data`` is the typed pack (:class:`~conflictkit.lexicon.schema.PackData`: ``pack.data.numbers.units``);
    :meth:`get` and :meth:`words` read the same values by dotted path (``"words.negators"``);
    :meth:`pattern` compiles a pack pattern once; :meth:`table` reads an extra named table
    (``tables/<name>.yaml``: a severity table, the words of a family another package adds).
    """

    def __init__(self, language: str, sections: dict[str, Any], data: PackData, folder: Path | None = None,
                 tables: dict[str, Path] | None = None) -> None:
        self.language = language
        self.data = data
        self.folder = folder
        self._sections = sections
        self._tables = tables or {}
        self._memo: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"LanguagePack({self.language!r})"

    @property
    def name(self) -> str:
        """The language's name in English ("English")."""
        return self.data.pack.name

    def section(self, name: str) -> dict[str, Any]:
        """One file of the pack as read (``"words"`` is ``words.yaml``)."""
        try:
            return self._sections[name]
        except KeyError:
            raise LexiconError(f"language pack {self.language!r} has no {name}.yaml") from None

    def get(self, path: str) -> Any:
        """A value by dotted path: ``"words.negators"``, ``"modality.auxiliaries"``."""
        name, _, rest = path.partition(".")
        value: Any = self.section(name)
        for key in rest.split(".") if rest else ():
            if not isinstance(value, dict) or key not in value:
                raise LexiconError(f"language pack {self.language!r} has no {path!r} (in {name}.yaml)")
            value = value[key]
        return value

    def words(self, path: str) -> frozenset[str]:
        """A word list as a set: ``pack.words("words.negators")``; a mapping gives its keys, a mapping
        of lists (``modals: {obligation: [...]}``) the union of its lists."""
        def build() -> frozenset[str]:
            value = self.get(path)
            if isinstance(value, dict):
                if all(isinstance(v, list) for v in value.values()):
                    return frozenset(w for v in value.values() for w in v)
                return frozenset(value)
            return frozenset(value)
        return self.memo(f"words:{path}", build)

    def pattern(self, path: str, flags: int = 0) -> re.Pattern[str]:
        """The pattern at ``path`` compiled once (letter classes expanded; see :mod:`conflictkit.lexicon.regex`)."""
        return self.memo(f"pattern:{path}:{flags}", lambda: compile_pattern(self.get(path), flags))

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """``build()`` once per pack: compiled patterns and derived tables live as long as it does."""
        if key not in self._memo:
            self._memo[key] = build()
        return self._memo[key]

    def table(self, name: str, model: type[M] | None = None) -> Any:
        """The extra table ``tables/<name>.yaml`` of this pack (validated against ``model`` when given,
        once); :class:`LexiconError` naming the file when the pack has none or it does not fit ``model``."""
        def build() -> Any:
            from conflictkit.lexicon import read_yaml

            path = self._tables.get(name)
            if path is None:
                known = ", ".join(sorted(self._tables)) or "none"
                raise LexiconError(f"language pack {self.language!r} has no table {name!r} (tables/{name}.yaml; "
                                   f"its tables: {known})")
            data = read_yaml(path, f"{self.language}/tables/{name}.yaml")
            if model is None:
                return data
            try:
                return model.model_validate(data)
            except ValidationError as exc:
                raise LexiconError(f"language pack {self.language!r} has a malformed table: "
                                   + "; ".join(describe_errors(exc, f"tables/{name}.yaml"))) from None
        return self.memo(f"table:{name}:{model.__qualname__ if model else ''}", build)

    def tables(self) -> list[str]:
        """The names of the pack's extra tables."""
        return sorted(self._tables)

    @property
    def fingerprint(self) -> str:
        """Identifies the pack's words in cache keys: a stage that reads words redoes its work when they change."""
        def build() -> str:
            payload = json.dumps(self._sections, sort_keys=True, ensure_ascii=False, default=str)
            return f"{self.language}:{hashlib.sha256(payload.encode()).hexdigest()[:16]}"
        return self.memo("fingerprint", build)


def describe_errors(exc: ValidationError, file: str | None = None) -> list[str]:
    """Each problem of a pack on a few words: ``numbers.yaml: units.thirty: Input should be a valid integer``
    (the first part of each error's location names the file, unless ``file`` does)."""
    out = []
    for err in exc.errors():
        loc = ((file.removesuffix(".yaml"),) if file else ()) + tuple(err["loc"])
        if not loc:
            out.append(err["msg"])
            continue
        file_name, rest = f"{loc[0]}.yaml", "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:]).lstrip(".")
        if isinstance(err.get("input"), bool) and err["type"] == "string_type":
            out.append(f"{file_name}: {rest}: {str(err['input']).lower()} was read as a yes/no value: quote the word "
                       f"(YAML reads unquoted no, on, off, yes as booleans)")
            continue
        if err["type"] == "missing":
            out.append(f"{file_name} is missing" if not rest else f"{file_name}: {rest} is missing")
        elif err["type"] == "extra_forbidden":
            out.append(f"{file_name} is not a file of a language pack (put extra tables in tables/)" if not rest
                       else f"{file_name}: unknown key {rest}")
        else:
            message = err["msg"].removeprefix("Value error, ")
            out.append(f"{file_name}: {rest + ': ' if rest else ''}{message}")
    return out
