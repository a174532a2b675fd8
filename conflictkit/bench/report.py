"""Benchmark outputs: a Markdown table (configs x datasets), a JSON file with every number, PNG plots.

Everything is rendered in memory first and then written as one set (``write_set``: a staging
directory swapped in), so a failed run leaves the earlier results whole. matplotlib is imported only inside the
plotting functions (``pip install "conflictkit[bench]"``).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from conflictkit.errors import MissingDependencyError
from conflictkit.report.writer import write_set

SMOKE = "smoke test (fake backend, not a quality figure)"


def _f(value: Any, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _runs_by(results: dict) -> dict[tuple[str, str], dict]:
    return {(r["config"], r["dataset"]): r for r in results["runs"]}


def headline_cell(run: dict) -> str:
    """One cell of the configs x datasets table."""
    if run["kind"] == "revisions":
        t = run["totals"]
        cell = (f"R {_f(t['recall'])} (no dates {_f(t['recall_no_date'])}) · editorial flagged "
                f"{t['false_alarms']}/{t['editorial']} · spurious {t['spurious']}")
    elif run["kind"] == "clause-pairs":
        point = run["at_threshold"]
        cell = f"F1 {_f(point['f1'])} · P {_f(point['precision'])} · R {_f(point['recall'])} · AUC {_f(run['roc_auc'])}"
    else:
        found = run["findings"]["all"]
        cell = f"R {_f(found['recall'])} · P {_f(found['precision'])} ({found['found']} findings, {found['expected']} expected)"
    return f"{cell} *(smoke)*" if run.get("smoke") else cell


def headline_table(results: dict) -> str:
    """Rows: configs; columns: datasets."""
    runs = _runs_by(results)
    datasets = list(results["datasets"])
    lines = ["| config | " + " | ".join(datasets) + " |", "|---|" + "---|" * len(datasets)]
    for name, info in results["configs"].items():
        if info.get("skipped"):
            lines.append(f"| {name} | " + " | ".join(["skipped"] * len(datasets)) + " |")
            continue
        cells = [headline_cell(runs[(name, d)]) if (name, d) in runs else "–" for d in datasets]
        lines.append(f"| {name}{' (smoke)' if info.get('smoke') else ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def category_table(results: dict, dataset: str) -> str:
    """Per-category recall (conflict) and false-positive rate (consistent), configs as columns."""
    runs = [r for r in results["runs"] if r["dataset"] == dataset]
    if not runs:
        return ""
    categories = list(runs[0]["categories"])
    lines = ["| category | metric | n | " + " | ".join(r["config"] for r in runs) + " |",
             "|---|---|---|" + "---|" * len(runs)]
    for cat in categories:
        first = runs[0]["categories"][cat]
        cells = [_f(r["categories"][cat]["value"]) for r in runs]
        lines.append(f"| {cat} | {first['metric']} | {first['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def speed_table(results: dict) -> str:
    lines = ["| config | dataset | pairs | judged now / from cache | judge s | pairs/s | wall s | ROC-AUC | PR-AUC | ECE |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results["runs"]:
        if r["kind"] != "clause-pairs":
            continue
        lines.append(
            f"| {r['config']} | {r['dataset']} | {r['pairs']} | {r['judge_calls']} / {r['cached']} | {_f(r['judge_seconds'], 3)} | "
            f"{_f(r['pairs_per_s'], 0)} | {_f(r['wall_s'], 3)} | {_f(r['roc_auc'], 3)} | {_f(r['pr_auc'], 3)} | {_f(r['ece'], 3)} |"
        )
    return "\n".join(lines)


def document_table(results: dict) -> str:
    lines = ["| config | dataset | pair | findings | expected found | missed | unexpected | consistent spans flagged |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results["runs"]:
        if r["kind"] != "document-pairs":
            continue
        for p in r["per_pair"]:
            found = len(p["matched"]["expected"])
            missed = "; ".join(f"`{q}`" for q in p["missed"]) or "–"
            unexpected = "; ".join(f"{u['kind']} `{_quote_of(u)}`" for u in p["unexpected"][:4]) or "–"
            if len(p["unexpected"]) > 4:
                unexpected += f" (+{len(p['unexpected']) - 4} more)"
            lines.append(f"| {r['config']} | {r['dataset']} | {p['id']} | {len(p['findings'])} | "
                         f"{found}/{len(p['expected'])} | {missed} | {unexpected} | {len(p['consistent_flagged'])} |")
    return "\n".join(lines)


def revisions_table(results: dict, dataset: str) -> str:
    """Each config on one revision set, beside the word-diff baseline (which flags every hunk)."""
    runs = [r for r in results["runs"] if r["dataset"] == dataset and r["kind"] == "revisions"]
    if not runs:
        return ""
    lines = ["| config | substantive found | without version dates | editorial false alarms | editorial overlapped "
             "| spurious findings | findings |", "|---|---|---|---|---|---|---|"]
    rows = [(r["config"], r["totals"]) for r in runs] + [(runs[0]["baseline"]["name"], runs[0]["baseline"]["totals"])]
    for name, t in rows:
        lines.append(f"| {name} | {t['found']}/{t['substantive']} = {_f(t['recall'])} | {t['found_no_date']}/"
                     f"{t['substantive_no_date']} = {_f(t['recall_no_date'])} | {t['false_alarms']}/{t['editorial']} = "
                     f"{_f(t['false_alarm_rate'])} | {t['editorial_overlapped']}/{t['editorial']} | {t['spurious']} | "
                     f"{t['findings']} |")
    return "\n".join(lines)


def revisions_pairs(results: dict, dataset: str) -> str:
    """Per pair and config: found, false alarms, spurious; then every miss, false alarm and spurious finding with its why."""
    runs = [r for r in results["runs"] if r["dataset"] == dataset and r["kind"] == "revisions"]
    if not runs:
        return ""
    lines = ["| pair | " + " | ".join(r["config"] for r in runs) + " |", "|---|" + "---|" * len(runs)]
    for n, first in enumerate(runs[0]["per_pair"]):
        cells = []
        for r in runs:
            p = r["per_pair"][n]
            cells.append(f"{p['found']}/{p['substantive']} found · {p['false_alarms']}/{p['editorial']} FA · "
                         f"{p['spurious']} spurious")
        lines.append(f"| {first['id']} | " + " | ".join(cells) + " |")
    for r in runs:
        lines += ["", f"**{r['config']}**: the errors, each with its label's why", ""]
        for p in r["per_pair"]:
            for h in p["missed_hunks"]:
                date = " (version date)" if h["version_date"] else ""
                lines.append(f"- missed {p['id']} {h['id']}{date}: `{_cell(h['ref_text'])}` -> `{_cell(h['inp_text'])}`: {h['why']}")
            for h in p["false_alarm_hunks"]:
                lines.append(f"- false alarm {p['id']} {h['id']} ({', '.join(h['findings'])}): `{_cell(h['ref_text'])}` -> "
                             f"`{_cell(h['inp_text'])}`: {h['why']}")
            for f in p["spurious_findings"]:
                lines.append(f"- spurious {p['id']} {f['id']} {f['kind']} ({', '.join(f['reasons'])})")
    return "\n".join(lines)


def _cell(text: str, limit: int = 60) -> str:
    text = " ".join(str(text).split()).replace("`", "'")
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _quote_of(brief: dict) -> str:
    side = brief.get("input") or brief.get("reference") or {}
    return " ".join(str(side.get("text", "")).split())[:60].replace("|", "\\|")


def failures_section(results: dict, limit: int = 40) -> str:
    """The misclassified clause pairs of each run: id, category, probabilities, reasons, note."""
    out = []
    for r in results["runs"]:
        if r["kind"] != "clause-pairs" or not r["failures"]:
            continue
        out.append(f"### {r['config']} on {r['dataset']}: {len(r['failures'])} misclassified")
        for f in r["failures"][:limit]:
            reasons = ", ".join(f["reasons"]) or "no reason"
            note = f" — {f['note']}" if f.get("note") else ""
            out.append(f"- `{f['id']}` {f['category']} ({f['label']}): P(conflict) {f['p_conflict']:.2f}, "
                       f"P(same) {f['p_same']:.2f}, {reasons}{note}")
        if len(r["failures"]) > limit:
            out.append(f"- … {len(r['failures']) - limit} more in bench.json")
        out.append("")
    return "\n".join(out)


# The targets of issue 6 for a clause-pair set: recall per conflict category (context excepted:
# contradictions that need knowledge) and false-positive rate per consistent category.
MIN_RECALL = 0.95
MAX_FPR = 0.05
RECALL_EXEMPT = ("context",)


# The targets of the edit-level judge on real revisions (hunk-level scoring).
REVISION_RECALL = 0.97
REVISION_RECALL_NO_DATE = 0.95
REVISION_MAX_FALSE_ALARMS = 0.03
REVISION_MAX_SPURIOUS = 1


def target_misses(run: dict) -> list[str]:
    """Why a run misses its targets, one line per miss; empty when every target is met."""
    misses = []
    if run["kind"] == "revisions":
        t = run["totals"]
        if (t["recall"] or 0) < REVISION_RECALL:
            misses.append(f"substantive recall {_f(t['recall'])} < {REVISION_RECALL}")
        if (t["recall_no_date"] or 0) < REVISION_RECALL_NO_DATE:
            misses.append(f"recall without version dates {_f(t['recall_no_date'])} < {REVISION_RECALL_NO_DATE}")
        if (t["false_alarm_rate"] or 0) > REVISION_MAX_FALSE_ALARMS:
            misses.append(f"editorial false alarms {_f(t['false_alarm_rate'])} > {REVISION_MAX_FALSE_ALARMS} "
                          f"({t['false_alarms']} of {t['editorial']})")
        if t["spurious"] > REVISION_MAX_SPURIOUS:
            misses.append(f"{t['spurious']} spurious findings > {REVISION_MAX_SPURIOUS}")
        return misses
    if run["kind"] == "clause-pairs":
        for cat, v in run["categories"].items():
            if v["metric"] == "recall" and cat not in RECALL_EXEMPT and v["value"] < MIN_RECALL:
                misses.append(f"{cat}: recall {v['value']:.2f} < {MIN_RECALL} ({v['missed']} of {v['n']} missed)")
            if v["metric"] == "fpr" and v["value"] > MAX_FPR:
                misses.append(f"{cat}: false-positive rate {v['value']:.2f} > {MAX_FPR} ({v['flagged']} of {v['n']} flagged)")
        return misses
    for p in run["per_pair"]:
        limit = p.get("max_findings")
        if limit is not None and len(p["findings"]) > limit:
            misses.append(f"{p['id']}: {len(p['findings'])} findings > {limit} allowed")
        if p["missed"]:
            misses.append(f"{p['id']}: {len(p['missed'])} of {len(p['expected'])} expected findings missed")
        if p["consistent_flagged"]:
            misses.append(f"{p['id']}: {len(p['consistent_flagged'])} harmless change(s) flagged: "
                          + "; ".join(f"`{q[:50]}`" for q in p["consistent_flagged"]))
    return misses


def targets_section(results: dict) -> str:
    """Target check per run: clause-pair categories, and document pairs' caps and expected findings."""
    lines = [f"Clause pairs: recall >= {MIN_RECALL} per conflict category (except {', '.join(RECALL_EXEMPT)}), "
             f"false-positive rate <= {MAX_FPR} per consistent category. Document pairs: every expected "
             "finding found, no harmless (`consistent`) span flagged, and no more findings than the pair's `max_findings`. Issue 6 sets them for the "
             "offline default on the report split and the corpus pairs; other rows are for reference. Revision sets: substantive "
             f"recall >= {REVISION_RECALL} (>= {REVISION_RECALL_NO_DATE} without version dates), editorial false alarms "
             f"<= {REVISION_MAX_FALSE_ALARMS:.0%}, at most {REVISION_MAX_SPURIOUS} spurious finding.", ""]
    for r in results["runs"]:
        misses = target_misses(r)
        status = "met" if not misses else f"missed ({len(misses)})"
        lines.append(f"- **{r['config']} on {r['dataset']}**: {status}{' *(smoke)*' if r.get('smoke') else ''}")
        lines.extend(f"  - {m}" for m in misses)
    return "\n".join(lines)


