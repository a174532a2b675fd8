"""Registers the ``bm25`` and ``hybrid`` retrievers (entry point group ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl


@hookimpl
def register_retrievers(register):
    from conflictkit_bm25.bm25 import BM25Retriever
    from conflictkit_bm25.hybrid import HybridRetriever

    register(BM25Retriever)
    register(HybridRetriever)
