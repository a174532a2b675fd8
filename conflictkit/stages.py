"""The stage interfaces of the pipeline, all in one place.

    load -> normalize -> segment -> filter -> embed -> retrieve -> [score] -> judge -> align -> report -> [explain]

A :class:`Loader` turns a file's bytes into the document text that every span indexes, plus a
map back to the source (:class:`~conflictkit.model.DocumentSource`); it is chosen by file extension
or sniffed type, never by config.

Every backend is a :class:`Component`: a cheap constructor that only validates its options (a
pydantic model with ``extra="forbid"``), a ``warm_up()`` that loads anything heavy, and batch
methods. Backends are registered through the hooks in :mod:`conflictkit.hookspecs`; the engine
builds them from the YAML config by stage and name.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from conflictkit.context import DocumentContext
from conflictkit.model import CandidatePair, Clause, Document, DocumentSource, IndexedDocument, Judgement

if TYPE_CHECKING:
    from conflictkit.config import Limits
    from conflictkit.lexicon import LanguagePack
    from conflictkit.store import Store

StageName = Literal["loader", "segmenter", "filter", "embedder", "retriever", "scorer", "judge", "explainer", "renderer"]
# The configured pipeline stages; loaders and renderers are registered like them but picked by file
# type and by ``--format``.
STAGES: tuple[StageName, ...] = ("segmenter", "filter", "embedder", "retriever", "scorer", "judge", "explainer")
Revision = Literal["accepted", "original"]


class Options(BaseModel):
    """Base class of a backend's options: unknown keys are errors, never silently ignored."""

    # validators are built when a backend's options are first validated, not when its module is imported
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Component(ABC):
    """A pipeline stage backend.

    Subclasses set ``name`` (the name used in configs), ``stage`` and ``Options``; they override
    :meth:`warm_up` when they have something heavy to load and :attr:`version` when their output
    changes for the same options (it is part of the cache key).
    """

    name: ClassVar[str]
    stage: ClassVar[StageName]
    Options: ClassVar[type[Options]] = Options
    version: ClassVar[str] = "1"
    runtime_options: ClassVar[frozenset[str]] = frozenset()
    """Options that change how a backend runs (threads, batch sizes), never what it returns: left out of
    its fingerprint, so changing them keeps every cached result."""
    reads_words: ClassVar[bool] = False
    """Whether the backend reads the words of a language (a segmenter's definitions, a filter's notes, a
    judge's negators): the engine hands it the comparison's language pack (:meth:`use_language`), and
    the pack's fingerprint joins the backend's, so cached work is redone when the pack changes."""

    def __init__(self, options: Options | dict | None = None, language: str | LanguagePack | None = None) -> None:
        if options is None:
            options = {}
        if isinstance(options, dict):
            options = self.Options.model_validate(options)
        self.options = options
        self.store: Store | None = None
        self._warm = False
        self._language: LanguagePack | None = None
        if language is not None:
            self.use_language(language)

    def use_language(self, language: str | LanguagePack) -> None:
        """Read the words of ``language`` (a code such as "en", or a pack) from now on; a code with no
        pack, or a malformed pack, raises :class:`conflictkit.lexicon.LexiconError`."""
        from conflictkit.lexicon import load

        self._language = load(language) if isinstance(language, str) else language

    @property
    def language(self) -> LanguagePack:
        """The language pack the backend reads: the one the engine handed it, else the default language's."""
        if self._language is None:
            from conflictkit.lexicon import DEFAULT_LANGUAGE, load

            self._language = load(DEFAULT_LANGUAGE)
        return self._language

    def use_store(self, store: Store | None) -> None:
        """Give the backend the engine's cache (remote answers, model outputs); None disables caching."""
        self.store = store

    def warm_up(self) -> None:
        """Load models, open clients. Called once by the engine before any work; idempotent."""
        self._warm = True

    def unavailable(self) -> str | None:
        """Why this backend cannot run here (a dependency, a model or a key missing), found without loading
        anything; None when nothing is known to be missing. The review app offers only presets whose
        backends all return None; :meth:`warm_up` stays the final word."""
        return None

    @property
    def fingerprint(self) -> str:
        """Identifies this backend and its options in cache keys and params.json."""
        options = self.options.model_dump(mode="json", exclude=set(self.runtime_options))
        described = {"name": self.name, "version": self.version, "options": options}
        if self.reads_words:
            described["language"] = self.language.fingerprint
        payload = json.dumps(described, sort_keys=True)
        return f"{self.name}@{self.version}:{hashlib.sha256(payload.encode()).hexdigest()[:16]}"

    def describe(self) -> dict:
        """What params.json records about this backend (model ids, versions, the language it read...)."""
        described = {"name": self.name, "version": self.version, "options": self.options.model_dump(mode="json")}
        if self.reads_words:
            described["language"] = self.language.language
        return described

    def usage(self) -> dict:
        """Resource usage since construction (requests, tokens, cost); empty for local backends."""
        return {}


