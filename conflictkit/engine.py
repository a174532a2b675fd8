"""The engine: runs the configured pipeline on two documents and produces the report.

    load -> normalize -> segment -> filter -> embed -> retrieve -> [score] -> judge -> align -> ground -> report

Stage outputs are cached in the :mod:`conflictkit.store`: a document's clauses by its normalized
text and the segmenter/filter/embedder fingerprints; each clause text's vector by the embedder
fingerprint and the text's hash (shared by all documents); the judged pairs by both indexes and
the retriever/scorer/judge fingerprints; every key also holds the installed code and rule data
(:mod:`conflictkit.codekey`). Thresholds are not part of any key, so a run with only a
threshold changed recomputes only the alignment (and re-judges the few runs of clauses it links,
see :mod:`conflictkit.align`). Identical clause texts are settled before the
judge (:mod:`conflictkit.identical`) and retrieval ranks only the clauses left unsettled, so only
those are embedded (all of them when the judge reads the documents' vectors). Backends load their
models only when their work is needed, so a cached comparison loads none.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conflictkit import PIPELINE_VERSION, __version__
from conflictkit.align import align
from conflictkit.codekey import code_key
from conflictkit.config import Config, config_data, dump_config
from conflictkit.context import EMPTY, DocumentContext, build_context
from conflictkit.errors import BackendError, InputError
from conflictkit.filters.rules import flag_navigation
from conflictkit.identical import identical_pairs, settle_identical, unsettled
from conflictkit.lexicon import AUTO, LanguagePack, detect, load
from conflictkit.loaders import document_from_text, flag_non_operative, read_document
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Judgement, Span, trusted
from conflictkit.progress import ProgressCallback, silent
from conflictkit.registry import Registry, get_registry
from conflictkit.report import PARAMS_SCHEMA
from conflictkit.report.build import assess_findings, build_findings, build_pairs, build_report, ground_findings
from conflictkit.report.severity import table_of_config
from conflictkit.stages import NOT_ANSWERED_YET, Comparison, Component, Embedder, Explainer, Filter, Judge, Retriever, Scorer, Segmenter
from conflictkit.store import Store, cached_values, key_of, vector_bytes, vector_from


@dataclass
class JudgedDocuments:
    """Two indexed documents with their candidate pairs and the judgements of those pairs (``key``: their cache key)."""

    reference: IndexedDocument
    input: IndexedDocument
    candidates: list[CandidatePair]
    judgements: list[Judgement]
    key: str
    retrieval: dict[str, Any] = field(default_factory=dict)
    """How the pairs were found (see :attr:`ComparisonResult.retrieval`)."""


@dataclass
class ComparisonResult:
    """Everything a comparison produced: the three JSON documents and both indexed documents."""

    report: dict
    pairs: dict
    params: dict
    reference: IndexedDocument
    input: IndexedDocument
    judgements: list[Judgement] = field(default_factory=list)
    candidates: list[CandidatePair] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    run_judgements: dict[tuple[tuple[str, ...], tuple[str, ...]], Judgement] = field(default_factory=dict)
    """Judgements of runs of clauses on their concatenated text, kept so re-aligning asks no judge twice."""
    retrieval: dict[str, Any] = field(default_factory=dict)
    """How the pairs were found: ``lexical_clauses`` (paired by a clear BM25 match, never embedded) and
    ``embedded_clauses`` (clauses that needed a vector), both in the report's summary, and ``embedded``
    (which ones: [side, clause id], side 0 the reference)."""


RECENT_INDEXES = 4  # indexed documents an engine keeps in memory
EMBED_BATCH, EMBED_BATCH_MIN = 256, 16  # texts per call of the embedder: at most, and at least
PROGRESS_STEPS = 16  # a long step reports at least this many times (batches permitting)
RECENT_VECTORS = 20_000  # clause vectors an engine without a store keeps in memory (30 MB at 384 dimensions)


class Engine:
    """Builds the configured backends and compares documents with them.

    Construction validates and builds every backend (cheap). A backend is warmed (its model
    loaded) the first time its work is needed, shown as a ``load <stage>`` progress step, so a
    comparison served from the cache loads no model at all; :meth:`warm_up` warms every backend
    up front (a server that should pay the load before its first request).
    """

    def __init__(
        self,
        config: Config,
        store: Store | None = None,
        progress: ProgressCallback | None = None,
        registry: Registry | None = None,
    ) -> None:
        self.config = config
        self.store = store if store is not None else Store.disabled()
        self.progress = progress or silent
        self.registry = registry or get_registry()
        self.components: dict[str, Component | None] = {
            stage: self._build(stage, spec) for stage, spec in config.specs().items()
        }
        if getattr(self.retriever, "needs_vectors", False) and self.embedder is None:
            from conflictkit.errors import ConfigError

            raise ConfigError(f"retriever {self.retriever.name!r} needs clause vectors: configure pipeline.embedder")
        for component in self.components.values():
            if component is not None:
                component.use_store(self.store)
        self.pack: LanguagePack | None = None
        """The language pack the stages read; with ``language: auto``, detected anew for each comparison."""
        if config.language != AUTO:
            self._use_language(load(config.language))
        self._warmed: set[str] = set()
        # The last few documents indexed by this engine, by index key and file hash: a batch compares
        # one reference with many inputs, and must not reload (or, uncached, recompute) it every time.
        self._recent: OrderedDict[tuple[str, str, bool], IndexedDocument] = OrderedDict()
        # Without a store, the vectors embedded lately: a batch retrieves the same reference's
        # clauses against every input, and must not embed them again each time.
        self._recent_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._last_context: tuple[tuple, DocumentContext] | None = None
        table_of_config(config)  # a severity table that cannot be read fails here, before any work

    def _build(self, stage: str, spec) -> Component | None:
        if spec is None:
            return None
        info = self.registry.get(stage, spec.use)  # type: ignore[arg-type]
        return info.cls(spec.options)

    @property
    def segmenter(self) -> Segmenter:
        return self.components["segmenter"]  # type: ignore[return-value]

    @property
    def filter(self) -> Filter | None:
        return self.components["filter"]  # type: ignore[return-value]

    @property
    def embedder(self) -> Embedder | None:
        return self.components["embedder"]  # type: ignore[return-value]

    @property
    def retriever(self) -> Retriever:
        return self.components["retriever"]  # type: ignore[return-value]

    @property
    def scorer(self) -> Scorer | None:
        return self.components["scorer"]  # type: ignore[return-value]

    @property
    def judge(self) -> Judge:
        return self.components["judge"]  # type: ignore[return-value]

    @property
    def explainer(self) -> Explainer | None:
        return self.components["explainer"]  # type: ignore[return-value]

    def warm_up(self) -> None:
        """Load every backend's models now rather than on first use; idempotent."""
        for stage in self.components:
            self._ready(stage)

    def _ready(self, stage: str) -> Any:
        """The backend of ``stage``, warmed on its first use in this engine (None when unconfigured)."""
        component = self.components[stage]
        if component is not None and stage not in self._warmed:
            self.progress(f"load {stage}", 0, 1)
            component.warm_up()
            self._warmed.add(stage)
            self.progress(f"load {stage}", 1, 1)
        return component

    # -- indexing -------------------------------------------------------------------------------

    def _fingerprints(self, *stages: str) -> list[str | None]:
        return [c.fingerprint if (c := self.components[s]) is not None else None for s in stages]

    @property
    def code_key(self) -> str:
        """The installed code and rule data, in every key below (:mod:`conflictkit.codekey`): an upgrade,
        an edited lexicon or an edited checkout never returns an old result. Every plugin counts, since
        a cascade's judges may come from several."""
        return code_key()

    def index_key(self, document: Document) -> str:
        normalized_hash = hashlib.sha256(document.normalized.encode("utf-8")).hexdigest()
        # Non-operative parts (footnotes, running headers) flag clauses: the same text read from
        # a file without them must not share the entry.
        non_operative = [] if document.source is None else \
            [(b.start, b.end, b.role) for b in document.source.blocks if b.role != "body"]
        return key_of("index", self.code_key, normalized_hash, self.segmenter.reading_key(document),
                      *self._fingerprints("segmenter", "filter", "embedder"), *([non_operative] if non_operative else []))

    def index(self, document: Document) -> IndexedDocument:
        """Segment, filter and embed a document, or load that work from the cache.

        The cached index holds the clauses; their vectors come from the per-text vector cache,
        which documents share, so an unchanged clause of a new version is never embedded again.
        """
        return self._indexed(document, self.clauses(document), with_vectors=True)

    def prepare(self, document: Document) -> IndexedDocument:
        """Segment and filter a document now and keep it among the engine's recent indexes (a batch does
        this for a reference before its workers start): a later comparison with it segments nothing.
        Its clauses are embedded only if the judge reads every clause's vector."""
        return self._indexed(document, self.clauses(document), self._judge_reads_vectors)

    @property
    def _judge_reads_vectors(self) -> bool:
        """Whether the judge reads the documents' clause vectors, not only the pairs' similarities."""
        return self.embedder is not None and bool(getattr(self.judge, "needs_vectors", False))

    def _indexed(self, document: Document, clauses: list[Clause], with_vectors: bool,
                 index_key: str | None = None) -> IndexedDocument:
        """The indexed document, with every clause's vector when ``with_vectors``, else none."""
        key = (index_key or self.index_key(document), document.sha256, with_vectors)
        recent = self._recent.get(key)
        if recent is not None:
            self._recent.move_to_end(key)
            return recent.model_copy(update={"document": document})
        indexed = IndexedDocument(document=document, clauses=clauses, vectors=self._vectors_of(clauses) if with_vectors else None)
        self._recent[key] = indexed
        while len(self._recent) > RECENT_INDEXES:
            self._recent.popitem(last=False)
        return indexed

    def clauses(self, document: Document) -> list[Clause]:
        """A document's segmented and filtered clauses, from the cache when it has them; checks the clause limit."""
        key = self.index_key(document)
        recent = self._recent.get((key, document.sha256, False)) or self._recent.get((key, document.sha256, True))
        if recent is not None:
            return recent.clauses
        cached = self.store.get_json("index", key)
        if cached is not None:
            try:
                clauses = _clauses_from_cache(cached, document)
            except (KeyError, ValueError, TypeError, IndexError):
                pass  # a corrupt entry is recomputed
            else:
                self._check_clause_count(document, clauses)
                return clauses
        clauses = self._segment_fresh(document)
        self.store.put_json("index", key, _clauses_to_cache(clauses, document))
        return clauses

    def _segment_fresh(self, document: Document) -> list[Clause]:
        segmenter = self._ready("segmenter")
        self.progress("segment", 0, 1)
        clauses = segmenter.segment(document)
        self.progress("segment", 1, 1)
        self._check_clause_count(document, clauses)
        if self.filter is not None and clauses:
            reasons = self._ready("filter").flag(clauses)
            clauses = [
                c if reason is None or c.kind == "definition" else c.model_copy(update={"filtered": reason})
                for c, reason in zip(clauses, reasons, strict=True)
            ]
        return flag_navigation(flag_non_operative(clauses, document), document.original, self._language)

    def _check_clause_count(self, document: Document, clauses: list[Clause]) -> None:
        limit = self.config.limits.max_clauses
        if len(clauses) > limit:
            raise InputError(
                f"{document.path} has {len(clauses):,} clauses, over the limit of {limit:,}; "
                "split the document, or raise limits.max_clauses in the config"
            )

    def _check_clause_pairs(self, reference: Document, ref_open: int, input: Document, inp_open: int) -> None:
        """Retrieval ranks the operative clauses no identical pair settles: its time grows with their product."""
        pairs, limit = ref_open * inp_open, self.config.limits.max_clause_pairs
        if pairs > limit:
            raise InputError(
                f"{reference.path} x {input.path} leaves {ref_open:,} x {inp_open:,} clauses without an identical "
                f"counterpart to match, {pairs:,} clause pairs, over the limit of {limit:,} (retrieval time grows with "
                "that product); split the documents, or raise limits.max_clause_pairs in the config"
            )

    def _vectors_of(self, clauses: list[Clause]) -> np.ndarray | None:
        if self.embedder is None or not clauses:
            return None
        return self._embed([c.text for c in clauses])

    def _embed(self, texts: list[str]) -> np.ndarray:
        """One unit vector per text: each distinct text is looked up in the store, and embedded once if absent."""
        package = self.registry.get("embedder", self.embedder.name).package
        # the embedder's own package and what it requires: a new model library may embed differently
        prefix = f"{self.embedder.fingerprint}\n{code_key([package], rules=False)}\n".encode()
        keys = [hashlib.sha256(prefix + text.encode("utf-8")).hexdigest() for text in texts]
        if self.store.enabled:
            values, _ = cached_values(
                self.store, "embedding", keys, lambda positions, _save: self._embed_fresh([texts[i] for i in positions]),
                vector_bytes, vector_from,
            )
        else:
            values = self._remembered(keys, texts)
        if not values:
            return np.zeros((0, 0), dtype=np.float32)
        try:
            return np.stack(values)
        except ValueError:
            raise BackendError(f"embedder {self.embedder.name!r} returned vectors of different sizes") from None

    def _remembered(self, keys: list[str], texts: list[str]) -> list[np.ndarray]:
        """Vectors from the engine's recent ones, each missing distinct text embedded once (no store)."""
        missing = list(dict.fromkeys(k for k in keys if k not in self._recent_vectors))
        first = {k: i for i, k in reversed(list(enumerate(keys)))}
        fresh = dict(zip(missing, self._embed_fresh([texts[first[k]] for k in missing]))) if missing else {}
        values = [fresh[k] if k in fresh else self._recent_vectors[k] for k in keys]
        for key in keys:
            if key in self._recent_vectors:
                self._recent_vectors.move_to_end(key)
        self._recent_vectors.update(fresh)
        while len(self._recent_vectors) > RECENT_VECTORS:
            self._recent_vectors.popitem(last=False)
        return values

    def _embed_fresh(self, texts: list[str]) -> list[np.ndarray]:
        embedder = self._ready("embedder")
        # large enough for the embedder to sort by length and pad little; small enough that progress moves
        batch = min(EMBED_BATCH, max(EMBED_BATCH_MIN, -(-len(texts) // PROGRESS_STEPS)))
        parts = []
        for start in range(0, len(texts), batch):
            self.progress("embed", start, len(texts))
            parts.append(np.asarray(embedder.embed(texts[start : start + batch]), dtype=np.float32))
        self.progress("embed", len(texts), len(texts))
        vectors = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise BackendError(f"embedder {embedder.name!r} returned {vectors.shape[0]} vectors for {len(texts)} texts")
        return list(vectors)

    # -- comparing ------------------------------------------------------------------------------

    def compare(self, reference_path: str, input_path: str, explain: bool = True) -> ComparisonResult:
        """Compare two files on disk (``explain`` False: leave the explainer to :meth:`explain`)."""
        limits = self.config.limits
        return self.compare_documents(read_document(reference_path, limits), read_document(input_path, limits), explain)

    def compare_revisions(self, path: str, explain: bool = True) -> ComparisonResult:
        """Compare a file's own original (every tracked change rejected) with its revised text (all accepted)."""
        limits = self.config.limits
        original = read_document(path, limits, revision="original")
        revised = read_document(path, limits, revision="accepted")
        if original.normalized == revised.normalized and revised.source is not None:
            revised.source.notes.append(f"{path} has no tracked changes that change its text: original and revised are the same")
        return self.compare_documents(original.model_copy(update={"path": f"{path} (original)"}),
                                      revised.model_copy(update={"path": f"{path} (revised)"}), explain)

    def compare_texts(
        self, reference_text: str, input_text: str, reference_name: str = "reference", input_name: str = "input"
    ) -> ComparisonResult:
        """Compare two texts already in memory (uploads, tests)."""
        return self.compare_documents(document_from_text(reference_text, reference_name), document_from_text(input_text, input_name))

    def compare_documents(self, reference: Document, input: Document, explain: bool = True) -> ComparisonResult:
        """Compare two loaded documents, reusing every cached stage output; models load only when needed.

        With ``explain`` False the configured explainer is not run: a caller that writes the report
        first calls :meth:`explain` afterwards.
        """
        timings: dict[str, float] = {}
        started = time.perf_counter()
        self.detect_language(reference.normalized, input.normalized)
        # both documents are segmented (and their clause counts checked) before either is embedded
        ref_clauses, inp_clauses = self.clauses(reference), self.clauses(input)
        judged = self.judge_documents(reference, ref_clauses, input, inp_clauses, timings)
        ref, inp = judged.reference, judged.input
        t = time.perf_counter()
        result = self._finish_cached(ref, inp, judged.candidates, judged.judgements, judged.key, judged.retrieval)
        timings["report"] = time.perf_counter() - t
        timings["total"] = time.perf_counter() - started
        result.timings = timings
        result.params["timings"] = {k: round(v, 4) for k, v in timings.items()}
        if explain:
            self.explain(result)
        return result

    def explain(self, result: ComparisonResult, updated: Callable[[ComparisonResult], None] | None = None) -> ComparisonResult:
        """Add the configured explainer's explanations to ``result`` (in place; nothing without an explainer).

        ``updated(result)`` is called each time explanations arrive, so they can be written as they
        come. An explainer's failure propagates with ``result`` holding what arrived before it.
        """
        if self.explainer is None:
            return result
        started = time.perf_counter()
        findings = len(result.report["findings"])
        self.progress("explain", 0, findings)

        def arrived(report: dict) -> None:
            result.report = report
            waiting = sum(p["findings"] for p in (report.get("explainer") or {}).get("problems", []) if p["problem"] == NOT_ANSWERED_YET)
            self.progress("explain", findings - waiting, findings)
            if updated is not None:
                updated(result)

        try:
            result.report = self._ready("explainer").explain(
                result.report, Comparison(reference=result.reference, input=result.input), arrived)
        finally:
            timings = {k: v for k, v in result.timings.items() if k != "total"}
            timings["explain"] = time.perf_counter() - started
            timings["total"] = result.timings.get("total", 0.0) + timings["explain"]
            result.timings = timings
            result.params = {**self.params(self.config), "timings": {k: round(v, 4) for k, v in timings.items()}}
        self.progress("explain", findings, findings)
        return result

    def judge_documents(
        self, reference: Document, ref_clauses: list[Clause], input: Document, inp_clauses: list[Clause],
        timings: dict[str, float] | None = None, reference_key: str | None = None,
        context_pairs: Callable[[list[CandidatePair]], list[CandidatePair]] | None = None,
    ) -> JudgedDocuments:
        """The retrieve -> settle -> score -> judge half of a comparison, on clauses already segmented.

        ``reference_key`` replaces the reference's index key where its clauses do not come from the
        segmenter (a playbook's positions), so they never share a cache entry with a file of that text.
        ``context_pairs`` picks the candidate pairs the document context is read from, where the
        reference says one thing several ways (a playbook's texts of one position: one change in the
        input would otherwise count as a rename made several times).
        """
        timings = {} if timings is None else timings
        started = time.perf_counter()
        # identical pairs are settled first, so the pair limit counts only what retrieval will rank
        plain_ref, plain_inp = (IndexedDocument(document=reference, clauses=ref_clauses),
                                IndexedDocument(document=input, clauses=inp_clauses))
        exact = identical_pairs(plain_ref, plain_inp)
        open_ref, open_inp = unsettled(plain_ref, {r for r, _ in exact}), unsettled(plain_inp, {i for _, i in exact})
        self._check_clause_pairs(reference, len(open_ref.clauses), input, len(open_inp.clauses))
        with_vectors = self._judge_reads_vectors
        ref = self._indexed(reference, ref_clauses, with_vectors, reference_key)
        inp = self._indexed(input, inp_clauses, with_vectors)
        timings["index"] = time.perf_counter() - started
        t = time.perf_counter()
        pairs_key = self._pairs_key(ref, inp, reference_key)
        candidates, judgements, retrieval = self._judged_pairs(ref, inp, pairs_key, exact, (open_ref, open_inp), context_pairs)
        timings["judge"] = time.perf_counter() - t
        return JudgedDocuments(reference=ref, input=inp, candidates=candidates, judgements=judgements, key=pairs_key,
                               retrieval=retrieval)

    def _pairs_key(self, ref: IndexedDocument, inp: IndexedDocument, reference_key: str | None = None) -> str:
        return key_of("pairs", self.code_key, reference_key or self.index_key(ref.document), self.index_key(inp.document),
                      *self._fingerprints("retriever", "scorer", "judge"))

    def _judged_pairs(
        self, ref: IndexedDocument, inp: IndexedDocument, key: str, exact: list[tuple[str, str]],
        unsettled_docs: tuple[IndexedDocument, IndexedDocument],
        context_pairs: Callable[[list[CandidatePair]], list[CandidatePair]] | None = None,
    ) -> tuple[list[CandidatePair], list[Judgement], dict[str, Any]]:
        """The judged candidate pairs, from the store or computed: ``exact`` are the identical pairs,
        ``unsettled_docs`` the clauses of each side they leave (what retrieval ranks). Also returns
        how retrieval found them (see :attr:`ComparisonResult.retrieval`)."""
        cached = self.store.get_json("pairs", key)
        if cached is not None:
            try:
                return ([trusted(CandidatePair, p) for p in cached["candidates"]],
                        [trusted(Judgement, j) for j in cached["judgements"]], dict(cached["retrieval"]))
            except (KeyError, ValueError, TypeError):
                pass
        retrieval: dict[str, Any] = {"lexical_clauses": 0, "embedded_clauses": 0, "embedded": []}
        if self._judge_reads_vectors:
            _count_embedded(retrieval, [(side, c.id) for side, doc in enumerate((ref, inp)) for c in doc.clauses])
        retrieved = self._retrieve(ref, inp, unsettled_docs, retrieval)
        settled = settle_identical(retrieved, ref, inp, exact)
        to_judge = self._score(settled.to_judge, ref, inp)
        candidates = [*to_judge, *settled.candidates]
        context = self.document_context(ref, inp, context_pairs(candidates) if context_pairs else candidates)
        judgements = [*self._judge(to_judge, ref, inp, context), *settled.judgements]
        self.store.put_json("pairs", key, {
            "candidates": [c.model_dump(mode="json") for c in candidates],
            "judgements": [j.model_dump(mode="json") for j in judgements],
            "retrieval": retrieval,
        })
        return candidates, judgements, retrieval

    def _retrieve(self, ref: IndexedDocument, inp: IndexedDocument, unsettled_docs: tuple[IndexedDocument, IndexedDocument],
                  retrieval: dict[str, Any]) -> list[CandidatePair]:
        """Candidate pairs among the unsettled clauses of both sides (``unsettled_docs``).

        When the retriever ranks by vectors, it first pairs what needs none (:meth:`Retriever.settle`,
        e.g. clear lexical matches, read against the whole documents ``ref`` and ``inp``); only the
        clauses left open are embedded and ranked. ``retrieval`` counts both.
        """
        retriever = self._ready("retriever")
        open_ref, open_inp = unsettled_docs
        if not open_ref.clauses or not open_inp.clauses:
            return []
        settled: list[CandidatePair] = []
        self.progress("retrieve", 0, 1)
        if retriever.needs_vectors and self.embedder is not None:
            positions = (_positions(ref, open_ref), _positions(inp, open_inp))
            settlement = retriever.settle(_plain(ref), _plain(inp), positions)
            if settlement is not None:
                settled = settlement.candidates
                still_open = len(settlement.open_reference) + len(settlement.open_input)
                retrieval["lexical_clauses"] += len(positions[0]) + len(positions[1]) - still_open
                open_ref, open_inp = _subset(ref, settlement.open_reference), _subset(inp, settlement.open_input)
            if not open_ref.clauses or not open_inp.clauses:
                self.progress("retrieve", 1, 1)
                return settled
            _count_embedded(retrieval, [(side, c.id) for side, doc in enumerate((open_ref, open_inp)) for c in doc.clauses])
            vectors = self._embed([c.text for c in open_ref.clauses] + [c.text for c in open_inp.clauses])
            open_ref = open_ref.model_copy(update={"vectors": vectors[: len(open_ref.clauses)]})
            open_inp = open_inp.model_copy(update={"vectors": vectors[len(open_ref.clauses):]})
        retrieved = retriever.retrieve(open_ref, open_inp)
        self.progress("retrieve", 1, 1)
        return [*settled, *retrieved]

    def _score(self, candidates: list[CandidatePair], ref: IndexedDocument, inp: IndexedDocument) -> list[CandidatePair]:
        if self.scorer is None or not candidates:
            return candidates
        scorer = self._ready("scorer")
        self.progress("score", 0, len(candidates))
        texts = [(ref.clause(c.reference_id).text, inp.clause(c.input_id).text) for c in candidates]
        scores = scorer.score(texts)
        self.progress("score", len(candidates), len(candidates))
        if len(scores) != len(candidates):
            raise BackendError(f"scorer {self.scorer.name!r} returned {len(scores)} scores for {len(candidates)} pairs")
        return [
            c.model_copy(update={"relevance": float(s), "signals": {**c.signals, f"scorer:{self.scorer.name}": float(s)}})
            for c, s in zip(candidates, scores)
        ]

    def document_context(self, ref: IndexedDocument, inp: IndexedDocument, candidates: list[CandidatePair]) -> DocumentContext:
        """The facts read from both whole documents (renames, aliases), once per document pair."""
        key = (ref.document.sha256, inp.document.sha256, len(ref.clauses), len(inp.clauses))
        if self._last_context is None or self._last_context[0] != key:
            self.progress("context", 0, 1)
            self._last_context = (key, build_context(ref, inp, candidates, self._language))
            self.progress("context", 1, 1)
        return self._last_context[1]

    @property
    def _language(self) -> str:
        return self.pack.language if self.pack is not None else load().language

    def _use_language(self, pack: LanguagePack) -> None:
        """Hand every stage that reads words the pack (its fingerprint keys their cached work)."""
        self.pack = pack
        for component in self.components.values():
            if component is not None:
                component.use_language(pack)

    def detect_language(self, *texts: str) -> None:
        """``language: auto``: use the pack the texts are written in (:func:`conflictkit.lexicon.detect`);
        with a fixed language, nothing. A comparison calls it; a caller that segments texts itself
        (a playbook review) calls it first."""
        if self.config.language == AUTO:
            code = detect(list(texts))
            if self.pack is None or self.pack.language != code:
                self._use_language(load(code))

    def _judge(self, candidates: list[CandidatePair], ref: IndexedDocument, inp: IndexedDocument,
               context: DocumentContext | None = None) -> list[Judgement]:
        if not candidates:
            return []
        judge = self._ready("judge")
        self.progress("judge", 0, len(candidates))
        comparison = Comparison(reference=ref, input=inp, context=context if context is not None else EMPTY,
                                progress=self.progress)
        judgements = judge.judge(candidates, comparison)
        self.progress("judge", len(candidates), len(candidates))
        if len(judgements) != len(candidates):
            raise BackendError(f"judge {self.judge.name!r} returned {len(judgements)} judgements for {len(candidates)} pairs")
        return judgements

    def _finish(
        self, ref: IndexedDocument, inp: IndexedDocument, candidates: list[CandidatePair],
        judgements: list[Judgement], config: Config,
        run_judgements: dict[tuple[tuple[str, ...], tuple[str, ...]], Judgement] | None = None,
        retrieval: dict[str, Any] | None = None,
    ) -> ComparisonResult:
        thresholds = config.thresholds
        run_judgements = {} if run_judgements is None else run_judgements
        retrieval = {**(retrieval or {}), "embedded": list((retrieval or {}).get("embedded", []))}

        def judge_runs(runs: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> list[Judgement]:
            todo = [run for run in dict.fromkeys(runs) if run not in run_judgements]
            if todo:
                context = self.document_context(ref, inp, candidates)
                run_judgements.update(zip(todo, self.judge_runs(todo, ref, inp, context, retrieval)))
            return [run_judgements[run] for run in runs]

        alignment = align(ref, inp, judgements, config.alignment.options(thresholds), judge_runs)
        findings = build_findings(alignment, ref, inp, self.pack)
        checked = ground_findings(findings, ref, inp)
        severity = table_of_config(config, self._language)
        findings = assess_findings(findings, severity, ref, inp)
        report = build_report(ref, inp, findings, alignment, candidates, judgements, checked, thresholds.model_dump())
        report["alignment"] = config.alignment.model_dump()
        report["materiality"] = severity.describe()
        report["summary"].update({k: v for k, v in retrieval.items() if k in ("lexical_clauses", "embedded_clauses")})
        pairs = build_pairs(candidates, judgements, alignment)
        return ComparisonResult(
            report=report, pairs=pairs, params=self.params(config), reference=ref, input=inp,
            judgements=judgements, candidates=candidates, run_judgements=run_judgements, retrieval=retrieval,
        )

    def judge_runs(
        self, runs: list[tuple[tuple[str, ...], tuple[str, ...]]], ref: IndexedDocument, inp: IndexedDocument,
        context: DocumentContext | None = None, retrieval: dict[str, Any] | None = None,
    ) -> list[Judgement]:
        """Judge each (reference run, input run) on the runs' concatenated texts, in one batch.

        A run becomes one synthetic clause (id ``a+b``, the hull as its span, the mean of its
        vectors) appended to a copy of its document, so any judge sees it as an ordinary clause.
        Clauses embedded for it are counted in ``retrieval`` when one is given.
        """
        if not runs:
            return []
        retrieval = {} if retrieval is None else retrieval
        ref_ext = _with_runs(ref, [r for r, _ in runs])
        inp_ext = _with_runs(inp, [i for _, i in runs])
        similarities = self._run_similarities(runs, ref, inp, retrieval)
        candidates = []
        for (ref_ids, inp_ids), similarity in zip(runs, similarities, strict=True):
            a, b = "+".join(ref_ids), "+".join(inp_ids)
            candidates.append(CandidatePair.model_construct(
                reference_id=a, input_id=b, similarity=similarity,
                relevance=max(0.0, min(1.0, similarity if similarity is not None else 1.0)),
                signals={"cosine": similarity} if similarity is not None else {},
            ))
        return self._judge(self._score(candidates, ref_ext, inp_ext), ref_ext, inp_ext, context)

    def _run_similarities(
        self, runs: list[tuple[tuple[str, ...], tuple[str, ...]]], ref: IndexedDocument, inp: IndexedDocument,
        retrieval: dict[str, Any],
    ) -> list[float | None]:
        """Cosine of the mean vectors of each (reference run, input run); None without an embedder.

        Documents compared without vectors (the judge reads none) get their members' vectors from
        the per-text cache, embedding what it lacks (counted in ``retrieval``): a run's members are
        often clauses retrieval embedded already.
        """
        if self.embedder is None:
            return [None] * len(runs)
        documents = (ref, inp)
        members = dict.fromkeys((side, cid) for run in runs for side in (0, 1) for cid in run[side]
                                if documents[side].vectors is None)  # ordered: the same batches every run
        fresh = dict(zip(members, self._embed([documents[side].clause(cid).text for side, cid in members]))) if members else {}
        _count_embedded(retrieval, [(side, cid) for side, cid in members])

        def vector(side: int, cid: str) -> np.ndarray:
            indexed = documents[side]
            return fresh[(side, cid)] if indexed.vectors is None else indexed.vectors[indexed.position(cid)]

        def mean(side: int, ids: tuple[str, ...]) -> np.ndarray:
            if len(ids) == 1:
                return vector(side, ids[0])
            total = np.mean([vector(side, cid) for cid in ids], axis=0)
            return total / (np.linalg.norm(total) or 1.0)

        return [float(mean(0, a) @ mean(1, b)) for a, b in runs]

    def _finish_cached(
        self, ref: IndexedDocument, inp: IndexedDocument, candidates: list[CandidatePair], judgements: list[Judgement],
        pairs_key: str, retrieval: dict[str, Any],
    ) -> ComparisonResult:
        """The finished report, reused when the same files were compared under the same config.

        The key holds the original files' hashes (spans index the original text, not the
        normalized one) and the thresholds; a saved report was grounded when it was made.
        """
        key = key_of("report", self.code_key, ref.document.sha256, inp.document.sha256, pairs_key,
                     self.config.thresholds.model_dump(), self.config.alignment.model_dump(),
                     table_of_config(self.config, self._language).fingerprint)
        cached = self.store.get_json("report", key)
        if cached is not None and {"report", "pairs"} <= set(cached):
            for side, document in (("reference", ref.document), ("input", inp.document)):
                cached["report"][side]["path"] = document.path  # a renamed file hits the same entry
                cached["report"][side]["source"] = document.source.summary() if document.source else None
            return ComparisonResult(
                report=cached["report"], pairs=cached["pairs"], params=self.params(self.config), reference=ref,
                input=inp, judgements=judgements, candidates=candidates, retrieval=retrieval,
            )
        result = self._finish(ref, inp, candidates, judgements, self.config, retrieval=retrieval)
        self.store.put_json("report", key, {"report": result.report, "pairs": result.pairs})
        return result

    def repartition(self, result: ComparisonResult, config: Config) -> ComparisonResult:
        """Recompute the findings of a finished comparison under other thresholds, without any model."""
        redone = self._finish(result.reference, result.input, result.candidates, result.judgements, config,
                              result.run_judgements, result.retrieval)
        redone.timings = result.timings
        return redone

    def judge_texts(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        """Judge clause pairs given as texts (benchmarks): each pair is one candidate, no retrieval."""
        if not pairs:
            return []
        self.detect_language(*(text for pair in pairs for text in pair))
        ref = self._clauses_document([a for a, _ in pairs], "reference")
        inp = self._clauses_document([b for _, b in pairs], "input")
        candidates = []
        for i in range(len(pairs)):
            similarity = None
            if ref.vectors is not None and inp.vectors is not None:
                similarity = float(ref.vectors[i] @ inp.vectors[i])
            candidates.append(CandidatePair(
                reference_id=ref.clauses[i].id, input_id=inp.clauses[i].id, similarity=similarity,
                relevance=max(0.0, min(1.0, similarity if similarity is not None else 1.0)),
                signals={"cosine": similarity} if similarity is not None else {},
            ))
        candidates = self._score(candidates, ref, inp)
        return self._judge(candidates, ref, inp)

    def _clauses_document(self, texts: list[str], name: str) -> IndexedDocument:
        """One clause per text, as if each text were a whole clause of a document."""
        from conflictkit.normalize import flat

        joined = "\n\n".join(texts)
        document = document_from_text(joined, name)
        clauses, pos = [], 0
        for i, text in enumerate(texts):
            clauses.append(Clause(id=f"c{i + 1:05d}", text=flat(text), span=Span(start=pos, end=pos + len(text)), order=i))
            pos += len(text) + 2
        return IndexedDocument(document=document, clauses=clauses, vectors=self._vectors_of(clauses))

    # -- provenance -----------------------------------------------------------------------------

    def params(self, config: Config | None = None) -> dict[str, Any]:
        """params.json: the resolved config, every backend with its package version, and usage."""
        config = config or self.config
        backends = {}
        usage = {}
        for stage, component in self.components.items():
            if component is None:
                continue
            info = self.registry.get(stage, component.name)  # type: ignore[arg-type]
            backends[stage] = {
                **component.describe(),
                "fingerprint": component.fingerprint,
                "package": info.package,
                "package_version": self.registry.version_of(info.package),
            }
            if component.usage():
                usage[stage] = component.usage()
        return {
            "schema": PARAMS_SCHEMA,
            "conflictkit_version": __version__,
            "pipeline_version": PIPELINE_VERSION,
            "config": config_data(config),
            "config_yaml": dump_config(config),
            "language": self._language,
            "backends": backends,
            "usage": usage,
        }


def _clauses_to_cache(clauses: list[Clause], document: Document) -> dict:
    """Clauses with spans in normalized coordinates: the cache key is the normalized text, and the
    same normalized text can come from files with other typography (CRLF, NBSP, curly quotes)."""
    rows = []
    for c in clauses:
        start = int(np.searchsorted(document.offsets, c.span.start, side="left"))
        end = int(np.searchsorted(document.offsets, c.span.end, side="left"))
        rows.append({**c.model_dump(mode="json", exclude={"span"}), "normalized_span": [start, end]})
    return {"clauses": rows}


def _clauses_from_cache(cached: dict, document: Document) -> list[Clause]:
    clauses = []
    for row in cached["clauses"]:
        start, end = row.pop("normalized_span")
        clauses.append(trusted(Clause, {**row, "span": document.to_original(start, end).model_dump()}))
    return clauses


def _count_embedded(retrieval: dict[str, Any], clauses: list[tuple[int, str]]) -> None:
    """Add the clauses ([side, id]) that needed a vector to ``retrieval``, each once."""
    seen = {tuple(c) for c in retrieval.setdefault("embedded", [])}
    fresh = [[side, cid] for side, cid in dict.fromkeys(clauses) if (side, cid) not in seen]
    retrieval["embedded"].extend(fresh)
    retrieval["embedded_clauses"] = retrieval.get("embedded_clauses", 0) + len(fresh)


def _subset(document: IndexedDocument, positions: list[int]) -> IndexedDocument:
    """The clauses of ``document`` at ``positions`` (no vectors)."""
    return IndexedDocument(document=document.document, clauses=[document.clauses[i] for i in positions])


def _plain(document: IndexedDocument) -> IndexedDocument:
    """``document`` without vectors: what a retriever's lexical pass is given."""
    return document if document.vectors is None else IndexedDocument(document=document.document, clauses=document.clauses)


def _positions(document: IndexedDocument, part: IndexedDocument) -> list[int]:
    """Positions in ``document`` of the clauses of ``part`` (a subset of it)."""
    return [document.position(c.id) for c in part.clauses]


def _with_runs(document: IndexedDocument, runs: list[tuple[str, ...]]) -> IndexedDocument:
    """A copy of ``document`` with one clause appended per distinct run of several clauses."""
    extra: list[Clause] = []
    rows = []
    for ids in dict.fromkeys(run for run in runs if len(run) > 1):
        members = [document.clause(cid) for cid in ids]
        first = members[0]
        extra.append(first.model_copy(update={
            "id": "+".join(ids), "text": " ".join(c.text for c in members),
            "span": Span(start=first.span.start, end=max(c.span.end for c in members)),
        }))
        if document.vectors is not None:
            mean = document.vectors[[document.position(cid) for cid in ids]].mean(axis=0)
            rows.append(mean / (np.linalg.norm(mean) or 1.0))
    vectors = document.vectors
    if vectors is not None and rows:
        vectors = np.vstack([vectors, np.asarray(rows, dtype=vectors.dtype)])
    return IndexedDocument(document=document.document, clauses=[*document.clauses, *extra], vectors=vectors)
