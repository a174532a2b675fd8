"""conflictkit embedder backend on sentence-transformers.

The embedder module is imported on first use of ``SentenceTransformersEmbedder`` (not when the
plugin loads), so commands that never embed pay nothing for it.
"""

__all__ = ["SentenceTransformersEmbedder"]


def __getattr__(name: str):
    if name == "SentenceTransformersEmbedder":
        from conflictkit_sentence_transformers.embedder import SentenceTransformersEmbedder

        return SentenceTransformersEmbedder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