def render_markdown(results: dict, command: str, extra: str = "") -> str:
    """The whole bench.md: command, headline table, categories, documents, speed, failures."""
    parts = ["# conflictkit benchmark", "", "Produced by:", "", "```", command, "```", ""]
    smoke = [n for n, i in results["configs"].items() if i.get("smoke")]
    if smoke:
        parts += [f"Configs marked *(smoke)* ({', '.join(smoke)}) are {SMOKE}.", ""]
    skipped = {n: i["skipped"] for n, i in results["configs"].items() if i.get("skipped")}
    for name, why in skipped.items():
        parts.append(f"- `{name}` skipped: {why}")
    if skipped:
        parts.append("")
    if extra:
        parts += [extra, ""]
    parts += ["## Headline (at each config's thresholds)", "", headline_table(results), ""]
    parts += ["## Targets", "", targets_section(results), ""]
    for name, info in results["datasets"].items():
        if info["kind"] == "clause-pairs":
            parts += [f"## Per category: {name}", "", "Recall for conflict categories, false-positive rate for consistent ones.", "",
                      category_table(results, name), ""]
    for name, info in results["datasets"].items():
        if info["kind"] == "revisions" and any(r["dataset"] == name for r in results["runs"]):
            parts += [f"## Real revisions: {name}", "",
                      "Scored hunk by hunk as the set's README says: a substantive hunk is found when a deviation, "
                      "missing or added finding overlaps it; an editorial hunk is a false alarm when a finding that "
                      "overlaps no substantive or unsure hunk overlaps it; a spurious finding overlaps no hunk. "
                      "The word diff flags every hunk.", "", revisions_table(results, name), "",
                      revisions_pairs(results, name), ""]
            for note in info.get("skipped") or []:
                parts.append(f"- {name}: skipped {note}")
    if any(r["kind"] == "document-pairs" for r in results["runs"]):
        parts += ["## Document pairs", "", document_table(results), ""]
        for name, info in results["datasets"].items():
            for note in info.get("skipped") or []:
                parts.append(f"- {name}: skipped {note}")
    if any(r["kind"] == "clause-pairs" for r in results["runs"]):
        parts += ["## Speed and ranking", "",
                  "`judge s` is embedding plus judging time, measured when each pair was judged and kept with its "
                  "cached judgement, so a re-run from the cache reports the same speed; `wall s` is this run's time.", "",
                  speed_table(results), ""]
    failures = failures_section(results)
    if failures:
        parts += ["## Failing cases", "", failures]
    return "\n".join(parts).rstrip() + "\n"


