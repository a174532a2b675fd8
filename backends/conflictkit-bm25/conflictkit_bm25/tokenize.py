"""The BM25 tokenizer lives in the core (:mod:`conflictkit.retrievers.tokenize`); kept importable here."""

from conflictkit.retrievers.tokenize import tokenize

__all__ = ["tokenize"]
