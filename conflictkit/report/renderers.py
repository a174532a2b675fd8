"""The report formats built into the core, registered like any plugin's (``register_renderers``, in
:mod:`conflictkit.plugins`).

``--format`` picks one by name; ``conflictkit backends`` lists every installed one. Each imports
its implementation only when it renders, so registering them costs a command nothing.
"""

from __future__ import annotations

from typing import ClassVar

from conflictkit.stages import Renderer, Rendering


class TextRenderer(Renderer):
    """The terminal view: each finding's places, changed words in context and reasons (colour on a terminal)."""

    name = "text"

    def render(self, rendering: Rendering) -> str:
        from conflictkit.report.terminal import render_text

        return render_text(rendering.report, rendering.texts, verbosity=rendering.verbosity, view=rendering.view)

    def print(self, rendering: Rendering) -> None:
        import sys

        if rendering.verbosity < 0 and not sys.stdout.isatty():  # -q on a pipe: the summary line, without rich
            import click

            from conflictkit.report.escape import sanitize_controls
            from conflictkit.report.summary import summary_line

            click.echo(sanitize_controls(summary_line(rendering.report)))
            return
        from conflictkit.report.terminal import make_console, print_report

        print_report(make_console(), rendering.report, rendering.texts, verbosity=rendering.verbosity, view=rendering.view)


class JsonRenderer(Renderer):
    """report.json (schema conflictkit.report/1): exact offsets and every field; always written with --out."""

    name = "json"

    def render(self, rendering: Rendering) -> str:
        from conflictkit.report.writer import to_json

        return to_json(rendering.report)

    def print(self, rendering: Rendering) -> None:
        import json

        import click

        from conflictkit.report.escape import json_for_terminal

        click.echo(json_for_terminal(json.dumps(rendering.report, indent=2, ensure_ascii=False)))


class MarkdownRenderer(Renderer):
    """report.md: a findings table, then each finding with its quotes, redline and reasons (CommonMark)."""

    name = "md"
    filename: ClassVar[str | None] = "report.md"

    def render(self, rendering: Rendering) -> str:
        from conflictkit.report.render import render_markdown

        return render_markdown(rendering.report, rendering.texts, view=rendering.view)


class HtmlRenderer(Renderer):
    """report.html: both documents formatted side by side, every finding highlighted; self-contained, offline."""

    name = "html"
    filename: ClassVar[str | None] = "report.html"
    printable: ClassVar[bool] = False

    def render(self, rendering: Rendering) -> str:
        from conflictkit.report.html import render_html

        return render_html(rendering.report, rendering.reference.original, rendering.input.original, view=rendering.view)


class RedlineRenderer(Renderer):
    """redline.md: every change of the input with a few words of context, its verdict and place (for e-mail or an LLM)."""

    name = "redline"
    filename: ClassVar[str | None] = "redline.md"

    def render(self, rendering: Rendering) -> str:
        from conflictkit.report.redline import render_redline_markdown

        return render_redline_markdown(rendering.view, rendering.changes)
