"""A deterministic hashing embedder: bag of word unigrams and bigrams hashed into a fixed space.

It needs no model, gives the same vector for the same text on every machine, and makes lexically
similar clauses close: the embedder for tests and for machines where no model can be installed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import ClassVar

import numpy as np
from pydantic import Field

from conflictkit.stages import Embedder, Options

_WORD = re.compile(r"[a-z0-9]+(?:['\-][a-z0-9]+)*")


class HashingOptions(Options):
    dimensions: int = Field(512, ge=16, le=65536, description="size of the hashed vector space")
    bigrams: bool = Field(True, description="also hash pairs of adjacent words")


def _bucket(token: str, dimensions: int) -> tuple[int, float]:
    digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dimensions, 1.0 if (value >> 63) & 1 else -1.0


class HashingEmbedder(Embedder):
    """Signed feature hashing of lower-cased words (and bigrams), L2-normalized."""

    name: ClassVar[str] = "hashing"
    Options: ClassVar[type[Options]] = HashingOptions

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        dims = self.options.dimensions
        out = np.zeros((len(texts), dims), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            features = words + ([f"{a} {b}" for a, b in zip(words, words[1:])] if self.options.bigrams else [])
            for feature in features:
                index, sign = _bucket(feature, dims)
                out[row, index] += sign
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms
