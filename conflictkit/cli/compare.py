"""``conflictkit compare``: the main job."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from conflictkit.errors import EXIT_FINDINGS, UserError

KINDS = ("deviation", "missing", "added", "moved")
# What people type for each kind: the plural, and the words the summary line uses.
KIND_ALIASES = {"deviation": "deviation", "deviations": "deviation", "missing": "missing", "added": "added",
                "addition": "added", "additions": "added", "moved": "moved", "move": "moved", "moves": "moved"}
STDIN = "-"


@dataclass(frozen=True)
class FailOn:
    """What ``--fail-on`` gates on: findings of ``kinds`` (any kind when empty) of at least ``severity``."""

    kinds: frozenset[str] = frozenset()
    severity: str | None = None

    def __bool__(self) -> bool:
        return bool(self.kinds or self.severity)

    def matches(self, finding: dict) -> bool:
        """Whether a finding (a report's, or a batch summary's digest of one) trips the gate."""
        from conflictkit.report.order import SEVERITIES, severity_rank

        if not self:
            return False
        if self.kinds and finding.get("kind") not in self.kinds:
            return False
        return self.severity is None or severity_rank(finding) <= SEVERITIES.index(self.severity)


def parse_fail_on(value: str | None) -> FailOn:
    """``deviations,missing`` -> those kinds; singular or plural; ``any`` means every kind; a severity
    (``high``, ``medium``, ``low``) gates on findings of at least that severity, of the kinds given if any."""
    from conflictkit.report.order import SEVERITIES

    if not value:
        return FailOn()
    words = {k.strip().lower() for k in value.split(",") if k.strip()}
    severities = sorted(words & set(SEVERITIES), key=SEVERITIES.index)
    words -= set(SEVERITIES)
    unknown = words - set(KIND_ALIASES) - {"any"}
    if unknown:
        raise click.BadParameter(
            f"unknown kind(s) or severity {', '.join(sorted(unknown))}; use any of {', '.join(KINDS)} (singular or "
            f"plural), 'any', or a severity ({', '.join(SEVERITIES)})", param_hint="'--fail-on'")
    if len(severities) > 1:
        raise click.BadParameter(f"give one severity, not {' and '.join(severities)}: {severities[-1]} already "
                                 f"includes every finding of {severities[0]} severity", param_hint="'--fail-on'")
    kinds = frozenset() if "any" in words else frozenset(KIND_ALIASES[w] for w in words)
    return FailOn(kinds if kinds or severities else frozenset(KINDS), severities[0] if severities else None)


def read_documents(reference: str, input: str, limits):
    """Both documents, either of them read from stdin when given as ``-``."""
    from conflictkit.loaders import read_document

    if reference == STDIN and input == STDIN:
        raise UserError("only one of REFERENCE and INPUT can be '-' (stdin)")
    if STDIN not in (reference, input):
        return None
    return tuple(read_stdin(limits) if path == STDIN else read_document(path, limits) for path in (reference, input))


def read_stdin(limits):
    """The document piped in on stdin (``-`` on the command line); refused when stdin is a terminal."""
    from conflictkit.loaders import document_from_bytes

    if sys.stdin.isatty():
        raise UserError("'-' reads a document from stdin, but stdin is a terminal; pipe the document in (e.g. < draft.md)")
    return document_from_bytes(sys.stdin.buffer.read(limits.max_document_bytes + 1), "<stdin>", limits)


class FormatOption(click.Option):
    """``--format``: its help lists the formats the installed renderers offer (read only when help is shown)."""

    def get_help_record(self, ctx):
        record = super().get_help_record(ctx)
        if record is None:
            return None
        try:
            from conflictkit.registry import get_registry

            names = get_registry().names("renderer")
        except Exception:  # a broken plugin must not break --help
            return record
        return record[0].replace("FORMAT", "|".join(names)), record[1]


@click.command()
@click.argument("reference", type=click.Path(dir_okay=True, readable=False, path_type=str, allow_dash=True), required=False)
@click.argument("input", type=click.Path(dir_okay=True, readable=False, path_type=str, allow_dash=True), required=False)
@click.option("--revisions", "revisions", metavar="FILE.docx",
              help="Compare a Word file's own original (tracked changes rejected) with its revised text (accepted), instead of two files.")
@click.option("--config", "-c", "config_path", metavar="FILE", help="YAML config or preset name (default: the offline preset).")
@click.option("--out", "-o", "out_dir", metavar="DIR", help="Write report.json, pairs.json, params.json and report.md into DIR, and the file of --format (report.html, redline.md, report.docx).")
@click.option("--format", "-f", "fmt", cls=FormatOption, metavar="FORMAT", default="text", show_default=True,
              help="What to print on stdout, or write with --out: text, json, md, redline (every change with its verdict); "
                   "html and docx (the input as a Word redline with tracked changes and a comment per finding) need --out.")
@click.option("--changes", type=click.Choice(["all", "findings"]), default="all", show_default=True,
              help="Redlines (docx, redline): every change, as Word's Compare shows them, or only the findings' edits (the rest accepted).")
@click.option("--fail-on", metavar="KINDS", help="Exit with code 3 when a finding of these kinds exists, e.g. deviations,missing "
              "(or 'any'); a severity (high, medium, low) gates on findings of at least that severity: 'high', 'missing,medium'.")
@click.option("--sort", type=click.Choice(["severity", "document", "kind"]), default="severity", show_default=True,
              help="The order findings are listed in (text, md, html, docx comments): by severity, then document order; "
                   "in document order; or by kind. Ids are the same in every order.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.option("--quiet", "-q", is_flag=True, help="Text output: print only the summary line.")
@click.option("--verbose", "-v", is_flag=True, help="Text output: every reason of each finding, its probabilities and judge.")
def compare(reference: str | None, input: str | None, revisions: str | None, config_path: str | None, out_dir: str | None,
            fmt: str, changes: str, fail_on: str | None, sort: str, no_cache: bool, quiet: bool, verbose: bool) -> int:
    """Compare INPUT against REFERENCE and report deviations, missing, added and moved clauses.

    REFERENCE is the template, playbook or previous version; INPUT is the document under review.
    Each is Markdown, plain text (UTF-8), HTML, or, with their plugins, Word (.docx) or PDF; either
    may be '-' to read it from stdin. A .docx with tracked changes is read with every change
    accepted (the report says so); --revisions FILE.docx compares its original with its revised text.

    Each finding shows its severity (high, medium, low: what changed and where, e.g. a duty reversed
    in the liability clauses, and the rule that set it), its section and lines in both files, the
    changed words in context ([-deleted-]{+inserted+} when not coloured) and its reasons; findings
    are listed by severity, then document order. P(conflict) is the judge's probability that the
    input changes the legal effect of the reference clause.

    With an explainer in the config (e.g. --config llm-cascade), the report is written to --out
    before any explanation is asked for, and rewritten as explanations arrive; findings the model
    could not explain are counted on stderr (add them later with `conflictkit explain DIR`).

    \b
    Exit codes: 0 done; 1 unexpected failure, or the explainer failed or explained no finding
                (the report is written without explanations); 2 usage, config or input error;
                3 a finding matched --fail-on.
    """
    from conflictkit import rerun
    from conflictkit.configfile import read_config
    from conflictkit.store import get_store

    gate = parse_fail_on(fail_on)
    if quiet and verbose:
        raise click.UsageError("--quiet and --verbose contradict each other; give one")
    if revisions and (reference or input):
        raise UserError("--revisions FILE.docx compares one file with itself: give no REFERENCE or INPUT with it")
    if not revisions and not (reference and input):
        raise UserError("give REFERENCE and INPUT, or --revisions FILE.docx (see 'conflictkit compare --help')")
    verbosity = -1 if quiet else 1 if verbose else 0
    data, source = read_config(config_path)
    failure = None
    # a re-run that only prints is answered before anything is built (conflictkit.rerun)
    key = None if no_cache or out_dir or revisions or STDIN in (reference, input) else rerun.rerun_key(data, [reference, input])
    saved = rerun.lookup(get_store(), key, (reference, input)) if key else None
    if saved is not None and fmt == "text" and verbosity < 0 and not sys.stdout.isatty():
        report = saved.report  # the summary line is all it prints: no renderer to load
        print_notes(report)
        print_summary(report)
    else:
        from conflictkit.registry import get_registry
        from conflictkit.stages import Rendering

        renderer = get_registry().renderer(fmt)  # an unknown format fails before any work, listing the installed ones
        if not renderer.printable and not out_dir:
            raise UserError(f"--format {fmt} writes {renderer.filename}: give --out DIR")
        if saved is not None:
            rendering = Rendering(saved.report, *saved.documents(), changes=changes, verbosity=verbosity, sort=sort)
        else:
            result, failure = run_comparison(data, source, reference, input, revisions, no_cache, out_dir, ("json", "md", fmt), changes)
            if failure is None and not (result.report.get("explainer") or {}).get("unexplained"):
                rerun.save(get_store(), key, result)  # a re-run asks again for the explanations that are missing
            rendering = Rendering.of_result(result, changes=changes, verbosity=verbosity, sort=sort)
            if out_dir:
                from conflictkit.report.writer import write_outputs

                # a subfolder where --out could not be swapped
                out_dir = str(write_outputs(result, out_dir, ("json", "md", fmt), changes, rendering)[0].parent)
        report = rendering.report
        print_notes(report)
        print_result(rendering, renderer, out_dir)
    if failure is not None:
        return failure
    if any(gate.matches(f) for f in report["findings"]):
        return EXIT_FINDINGS
    return 0


def run_comparison(data, source: str, reference: str | None, input: str | None, revisions: str | None, no_cache: bool,
                   out_dir: str | None = None, formats: tuple[str, ...] = ("json", "md"), changes: str = "all"):
    """Resolve the config and compare, showing progress on a terminal: ``(result, exit code of an explainer's
    failure or None)``. With an explainer and ``out_dir``, the findings are written there before any
    explanation is asked for, and again as explanations arrive."""
    from conflictkit.config import resolve
    from conflictkit.engine import Engine
    from conflictkit.progress import StepTimes, TerminalProgress
    from conflictkit.report.writer import write_outputs
    from conflictkit.store import get_store

    config = resolve(data, source)
    documents = None if revisions else read_documents(reference, input, config.limits)
    progress = TerminalProgress(step_times=StepTimes(None) if no_cache else None)  # --no-cache writes nothing
    write = (lambda done: write_outputs(done, out_dir, formats, changes)) if out_dir else None
    try:
        engine = Engine(config, store=get_store(enabled=not no_cache), progress=progress)
        if revisions:
            result = engine.compare_revisions(revisions, explain=False)
        else:
            result = (engine.compare(reference, input, explain=False) if documents is None
                      else engine.compare_documents(*documents, explain=False))
        if write and engine.explainer is not None:
            write(result)  # the findings are on disk before any explanation is asked for
        return result, explain_into(engine, result, write, progress)
    finally:
        progress.close()


def print_notes(report: dict) -> None:
    """What a reviewer should know about how each document was read, on stderr."""
    from conflictkit.report.escape import sanitize_controls

    for side in ("reference", "input"):
        for note in (report[side].get("source") or {}).get("notes", []):
            click.echo(f"conflictkit: note: {sanitize_controls(note)}", err=True)


def print_summary(report: dict) -> None:
    """The summary line alone: what ``-q`` prints when stdout is not a terminal."""
    from conflictkit.report.escape import sanitize_controls
    from conflictkit.report.summary import summary_line

    click.echo(sanitize_controls(summary_line(report)))


def explain_into(engine, result, write, progress=None) -> int | None:
    """Run the engine's explainer on ``result``, writing as explanations arrive; say what it could not do.

    Returns the exit code of a failure (the explainer raised, or explained none of the findings),
    or None. The report already written stays whatever happens.
    """
    from conflictkit.errors import EXIT_FAILURE, ConflictkitError

    if engine.explainer is None:
        return None
    try:
        engine.explain(result, write)
    except ConflictkitError as exc:
        if write:
            write(result)  # what arrived before the failure
        if progress is not None:
            progress.close()
        click.echo(f"conflictkit: error: explanations failed: {exc}", err=True)
        click.echo("conflictkit: the findings were written without them; `conflictkit explain DIR` adds them later", err=True)
        return exc.exit_code
    if progress is not None:
        progress.close()
    return EXIT_FAILURE if report_unexplained(result.report) else None


def report_unexplained(report: dict) -> bool:
    """Say on stderr how many findings an explainer left unexplained and why; True when it explained none."""
    info = report.get("explainer") or {}
    findings = len(report["findings"])
    missing = len(info.get("unexplained") or [])
    if not missing:
        return False
    why = "; ".join(f"{p['findings']} {p['problem']}" for p in info.get("problems") or [])
    click.echo(f"conflictkit: warning: {missing} of {findings} findings not explained by {info.get('model')}"
               + (f" ({why})" if why else ""), err=True)
    return missing == findings


def print_result(rendering, renderer, out_dir: str | None) -> None:
    """The report on stdout in the renderer's format (document text made harmless for a terminal), or
    where it was written for a format that only writes a file."""
    from conflictkit.report.escape import sanitize_controls

    if renderer.printable:
        renderer().print(rendering)
    else:
        click.echo(f"wrote {sanitize_controls(out_dir or '')}/{renderer.filename}", err=True)
