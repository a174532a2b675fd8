"""``conflictkit review --playbook P.yaml INPUT``: a verdict per playbook position."""

from __future__ import annotations

import json

import click

from conflictkit.errors import EXIT_FINDINGS, UserError

FAILABLE = ("not-acceptable", "missing", "fallback", "absent", "uncovered")
# What people type for each verdict ("not acceptable" needs quotes in a shell; the rest do not).
VERDICT_ALIASES = {
    "not-acceptable": "not-acceptable", "not acceptable": "not-acceptable", "not_acceptable": "not-acceptable",
    "unacceptable": "not-acceptable", "missing": "missing", "fallback": "fallback", "fallbacks": "fallback",
    "absent": "absent", "uncovered": "uncovered",
}


def parse_fail_on(value: str | None) -> set[str]:
    """``not-acceptable,missing`` -> {"not-acceptable", "missing"}; ``any`` is every verdict but standard and absent."""
    if not value:
        return set()
    words = {w.strip().lower() for w in value.split(",") if w.strip()}
    if "any" in words:
        return {"not-acceptable", "missing", "fallback"}
    unknown = words - set(VERDICT_ALIASES)
    if unknown:
        raise click.BadParameter(f"unknown verdict(s) {', '.join(sorted(unknown))}; use any of {', '.join(FAILABLE)} or 'any'",
                                 param_hint="'--fail-on'")
    return {VERDICT_ALIASES[w] for w in words}


def failed(review: dict, verdicts: set[str]) -> bool:
    """Whether the review holds a verdict (or, for ``uncovered``, an input clause no position covers) in ``verdicts``."""
    return any(p["verdict"] in verdicts for p in review["positions"]) or ("uncovered" in verdicts and bool(review["uncovered"]))


@click.command()
@click.argument("input", type=click.Path(dir_okay=True, path_type=str, allow_dash=True))
@click.option("--playbook", "-p", "playbook_path", required=True, metavar="P.yaml", help="The playbook to review against.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
@click.option("--out", "-o", "out_dir", metavar="DIR",
              help="Write review.json, review.md, playbook.md (the playbook as Markdown, which the review quotes) and params.json "
                   "into DIR (and review.html or review.docx with --format html or docx).")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json", "md", "html", "docx"]), default="text",
              show_default=True,
              help="What to print on stdout (html and docx are written to --out only: review.html; review.docx, the "
                   "conforming redline: the nearest accepted text proposed for each not-acceptable position as tracked "
                   "changes, the guidance as a comment; needs conflictkit-docx).")
@click.option("--fail-on", metavar="VERDICTS",
              help="Exit with code 3 when a position gets one of these verdicts, e.g. not-acceptable,missing "
                   "(also fallback, absent, uncovered; 'any': every verdict but standard and absent).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--quiet", "-q", is_flag=True, help="Text output: print only the summary line.")
@click.option("--verbose", "-v", is_flag=True, help="Text output: every position's evidence and probabilities, and the uncovered clauses.")
def review(input: str, playbook_path: str, config_path: str | None, out_dir: str | None, fmt: str, fail_on: str | None,
           no_cache: bool, quiet: bool, verbose: bool) -> int:
    """Review INPUT against a playbook: a verdict per position.

    Each position of the playbook gets a verdict: standard (the input says what the preferred
    text says), fallback N (what an accepted fallback says), not acceptable (neither, or a red
    line is hit: with the reasons, the words that do it, and the change from the nearest accepted
    text), missing (a required position with no clause in the input on its matter) or absent (an
    optional one).
    Input clauses no position covers are listed too. Every quote is checked against its document;
    each verdict comes with its probability.

    INPUT is Markdown, plain text, HTML, or with their plugins Word (.docx) or PDF; '-' reads stdin.
    'conflictkit playbook init TEMPLATE.md' starts a playbook from a template.

    \b
    Exit codes: 0 done; 1 unexpected failure; 2 usage, config, playbook or input error;
                3 a position matched --fail-on.
    """
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.playbook.load import load_playbook
    from conflictkit.playbook.review import review as run_review
    from conflictkit.progress import StepTimes, TerminalProgress
    from conflictkit.store import get_store

    verdicts = parse_fail_on(fail_on)
    if quiet and verbose:
        raise click.UsageError("--quiet and --verbose contradict each other; give one")
    if fmt in ("html", "docx") and not out_dir:
        raise UserError(f"--format {fmt} writes review.{fmt}: give --out DIR")
    config = load_config(config_path)
    progress = TerminalProgress(step_times=StepTimes(None) if no_cache else None)
    try:
        engine = Engine(config, store=get_store(enabled=not no_cache), progress=progress)
        playbook = load_playbook(playbook_path, engine.clauses)
        result = run_review(engine, playbook, _read_input(input, config.limits))
    finally:
        progress.close()
    if out_dir:
        from conflictkit.playbook.files import write_review

        write_review(result, out_dir, {fmt})
    _print(result, fmt, out_dir, verbosity=-1 if quiet else 1 if verbose else 0)
    return EXIT_FINDINGS if verdicts and failed(result.review, verdicts) else 0


def _read_input(path: str, limits):
    from conflictkit.cli.compare import STDIN, read_stdin
    from conflictkit.loaders import read_document

    return read_stdin(limits) if path == STDIN else read_document(path, limits)


def _print(result, fmt: str, out_dir: str | None, verbosity: int) -> None:
    """The review on stdout in ``fmt``; document text made harmless for a terminal first."""
    from conflictkit.report.escape import json_for_terminal, sanitize_controls

    texts = {"reference": result.rendered.text, "input": result.input.document.original}
    if fmt == "json":
        click.echo(json_for_terminal(json.dumps(result.review, indent=2, ensure_ascii=False)))
    elif fmt == "md":
        from conflictkit.playbook.render import render_review_markdown

        click.echo(sanitize_controls(render_review_markdown(result.review, texts)), nl=False)
    elif fmt == "text":
        from conflictkit.playbook.render import print_review
        from conflictkit.report.terminal import make_console

        print_review(make_console(), result.review, texts, verbosity=verbosity)
    else:
        click.echo(f"wrote {sanitize_controls(out_dir or '')}/review.{fmt}", err=True)
