"""Registers the ``nli`` judge, the ``cross-encoder`` scorer and the ``models`` command (entry point ``conflictkit``)."""

from __future__ import annotations

from conflictkit import hookimpl


@hookimpl
def register_judges(register):
    from conflictkit_nli.nli import NLIJudge

    register(NLIJudge)


@hookimpl
def register_scorers(register):
    from conflictkit_nli.scorer import CrossEncoderScorer

    register(CrossEncoderScorer)


@hookimpl
def register_commands(cli):
    from conflictkit_nli.cli import models

    cli.add_command(models)