class LoadedText(BaseModel):
    """What a loader makes of a file: the document text and where each part of it came from.

    ``text`` is what every span indexes (for Markdown and text files, the file's text itself);
    ``source`` maps ranges of it back to pages, paragraphs or parts of the file.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    text: str
    source: DocumentSource


class Loader(Component):
    """Reads one file format: bytes -> :class:`LoadedText`.

    ``extensions`` (lower case, with the dot) and :meth:`sniff` decide which loader reads a file;
    ``load`` raises :class:`~conflictkit.errors.InputError` with one line saying what is wrong
    and what to do. A loader whose format carries tracked changes sets ``reads_revisions`` and
    honours ``revision`` ("accepted": every change accepted; "original": every change rejected).
    """

    stage: ClassVar[StageName] = "loader"
    extensions: ClassVar[tuple[str, ...]] = ()
    reads_revisions: ClassVar[bool] = False

    @classmethod
    def sniff(cls, data: bytes) -> bool:
        """Whether ``data`` is in this loader's format whatever the file is called."""
        return False

    _limits: Limits | None = None

    def use_limits(self, limits: Limits) -> None:
        """The budgets to hold while reading (the config's ``limits:``): pages, paragraphs, unpacked bytes.
        A loader refuses a file over one with :func:`~conflictkit.errors.over_limit` before its memory grows."""
        self._limits = limits

    @property
    def limits(self) -> Limits:
        """The budgets given by :meth:`use_limits`, else the defaults."""
        if self._limits is None:
            from conflictkit.config import Limits

            self._limits = Limits()
        return self._limits

    @abstractmethod
    def load(self, data: bytes, name: str, revision: Revision = "accepted") -> LoadedText: ...


class Segmenter(Component):
    """Splits a document into clauses, each with its own text and a span in the original."""

    stage: ClassVar[StageName] = "segmenter"

    @abstractmethod
    def segment(self, document: Document) -> list[Clause]: ...

    def reading_key(self, document: Document) -> str:
        """What, beyond its normalized text, decides how ``document`` is segmented (part of the index cache key).

        Empty by default; a segmenter that reads a ``.md`` file as Markdown and the same text under
        ``.txt`` as plain text, or looks at the original's indentation, says so here.
        """
        return ""


class Filter(Component):
    """Flags non-operative clauses (headings, signatures, blank form fields...).

    Returns, for each clause, a short reason when it is non-operative and ``None`` otherwise.
    Definitions must never be filtered.
    """

    stage: ClassVar[StageName] = "filter"

    @abstractmethod
    def flag(self, clauses: Sequence[Clause]) -> list[str | None]: ...


class Embedder(Component):
    """Turns texts into unit-length vectors, one row per text."""

    stage: ClassVar[StageName] = "embedder"

    @abstractmethod
    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Settlement:
    """What a retriever pairs before any clause is embedded: candidate pairs, each with at least one
    clause no vector is needed for, and the clauses (positions in each whole document's ``clauses``)
    it still needs vectors for and will rank in :meth:`Retriever.retrieve`."""

    candidates: list[CandidatePair]
    open_reference: list[int]
    open_input: list[int]


class Retriever(Component):
    """Pairs the clauses of two documents that may deal with the same matter.

    It must keep the number of pairs linear in the number of clauses: the judge sees tens of
    pairs per document pair, not thousands.

    A retriever that ranks by vectors may first pair what needs none (:meth:`settle`): the engine
    then embeds only the clauses left open and calls :meth:`retrieve` on those alone.
    """

    stage: ClassVar[StageName] = "retriever"
    needs_vectors: ClassVar[bool] = True

    def settle(self, reference: IndexedDocument, input: IndexedDocument,
               open: tuple[list[int], list[int]]) -> Settlement | None:
        """Pairs found without vectors among the ``open`` clauses (positions in the whole documents given:
        the operative clauses no identical pair settled), and those still open; None (the default): all are."""
        return None

    @abstractmethod
    def retrieve(self, reference: IndexedDocument, input: IndexedDocument) -> list[CandidatePair]: ...


class Scorer(Component):
    """Scores the relevance of (query, text) pairs in [0, 1], e.g. a cross-encoder reranker."""

    stage: ClassVar[StageName] = "scorer"

    @abstractmethod
    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]: ...


