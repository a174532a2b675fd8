"""The pages of ``conflictkit serve``, built from ``templates/page.html``; every value is escaped here."""

from __future__ import annotations

import time
from pathlib import Path

from conflictkit.loaders import accepted_extensions
from conflictkit.report.html import esc, fill, render_summary, render_view, view_title
from conflictkit.web.jobs import Job
from conflictkit.web.playbooks import is_review
from conflictkit.web.reviews import Comparison, Summary

TEMPLATES = Path(__file__).resolve().parent / "templates"


def page(title: str, main: str, *, header: str = "", head: str = "", body_class: str = "") -> str:
    """A full page around ``main`` (already HTML); ``title`` is text."""
    template = (TEMPLATES / "page.html").read_text(encoding="utf-8")
    return fill(template, {"title": esc(title), "main": main, "header": header, "head": head, "body_class": esc(body_class)})


def _when(timestamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(timestamp))


def home(presets: list[tuple[str, str]], comparisons: list[Summary], max_bytes: int, error: str | None = None,
         unavailable: dict[str, str] | None = None) -> str:
    """The upload form (documents and the presets that can run here) and the list of past comparisons."""
    alert = f'<p class="error" role="alert" id="error">{esc(error)}</p>' if error else ""
    options = "".join(f'<option value="{esc(key)}">{esc(label)}</option>' for key, label in presets)
    if unavailable:
        options += '<optgroup label="cannot run on this server">' + "".join(
            f'<option disabled title="{esc(why)}">{esc(name)}: {esc(needs(why))}</option>' for name, why in sorted(unavailable.items())
        ) + "</optgroup>"
    missing = "".join(f'<li><b>{esc(name)}</b> {esc(needs(why))}</li>' for name, why in sorted((unavailable or {}).items()))
    extensions = accepted_extensions()
    accept = esc(",".join(extensions))
    form = (
        f'<form class="upload" method="post" action="/compare" enctype="multipart/form-data" data-max-bytes="{max_bytes}">'
        f'<label class="drop">Reference document (template, previous version) or playbook (.yaml) '
        f'<input type="file" name="reference" accept="{accept},.yaml,.yml" required>'
        '<span class="drop-hint">or drop a file here</span></label>'
        '<label class="drop">Input document (the draft under review; several, or a .zip of them, for a batch) '
        f'<input type="file" name="input" accept="{accept},.zip" multiple required><span class="drop-hint">or drop files here</span></label>'
        f'<label>Configuration <select name="config">{options}</select></label>'
        + (f'<details class="unavailable"><summary>{len(unavailable or {})} more cannot run on this server</summary>'
           f'<ul>{missing}</ul></details>' if missing else "")
        + f'<p class="hint">{esc(", ".join(extensions))} files; up to {max_bytes / 1e6:g} MB per upload. '
        'A playbook (.yaml) as the reference gives a verdict per position instead (it must hold its texts: '
        '<code>conflictkit playbook show P.yaml --format yaml</code> writes them out). '
        'The comparison shows the text as read from each file.</p>'
        '<button type="submit">Compare</button> <span class="busy" hidden>Checking the configuration…</span></form>'
    )
    rows = "".join(
        f'<tr data-cid="{esc(c.id)}"><td><a class="title" href="/comparisons/{esc(c.id)}">{esc(c.name)}</a>'
        '<span class="row-error error" role="alert" hidden></span></td>'
        f"<td>{esc(_when(c.created))}</td>"
        + _counts(c.counts)
        + f'<td class="num">{c.decided}</td>'
        '<td class="manage"><button type="button" data-manage="rename">Rename</button> '
        '<button type="button" data-manage="delete">Delete</button></td></tr>'
        for c in comparisons
    )
    past = (
        '<table class="past"><thead><tr><th>Comparison</th><th>Created</th><th>Deviations</th><th>Missing</th>'
        f"<th>Added</th><th>Reviewed</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        if comparisons else '<p class="empty">No comparisons yet.</p>'
    )
    main = f'<section class="card"><h2>New comparison</h2>{alert}{form}</section><section class="card"><h2>Past comparisons</h2>{past}</section>'
    return page("Compare two documents", main, body_class="home")


NEEDS_CHARS = 110


def needs(why: str) -> str:
    """What an unavailable configuration needs, in one short line (the full reason goes in a title)."""
    line = " ".join(str(why).split())
    for prefix in ("this configuration cannot run on this server: ",):
        line = line.removeprefix(prefix)
    if line.startswith("invalid config ") and "): " in line:  # a preset that does not validate: its first problem
        line = line.split("): ", 1)[1].split("; ")[0]
    line = line.split("; available")[0]
    return line if len(line) <= NEEDS_CHARS else line[: NEEDS_CHARS - 1].rstrip() + "…"


