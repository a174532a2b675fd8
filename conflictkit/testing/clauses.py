"""Build small indexed documents from clause texts, without a segmenter: for tests of retrieval and judges.

``indexed_document(["The term is one year.", ...])`` lays the clauses one per line, gives each a
real span in the text, ids ``c1, c2...`` (or ``prefix1...``), and optional parents and kinds, so
retrievers and judges see exactly what the engine would hand them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from conflictkit.model import Clause, Document, IndexedDocument, Span


def document_of(text: str, path: str = "<test>") -> Document:
    """A Document whose normalized text is its original (no typography to fix)."""
    return Document(
        path=path,
        original=text,
        normalized=text,
        offsets=np.arange(len(text) + 1, dtype=np.int64),
        sha256=hashlib.sha256(text.encode()).hexdigest(),
    )


def indexed_document(
    texts: Sequence[str],
    prefix: str = "c",
    parents: Sequence[str | None] | None = None,
    kinds: Sequence[str] | None = None,
    embed: Callable[[Sequence[str]], np.ndarray] | None = None,
) -> IndexedDocument:
    """One clause per text, in order; ``parents[i]`` is the id of clause i's parent (or None)."""
    text = "\n".join(texts)
    clauses = []
    start = 0
    for i, clause_text in enumerate(texts):
        end = start + len(clause_text)
        clauses.append(
            Clause(
                id=f"{prefix}{i + 1}",
                text=clause_text,
                span=Span(start=start, end=end),
                kind=(kinds[i] if kinds else "clause"),
                parent=(parents[i] if parents else None),
                order=i,
            )
        )
        start = end + 1
    vectors = embed(list(texts)) if embed is not None else None
    return IndexedDocument(document=document_of(text), clauses=clauses, vectors=vectors)
