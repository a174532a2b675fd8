"""The built-in backends, registered through the same hooks as any installed plugin's.

Each hook imports only its own stage's modules, when the registry first looks that stage up
(:class:`conflictkit.registry.Registry`): reading a file imports no judge, and ``--help`` no backend.
"""

from __future__ import annotations

from conflictkit.hookspecs import hookimpl


@hookimpl
def register_loaders(register):
    from conflictkit.formats.html import HtmlLoader
    from conflictkit.formats.text import MarkdownLoader, TextLoader

    register(TextLoader)
    register(MarkdownLoader)
    register(HtmlLoader)


@hookimpl
def register_segmenters(register):
    from conflictkit.segmenters.rules import RulesSegmenter

    register(RulesSegmenter)


@hookimpl
def register_filters(register):
    from conflictkit.filters.rules import RulesFilter

    register(RulesFilter)


@hookimpl
def register_embedders(register):
    from conflictkit.embedders.hashing import HashingEmbedder

    register(HashingEmbedder)


@hookimpl
def register_retrievers(register):
    from conflictkit.retrievers.cosine import CosineRetriever

    register(CosineRetriever)


@hookimpl
def register_judges(register):
    from conflictkit.bench.baselines import CosineOnlyJudge, LineDiffJudge
    from conflictkit.judges.atoms.judge import LegalAtomsJudge
    from conflictkit.judges.compose import CascadeJudge, WeightedJudge

    register(LegalAtomsJudge)
    register(CascadeJudge)
    register(WeightedJudge)
    register(CosineOnlyJudge)
    register(LineDiffJudge)


@hookimpl
def register_families(register):
    """The legal-atoms judge's built-in rule families (one module each), collected when the judge first asks."""
    from conflictkit.judges.atoms.family import builtin_families

    for family in builtin_families():
        register(family)


@hookimpl
def register_renderers(register):
    from conflictkit.report.renderers import HtmlRenderer, JsonRenderer, MarkdownRenderer, RedlineRenderer, TextRenderer

    for renderer in (TextRenderer, JsonRenderer, MarkdownRenderer, HtmlRenderer, RedlineRenderer):
        register(renderer)