class Comparison(BaseModel):
    """Everything a judge may look at besides the pairs: both indexed documents, and the facts read
    from both whole documents before any pair is judged (renames, aliases: see :mod:`conflictkit.context`).

    A judge may ignore ``context``; pairs judged on their own (benchmarks) get an empty one. A judge
    that works through its pairs in batches calls :meth:`advance` after each, so progress moves.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    reference: IndexedDocument
    input: IndexedDocument
    context: DocumentContext = Field(default_factory=DocumentContext)
    progress: Callable[[str, int, int], None] | None = Field(default=None, exclude=True, repr=False)
    step: str = "judge"

    def advance(self, done: int, total: int) -> None:
        """Report that ``done`` of ``total`` pairs are judged (shown as the step :attr:`step`); never fails."""
        if self.progress is not None:
            self.progress(self.step, done, total)

    def for_step(self, step: str) -> Comparison:
        """The same comparison, its progress shown as another step (a cascade's later judges)."""
        return self.model_copy(update={"step": step})


class Judge(Component):
    """Decides, for each candidate pair, P(same matter), P(differs) and P(conflict), with reasons."""

    stage: ClassVar[StageName] = "judge"
    needs_vectors: ClassVar[bool] = False
    """Whether it reads ``comparison.*.vectors`` (beyond each pair's similarity): the engine then embeds
    every clause; otherwise only the clauses retrieval ranks are embedded and the documents carry no vectors."""

    @abstractmethod
    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]: ...


NOT_ANSWERED_YET = "not answered yet"
"""The problem an explainer's ``explainer.problems`` names for findings whose answers have not arrived."""


class Explainer(Component):
    """Adds what reviewers read to a finished report: summaries, recommendations, rewrites.

    Runs after the findings are grounded (and written: a report never waits for its explanations);
    returns the report with its additions (``summaries``, ``recommendations``, ``explainer``).
    ``updated``, when given, is called with the report so far each time explanations arrive, so a
    caller can write them as they come. Every quote it adds must be checked against the documents
    with :class:`conflictkit.grounding.Verifier`; an unverifiable quote is dropped, never written.
    ``explainer.unexplained`` lists the findings it could not explain.
    """

    stage: ClassVar[StageName] = "explainer"

    @abstractmethod
    def explain(self, report: dict, comparison: Comparison, updated: Callable[[dict], None] | None = None) -> dict: ...


ChangesShown = Literal["all", "findings"]


class Rendering:
    """What a renderer renders: a finished comparison's report and its two documents, and what the user asked for.

    ``changes``: ``all`` (every change, as Word's Compare shows them) or ``findings`` (only the
    changes that belong to findings: the substantive edits where a judge gave edits). ``view``
    is the one model of the report every human-readable format reads
    (:class:`conflictkit.report.view.ReportView`), built once; ``sort`` the order it lists findings in
    (``severity``, then document order; ``document``; ``kind``).
    """

    def __init__(self, report: dict, reference: Document, input: Document, pairs: dict | None = None,
                 changes: ChangesShown = "all", verbosity: int = 0, sort: str = "severity") -> None:
        self.report, self.reference, self.input, self.pairs = report, reference, input, pairs
        self.changes, self.verbosity, self.sort = changes, verbosity, sort
        self._view = None

    @classmethod
    def of_result(cls, result, **asked) -> Rendering:
        """The rendering of a :class:`~conflictkit.engine.ComparisonResult`."""
        return cls(result.report, result.reference.document, result.input.document, result.pairs, **asked)

    @property
    def texts(self) -> dict[str, str]:
        return {"reference": self.reference.original, "input": self.input.original}

    @property
    def view(self):
        if self._view is None:
            from conflictkit.report.view import ReportView

            sources = {side: d.source for side, d in (("reference", self.reference), ("input", self.input)) if d.source}
            self._view = ReportView(self.report, self.texts, sources, sort=self.sort)
        return self._view


class Renderer(Component):
    """Writes a report in one format, chosen with ``--format NAME`` (``name``).

    ``filename`` is the file it adds to an ``--out`` folder (None: it only prints); ``printable``
    says whether ``compare`` can print it on stdout (else it needs ``--out``). ``render`` returns
    text or bytes; it imports what it needs itself, so registering a renderer costs nothing.
    """

    stage: ClassVar[StageName] = "renderer"
    filename: ClassVar[str | None] = None
    printable: ClassVar[bool] = True

    @abstractmethod
    def render(self, rendering: Rendering) -> str | bytes: ...

    def print(self, rendering: Rendering) -> None:
        """Print the rendering on stdout (a terminal view overrides this to draw in colour)."""
        import sys

        content = self.render(rendering)
        if isinstance(content, bytes):
            sys.stdout.buffer.write(content)
        else:
            from conflictkit.report.escape import sanitize_controls

            sys.stdout.write(sanitize_controls(content))


STAGE_CLASSES: dict[StageName, type[Component]] = {
    "loader": Loader,
    "segmenter": Segmenter,
    "filter": Filter,
    "embedder": Embedder,
    "retriever": Retriever,
    "scorer": Scorer,
    "judge": Judge,
    "explainer": Explainer,
    "renderer": Renderer,
}
