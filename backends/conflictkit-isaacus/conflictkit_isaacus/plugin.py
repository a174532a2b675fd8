"""Registers the Isaacus backends, one per stage, all named ``isaacus``."""

from __future__ import annotations

from conflictkit import hookimpl

from conflictkit_isaacus.embedder import IsaacusEmbedder
from conflictkit_isaacus.filter import IsaacusFilter
from conflictkit_isaacus.judge import IsaacusJudge
from conflictkit_isaacus.scorer import IsaacusScorer
from conflictkit_isaacus.segmenter import IsaacusSegmenter


@hookimpl
def register_segmenters(register):
    register(IsaacusSegmenter)


@hookimpl
def register_filters(register):
    register(IsaacusFilter)


@hookimpl
def register_embedders(register):
    register(IsaacusEmbedder)


@hookimpl
def register_scorers(register):
    register(IsaacusScorer)


@hookimpl
def register_judges(register):
    register(IsaacusJudge)
