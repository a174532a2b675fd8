"""conflictkit-bm25: BM25 and hybrid (BM25 + cosine) clause retrievers for conflictkit."""

from conflictkit_bm25.tokenize import tokenize

__all__ = ["tokenize"]
