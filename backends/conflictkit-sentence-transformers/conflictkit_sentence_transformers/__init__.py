"""conflictkit embedder backend on sentence-transformers."""

from conflictkit_sentence_transformers.embedder import SentenceTransformersEmbedder

__all__ = ["SentenceTransformersEmbedder"]
