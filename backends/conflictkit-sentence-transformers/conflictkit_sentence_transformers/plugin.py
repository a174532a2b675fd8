"""Registers the ``sentence-transformers`` embedder (entry point group ``conflictkit``)."""

from conflictkit import hookimpl
from conflictkit_sentence_transformers.embedder import SentenceTransformersEmbedder


@hookimpl
def register_embedders(register):
    register(SentenceTransformersEmbedder)
