"""A deterministic fake embedder that counts its work, for tests of caching and lazy loading.

``CountingEmbedder`` (config name ``counting``) gives the hashing embedder's vectors and records
every warm-up and every text it was asked to embed, so a test can see what the engine loaded and
what it embedded. Register it for the length of a test with
:func:`conflictkit.testing.judges.registered`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import numpy as np

from conflictkit import hookimpl
from conflictkit.embedders.hashing import HashingEmbedder, HashingOptions
from conflictkit.stages import Embedder, Options


class CountingEmbedder(Embedder):
    """Hashing vectors; ``warm_ups`` counts warm-ups, ``embedded`` lists every text embedded."""

    name: ClassVar[str] = "counting"
    Options: ClassVar[type[Options]] = HashingOptions

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self._hashing = HashingEmbedder(self.options)
        self.warm_ups = 0
        self.embedded: list[str] = []

    def warm_up(self) -> None:
        self.warm_ups += 1
        super().warm_up()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not self._warm:
            raise RuntimeError("counting embedder used before warm_up()")
        self.embedded.extend(texts)
        return self._hashing.embed(texts)


@hookimpl
def register_embedders(register):
    register(CountingEmbedder)
