"""Registers the Isaacus backends, one per stage, all named ``isaacus``."""

from __future__ import annotations

from conflictkit import hookimpl


@hookimpl
def register_segmenters(register):
    from conflictkit_isaacus.segmenter import IsaacusSegmenter

    register(IsaacusSegmenter)


@hookimpl
def register_filters(register):
    from conflictkit_isaacus.filter import IsaacusFilter

    register(IsaacusFilter)


@hookimpl
def register_embedders(register):
    from conflictkit_isaacus.embedder import IsaacusEmbedder

    register(IsaacusEmbedder)


@hookimpl
def register_scorers(register):
    from conflictkit_isaacus.scorer import IsaacusScorer

    register(IsaacusScorer)


@hookimpl
def register_judges(register):
    from conflictkit_isaacus.judge import IsaacusJudge

    register(IsaacusJudge)
