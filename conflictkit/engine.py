"""The engine: runs the configured pipeline on two documents and produces the report.

    load -> normalize -> segment -> filter -> embed -> retrieve -> [score] -> judge -> partition -> ground -> report

Stage outputs are cached in the :mod:`conflictkit.store`: a document's index (clauses and vectors)
by its normalized text and the segmenter/filter/embedder fingerprints; the judged pairs by both
indexes and the retriever/scorer/judge fingerprints. Thresholds are not part of any key, so a
run with only a threshold changed recomputes only the partition.
"""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

from conflictkit import PIPELINE_VERSION, __version__
from conflictkit.config import Config, config_data, dump_config
from conflictkit.errors import BackendError
from conflictkit.loaders import document_from_text, flag_non_operative, read_document
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Judgement, Span
from conflictkit.partition import partition
from conflictkit.progress import ProgressCallback, silent
from conflictkit.registry import Registry, get_registry
from conflictkit.report import PARAMS_SCHEMA
from conflictkit.report.build import build_findings, build_pairs, build_report, ground_findings
from conflictkit.stages import Comparison, Component, Embedder, Filter, Judge, Retriever, Scorer, Segmenter
from conflictkit.store import Store, key_of


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


def _vectors_to_bytes(vectors: np.ndarray | None) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, vectors if vectors is not None else np.zeros((0, 0), dtype=np.float32), allow_pickle=False)
    return buffer.getvalue()


def _vectors_from_bytes(data: bytes) -> np.ndarray | None:
    array = np.load(io.BytesIO(data), allow_pickle=False)
    return None if array.size == 0 and array.ndim == 2 and array.shape[1] == 0 else array


