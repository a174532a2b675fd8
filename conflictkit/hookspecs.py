"""pluggy hook specifications. A plugin implements any of them and calls ``register`` once per backend.

Example plugin module::

    import conflictkit

    @conflictkit.hookimpl
    def register_judges(register):
        register(MyJudge)

and one line in its ``pyproject.toml``::

    [project.entry-points.conflictkit]
    my_judge = "my_package.plugin"
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("conflictkit")
hookimpl = pluggy.HookimplMarker("conflictkit")


@hookspec
def register_loaders(register):
    """Register :class:`conflictkit.stages.Loader` subclasses (one per file format)."""


@hookspec
def register_segmenters(register):
    """Register :class:`conflictkit.stages.Segmenter` subclasses."""


@hookspec
def register_filters(register):
    """Register :class:`conflictkit.stages.Filter` subclasses."""


@hookspec
def register_embedders(register):
    """Register :class:`conflictkit.stages.Embedder` subclasses."""


@hookspec
def register_retrievers(register):
    """Register :class:`conflictkit.stages.Retriever` subclasses."""


@hookspec
def register_scorers(register):
    """Register :class:`conflictkit.stages.Scorer` subclasses."""


@hookspec
def register_judges(register):
    """Register :class:`conflictkit.stages.Judge` subclasses."""


@hookspec
def register_explainers(register):
    """Register :class:`conflictkit.stages.Explainer` subclasses."""


@hookspec
def register_renderers(register):
    """Register :class:`conflictkit.stages.Renderer` subclasses (one per report format, ``--format NAME``)."""


@hookspec
def register_batch_engines(register):
    """Register :class:`conflictkit.batch.engines.BatchEngine` subclasses (``conflictkit batch --engine NAME``)."""


@hookspec
def register_families(register):
    """Register rule families of the legal-atoms judge (:class:`conflictkit.judges.atoms.family.Family`),
    one ``register(FAMILY)`` each; the built-in families (negation, modality, numbers...) come the same way."""


@hookspec
def register_commands(cli):
    """Add click commands to the ``conflictkit`` command group (e.g. ``models``)."""
