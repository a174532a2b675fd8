"""conflictkit-bm25: BM25 and hybrid (BM25 + cosine) clause retrievers for conflictkit.

``tokenize`` is imported on first use (not when the plugin loads).
"""

__all__ = ["tokenize"]


def __getattr__(name: str):
    if name == "tokenize":
        from conflictkit_bm25.tokenize import tokenize

        return tokenize
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
