"""Registers the ``sentence-transformers`` embedder (entry point group ``conflictkit``)."""

from conflictkit import hookimpl


@hookimpl
def register_embedders(register):
    from conflictkit_sentence_transformers.embedder import SentenceTransformersEmbedder

    register(SentenceTransformersEmbedder)