class Engine:
    """Builds the configured backends and compares documents with them.

    Construction validates and builds every backend (cheap); :meth:`warm_up` loads models once.
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
        self._warm = False

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

    def warm_up(self) -> None:
        """Give every backend the cache and load its models; idempotent."""
        if self._warm:
            return
        if getattr(self.retriever, "needs_vectors", False) and self.embedder is None:
            from conflictkit.errors import ConfigError

            raise ConfigError(f"retriever {self.retriever.name!r} needs clause vectors: configure pipeline.embedder")
        for component in self.components.values():
            if component is not None:
                component.use_store(self.store)
                component.warm_up()
        self._warm = True

    # -- indexing -------------------------------------------------------------------------------

    def _fingerprints(self, *stages: str) -> list[str | None]:
        return [c.fingerprint if (c := self.components[s]) is not None else None for s in stages]

    def index_key(self, document: Document) -> str:
        normalized_hash = hashlib.sha256(document.normalized.encode("utf-8")).hexdigest()
        # Non-operative parts (footnotes, running headers) flag clauses: the same text read from
        # a file without them must not share the entry.
        non_operative = [] if document.source is None else \
            [(b.start, b.end, b.role) for b in document.source.blocks if b.role != "body"]
        return key_of("index", PIPELINE_VERSION, normalized_hash, *self._fingerprints("segmenter", "filter", "embedder"),
                      *([non_operative] if non_operative else []))

    def index(self, document: Document) -> IndexedDocument:
        """Segment, filter and embed a document, or load that work from the cache."""
        key = self.index_key(document)
        cached = self.store.get_json("index", key)
        vectors_blob = self.store.get("index.vectors", key) if cached is not None else None
        if cached is not None and vectors_blob is not None:
            try:
                clauses = _clauses_from_cache(cached, document)
                return IndexedDocument(document=document, clauses=clauses, vectors=_vectors_from_bytes(vectors_blob))
            except (KeyError, ValueError, TypeError, IndexError):
                pass  # a corrupt entry is recomputed
        indexed = self._index_fresh(document)
        self.store.put_json("index", key, _clauses_to_cache(indexed.clauses, document))
        self.store.put("index.vectors", key, _vectors_to_bytes(indexed.vectors))
        return indexed

    def _index_fresh(self, document: Document) -> IndexedDocument:
        name = document.path
        self.progress("segment", 0, 1)
        clauses = self.segmenter.segment(document)
        self.progress("segment", 1, 1)
        if self.filter is not None and clauses:
            reasons = self.filter.flag(clauses)
            clauses = [
                c if reason is None or c.kind == "definition" else c.model_copy(update={"filtered": reason})
                for c, reason in zip(clauses, reasons, strict=True)
            ]
        clauses = flag_non_operative(clauses, document)
        vectors = None
        if self.embedder is not None and clauses:
            vectors = self._embed([c.text for c in clauses], name)
        return IndexedDocument(document=document, clauses=clauses, vectors=vectors)

    def _embed(self, texts: list[str], name: str) -> np.ndarray:
        batch = 256  # large enough for the embedder to sort by length and pad little; small enough to show progress
        parts = []
        for start in range(0, len(texts), batch):
            self.progress("embed", start, len(texts))
            parts.append(np.asarray(self.embedder.embed(texts[start : start + batch]), dtype=np.float32))
        self.progress("embed", len(texts), len(texts))
        vectors = np.concatenate(parts) if parts else np.zeros((0, 0), dtype=np.float32)
        if vectors.shape[0] != len(texts):
            raise BackendError(f"embedder {self.embedder.name!r} returned {vectors.shape[0]} vectors for {len(texts)} texts")
        return vectors

    # -- comparing ------------------------------------------------------------------------------

    def compare(self, reference_path: str, input_path: str) -> ComparisonResult:
        """Compare two files on disk."""
        limit = self.config.limits.max_document_bytes
        return self.compare_documents(read_document(reference_path, limit), read_document(input_path, limit))

    def compare_revisions(self, path: str) -> ComparisonResult:
        """Compare a file's own original (every tracked change rejected) with its revised text (all accepted)."""
        limit = self.config.limits.max_document_bytes
        original = read_document(path, limit, revision="original")
        revised = read_document(path, limit, revision="accepted")
        if original.normalized == revised.normalized and revised.source is not None:
            revised.source.notes.append(f"{path} has no tracked changes that change its text: original and revised are the same")
        return self.compare_documents(original.model_copy(update={"path": f"{path} (original)"}),
                                      revised.model_copy(update={"path": f"{path} (revised)"}))

    def compare_texts(
        self, reference_text: str, input_text: str, reference_name: str = "reference", input_name: str = "input"
    ) -> ComparisonResult:
        """Compare two texts already in memory (uploads, tests)."""
        return self.compare_documents(document_from_text(reference_text, reference_name), document_from_text(input_text, input_name))

    def compare_documents(self, reference: Document, input: Document) -> ComparisonResult:
        self.warm_up()
        timings: dict[str, float] = {}
        started = time.perf_counter()
        ref = self.index(reference)
        inp = self.index(input)
        timings["index"] = time.perf_counter() - started
        t = time.perf_counter()
        pairs_key = self._pairs_key(ref, inp)
        candidates, judgements = self._judged_pairs(ref, inp, pairs_key)
        timings["judge"] = time.perf_counter() - t
        t = time.perf_counter()
        result = self._finish_cached(ref, inp, candidates, judgements, pairs_key)
        timings["report"] = time.perf_counter() - t
        timings["total"] = time.perf_counter() - started
        result.timings = timings
        result.params["timings"] = {k: round(v, 4) for k, v in timings.items()}
        return result

    def _pairs_key(self, ref: IndexedDocument, inp: IndexedDocument) -> str:
        return key_of("pairs", PIPELINE_VERSION, self.index_key(ref.document), self.index_key(inp.document),
                      *self._fingerprints("retriever", "scorer", "judge"))

    def _judged_pairs(
        self, ref: IndexedDocument, inp: IndexedDocument, key: str,
    ) -> tuple[list[CandidatePair], list[Judgement]]:
        cached = self.store.get_json("pairs", key)
        if cached is not None:
            try:
                return ([CandidatePair.model_validate(p) for p in cached["candidates"]],
                        [Judgement.model_validate(j) for j in cached["judgements"]])
            except (KeyError, ValueError, TypeError):
                pass
        self.progress("retrieve", 0, 1)
        candidates = self.retriever.retrieve(ref, inp)
        self.progress("retrieve", 1, 1)
        candidates = self._score(candidates, ref, inp)
        judgements = self._judge(candidates, ref, inp)
        self.store.put_json("pairs", key, {
            "candidates": [c.model_dump(mode="json") for c in candidates],
            "judgements": [j.model_dump(mode="json") for j in judgements],
        })
        return candidates, judgements

    def _score(self, candidates: list[CandidatePair], ref: IndexedDocument, inp: IndexedDocument) -> list[CandidatePair]:
        if self.scorer is None or not candidates:
            return candidates
        self.progress("score", 0, len(candidates))
        texts = [(ref.clause(c.reference_id).text, inp.clause(c.input_id).text) for c in candidates]
        scores = self.scorer.score(texts)
        self.progress("score", len(candidates), len(candidates))
        if len(scores) != len(candidates):
            raise BackendError(f"scorer {self.scorer.name!r} returned {len(scores)} scores for {len(candidates)} pairs")
        return [
            c.model_copy(update={"relevance": float(s), "signals": {**c.signals, f"scorer:{self.scorer.name}": float(s)}})
            for c, s in zip(candidates, scores)
        ]

    def _judge(self, candidates: list[CandidatePair], ref: IndexedDocument, inp: IndexedDocument) -> list[Judgement]:
        if not candidates:
            return []
        self.progress("judge", 0, len(candidates))
        judgements = self.judge.judge(candidates, Comparison(reference=ref, input=inp))
        self.progress("judge", len(candidates), len(candidates))
        if len(judgements) != len(candidates):
            raise BackendError(f"judge {self.judge.name!r} returned {len(judgements)} judgements for {len(candidates)} pairs")
        return judgements

    def _finish(
        self, ref: IndexedDocument, inp: IndexedDocument, candidates: list[CandidatePair],
        judgements: list[Judgement], config: Config,
    ) -> ComparisonResult:
        thresholds = config.thresholds
        parts = partition(ref, inp, judgements, thresholds.same_matter, thresholds.conflict, thresholds.shared_margin)
        findings = build_findings(parts, ref, inp)
        checked = ground_findings(findings, ref, inp)
        report = build_report(ref, inp, findings, parts, candidates, judgements, checked, thresholds.model_dump())
        pairs = build_pairs(candidates, judgements, parts)
        return ComparisonResult(
            report=report, pairs=pairs, params=self.params(config), reference=ref, input=inp,
            judgements=judgements, candidates=candidates,
        )

    def _finish_cached(
        self, ref: IndexedDocument, inp: IndexedDocument, candidates: list[CandidatePair], judgements: list[Judgement],
        pairs_key: str,
    ) -> ComparisonResult:
        """The finished report, reused when the same files were compared under the same config.

        The key holds the original files' hashes (spans index the original text, not the
        normalized one) and the thresholds; a saved report was grounded when it was made.
        """
        key = key_of("report", PIPELINE_VERSION, ref.document.sha256, inp.document.sha256,
                     pairs_key, self.config.thresholds.model_dump())
        cached = self.store.get_json("report", key)
        if cached is not None and {"report", "pairs"} <= set(cached):
            for side, document in (("reference", ref.document), ("input", inp.document)):
                cached["report"][side]["path"] = document.path  # a renamed file hits the same entry
                cached["report"][side]["source"] = document.source.summary() if document.source else None
            return ComparisonResult(
                report=cached["report"], pairs=cached["pairs"], params=self.params(self.config), reference=ref,
                input=inp, judgements=judgements, candidates=candidates,
            )
        result = self._finish(ref, inp, candidates, judgements, self.config)
        self.store.put_json("report", key, {"report": result.report, "pairs": result.pairs})
        return result

    def repartition(self, result: ComparisonResult, config: Config) -> ComparisonResult:
        """Recompute the findings of a finished comparison under other thresholds, without any model."""
        redone = self._finish(result.reference, result.input, result.candidates, result.judgements, config)
        redone.timings = result.timings
        return redone

    def judge_texts(self, pairs: Sequence[tuple[str, str]]) -> list[Judgement]:
        """Judge clause pairs given as texts (benchmarks): each pair is one candidate, no retrieval."""
        self.warm_up()
        if not pairs:
            return []
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
        vectors = self._embed([c.text for c in clauses], name) if self.embedder is not None else None
        return IndexedDocument(document=document, clauses=clauses, vectors=vectors)

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
                "package_version": _version_of(info.package),
            }
            if component.usage():
                usage[stage] = component.usage()
        return {
            "schema": PARAMS_SCHEMA,
            "conflictkit_version": __version__,
            "pipeline_version": PIPELINE_VERSION,
            "config": config_data(config),
            "config_yaml": dump_config(config),
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
        clauses.append(Clause.model_validate({**row, "span": document.to_original(start, end).model_dump()}))
    return clauses


def _version_of(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None