def _counts(summary: dict) -> str:
    """A past comparison's deviations, missing and added; a playbook review's verdicts across those three columns."""
    if "not-acceptable" in summary:
        verdicts = f"{summary['not-acceptable']} not acceptable, {summary.get('missing', 0)} missing, {summary.get('fallback', 0)} fallback"
        return f'<td colspan="3" class="num">playbook review: {esc(verdicts)}</td>'
    return "".join(f'<td class="num">{esc(summary.get(k, 0))}</td>' for k in ("deviation", "missing", "added"))


def job_page(job: Job) -> str:
    """Progress of a running comparison (polled by app.js), or the error of a failed one."""
    failed = job.state == "failed"
    error = f'<p class="error" role="alert" id="error">{esc(job.error)}</p>' if failed else '<p class="error" role="alert" id="error" hidden></p>'
    progress = "" if failed else (
        f'<p><span id="stage">{esc(job.progress_text())}</span> <progress id="progress" max="1" value="0"></progress></p>'
        '<noscript><p>Reload this page to see progress.</p></noscript>'
    )
    main = (
        f'<section class="card job" data-job="{esc(job.id)}" data-state="{esc(job.state)}">'
        f"<h2>{esc(view_title(job.reference_name, job.input_name))}</h2>{progress}{error}"
        '<p><a href="/">Back to the start page</a></p></section>'
    )
    return page("Comparison failed" if failed else "Comparing…", main, body_class="job-page")


def batch_page(batch_id: str, jobs: list[Job], portfolio: str = "") -> str:
    """Every document of a batch upload with its state, each done one linked to its review (app.js polls), then the
    portfolio (``portfolio``, already HTML: :func:`conflictkit.batch.portfolio.render_portfolio`)."""
    rows = "".join(
        f'<tr data-job-row="{esc(j.id)}"><td>{_job_link(j)}</td><td class="state">{esc(_job_state(j))}</td></tr>'
        for j in jobs
    )
    done = sum(j.state == "done" for j in jobs)
    finished = sum(j.state in ("done", "failed") for j in jobs)
    main = (
        f'<section class="card batch" data-batch="{esc(batch_id)}" data-finished="{finished}"><h2>{esc(jobs[0].reference_name)} → '
        f'{len(jobs)} documents</h2><p id="batch-count">{done} of {len(jobs)} compared</p>'
        f'<table class="past"><thead><tr><th>Document</th><th>State</th></tr></thead><tbody>{rows}</tbody></table>'
        '<p><a href="/">Back to the start page</a></p></section>'
        f'<section class="card wide"><h2>What to act on first</h2>{portfolio}</section>'
    )
    return page("Batch", main, body_class="batch-page", head='<link rel="stylesheet" href="/static/portfolio.css">')


def _job_link(job: Job) -> str:
    if job.state == "done" and job.comparison:
        return f'<a href="/comparisons/{esc(job.comparison)}">{esc(job.input_name)}</a>'
    return esc(job.input_name)


def _job_state(job: Job) -> str:
    if job.state == "failed":
        return f"failed: {job.error}"
    if job.state == "running":
        return job.progress_text()
    return job.state + (" (resumed after a restart)" if job.interrupted and job.state == "queued" else "")


def results_page(comparison: Comparison, decisions: dict) -> str:
    """Both documents side by side with the findings, review controls and export links."""
    report = comparison.report
    exports = " ".join(
        f'<a href="/comparisons/{comparison.id}/export.{ext}" download>{label}</a>'
        for ext, label in (("json", "JSON"), ("md", "Markdown"), ("html", "HTML"))
    )
    if is_review(report):
        from conflictkit.playbook.html import render_review_summary, render_review_view

        summary = render_review_summary(report)
        view = render_review_view(report, comparison.reference_text, comparison.input_text, decisions, controls=True)
    else:
        summary = render_summary(report)
        view = render_view(report, comparison.reference_text, comparison.input_text, decisions, review="server")
    header = (
        f'{summary}<p class="exports">Created {esc(_when(comparison.created))} · Export review: {exports}'
        ' · <label class="import">Import review <input type="file" id="ck-import" accept=".json,application/json"></label>'
        '<span id="ck-import-result" role="status"></span></p>'
    )
    main = f'<div class="results" data-comparison="{comparison.id}">{view}</div>'
    return page(comparison.name, main, header=header, body_class="results-page")


def message_page(title: str, message: str) -> str:
    """A plain page for a missing comparison or a refused request."""
    main = f'<section class="card"><p class="error" role="alert" id="error">{esc(message)}</p><p><a href="/">Back to the start page</a></p></section>'
    return page(title, main)