def render_json(results: dict) -> str:
    return json.dumps(results, indent=1, ensure_ascii=False, default=float) + "\n"


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display on servers and CI
        import matplotlib.pyplot as plt
    except ImportError:
        raise MissingDependencyError('plots need matplotlib: pip install "conflictkit[bench]" (or pass --no-plots)') from None
    return plt


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return buffer.getvalue()


def plot_pr_curves(results: dict, dataset: str) -> bytes:
    """Precision-recall curve of every config on one clause-pair dataset, with its operating point."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for r in results["runs"]:
        if r["dataset"] != dataset:
            continue
        curve = r["pr_curve"]
        label = f"{r['config']} (AP {_f(r['pr_auc'])}){' smoke' if r.get('smoke') else ''}"
        line, = ax.step([0.0, *curve["recall"]], [1.0, *curve["precision"]], where="post", label=label)
        point = r["at_threshold"]
        if point["recall"] is not None and point["precision"] is not None:
            ax.plot(point["recall"], point["precision"], "o", color=line.get_color())
    ax.set(xlabel="recall", ylabel="precision", xlim=(0, 1.02), ylim=(0, 1.02), title=f"Precision-recall: {dataset}")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    data = _png(fig)
    plt.close(fig)
    return data


def plot_categories(results: dict, dataset: str) -> bytes:
    """Grouped bars: recall per conflict category and false-positive rate per consistent one."""
    plt = _pyplot()
    runs = [r for r in results["runs"] if r["dataset"] == dataset]
    cats = list(runs[0]["categories"])
    conflict = [c for c in cats if runs[0]["categories"][c]["metric"] == "recall"]
    consistent = [c for c in cats if c not in conflict]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [max(len(conflict), 1), max(len(consistent), 1) + 1]})
    width = 0.8 / max(len(runs), 1)
    for ax, group, title in ((axes[0], conflict, "recall (conflict categories)"), (axes[1], consistent, "false-positive rate")):
        for k, r in enumerate(runs):
            ax.bar([i + k * width for i in range(len(group))], [r["categories"][c]["value"] for c in group], width, label=r["config"])
        ax.set_xticks([i + width * (len(runs) - 1) / 2 for i in range(len(group))], group, rotation=30, ha="right")
        ax.set(ylim=(0, 1.05), title=title)
        ax.grid(axis="y", alpha=0.3)
    axes[0].axhline(0.95, color="grey", linestyle="--", linewidth=0.8)
    axes[1].axhline(0.05, color="grey", linestyle="--", linewidth=0.8)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(runs), 6), fontsize=8, bbox_to_anchor=(0.5, -0.16))
    fig.suptitle(dataset)
    data = _png(fig)
    plt.close(fig)
    return data


def render_plots(results: dict) -> dict[str, bytes]:
    files = {}
    for name, info in results["datasets"].items():
        if info["kind"] == "clause-pairs" and any(r["dataset"] == name for r in results["runs"]):
            files[f"pr-{name}.png"] = plot_pr_curves(results, name)
            files[f"categories-{name}.png"] = plot_categories(results, name)
    return files


def write_results(results: dict, out_dir: str | Path, command: str, plots: bool = True, extra: str = "") -> list[Path]:
    """Render bench.md, bench.json and the plots, then write them into ``out_dir``."""
    files: dict[str, str | bytes] = {
        "bench.md": render_markdown(results, command, extra),
        "bench.json": render_json({**results, "command": command, "provenance": extra}),
    }
    if plots:
        files.update(render_plots(results))
    return write_set(out_dir, files, lambda name: name in ("bench.md", "bench.json") or name.endswith(".png"))
