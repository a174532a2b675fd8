"""Time to first paint of a ``conflictkit serve`` results page for two ~50-page documents, and its size.

The documents are the SaaS sample pair repeated with shifted section numbers (copy k adds 20*k to
every section number) until each has at least ``--pages`` pages of 3,000 characters. The script
starts a real server (fast preset: hashing embedder, legal-atoms judge), uploads the pair over
HTTP, waits for the comparison, then opens the results page ``--repeat`` times in headless
Chromium, each time in a fresh context (no cache), and reads the browser's own paint timings.
It does the same for the self-contained ``report.html`` of the same comparison, opened from disk.

    .venv/bin/python benchmarks/web_paint.py --pages 50 --repeat 5 --out benchmarks/results/web.md
"""

from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from conflictkit.testing import browser  # noqa: E402

PAGE_CHARS = 3_000
SHIFT = 20


def renumber(text: str, shift: int) -> str:
    """Shift section numbers in headings (``## 5.``), clauses (``5.2``) and cross-references."""
    text = re.sub(r"(?m)^(#+ )(\d+)\.", lambda m: f"{m.group(1)}{int(m.group(2)) + shift}.", text)
    text = re.sub(r"(?m)^(\d+)\.(\d+)", lambda m: f"{int(m.group(1)) + shift}.{m.group(2)}", text)
    return re.sub(r"\b(Sections?) (\d+)\b", lambda m: f"{m.group(1)} {int(m.group(2)) + shift}", text)


def long_document_parts(sample: Path, pages: int) -> list[str]:
    """The sample, then renumbered copies of its body (from its first section) up to ``pages`` pages."""
    text = sample.read_text(encoding="utf-8")
    body = text[text.index("\n## ") + 1 :]
    parts, k = [text], 1
    while sum(map(len, parts)) < pages * PAGE_CHARS:
        parts.append(renumber(body, SHIFT * k))
        k += 1
    return parts


def long_document(sample: Path, pages: int) -> str:
    return "\n".join(long_document_parts(sample, pages))


def start_server(db: Path, env: dict) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "conflictkit", "serve", "--port", "0", "--config", "fast", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
    for line in proc.stdout:
        match = re.search(r"serving on (http://\S+?)/ ", line)
        if match:
            return proc, match.group(1)
    raise SystemExit(f"server did not start (exit {proc.wait()})")


def compare(url: str, ref: str, inp: str) -> tuple[str, float]:
    started = time.perf_counter()
    files = {"reference": ("reference-50p.md", ref.encode()), "input": ("input-50p.md", inp.encode())}
    response = httpx.post(url + "/compare", files=files, timeout=600)
    job = response.headers["location"].rsplit("/", 1)[1]
    while True:
        state = httpx.get(f"{url}/api/jobs/{job}", timeout=60).json()
        if state["state"] == "done":
            return state["comparison"], time.perf_counter() - started
        if state["state"] == "failed":
            raise SystemExit(state["error"])
        time.sleep(0.2)


def replicated_comparison(db: Path, pages: int) -> tuple[str, str, str, int]:
    """Store, without running the engine, the comparison of the two long documents the engine would give.

    The samples are compared once (fast preset, about a second); each finding is then cited again in
    every renumbered copy, its quote renumbered as the copy was and found there, so the page shows
    what a real run of the long pair shows (the same findings once per copy) at none of its cost (a
    cold run of the engine on the long pair takes minutes on this machine). Returns the
    comparison id, both texts and the number of findings.
    """
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.web.reviews import ReviewStore

    samples = [ROOT / "samples" / "reference-saas-agreement.md", ROOT / "samples" / "input-vendor-draft.md"]
    base = Engine(load_config("fast")).compare(*map(str, samples)).report
    parts = [long_document_parts(path, pages) for path in samples]
    texts = ["\n".join(p) for p in parts]
    starts = [[sum(len(x) + 1 for x in p[:k]) for k in range(len(p))] for p in parts]
    findings = []
    for k in range(min(len(s) for s in starts)):
        for finding in base["findings"]:
            cited = {}
            for n, side in enumerate(("reference", "input")):
                quote = finding[side]
                if quote is None:
                    cited[side] = None
                    continue
                text = quote["text"] if k == 0 else renumber(quote["text"], SHIFT * k)
                at = texts[n].find(text, starts[n][k])
                if at < 0:
                    break  # a clause from before the first section (the cover page) is not copied
                cited[side] = {**quote, "start": at, "end": at + len(text), "text": text}
            else:
                findings.append({**finding, **cited, "id": f"F{len(findings) + 1:04d}"})
    report = {**base, "findings": findings,
              "summary": {**base["summary"], **{kind: sum(f["kind"] == kind for f in findings) for kind in ("deviation", "missing", "added")}}}
    cid = ReviewStore(db).add("reference-50p.md", "input-50p.md", texts[0], texts[1], report, "replicated from the samples")
    return cid, texts[0], texts[1], len(findings)


TIMINGS_JS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const paint = Object.fromEntries(performance.getEntriesByType('paint').map(e => [e.name, e.startTime]));
  return {fp: paint['first-paint'], fcp: paint['first-contentful-paint'], ttfb: nav.responseStart,
          response_end: nav.responseEnd, dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd};
}"""


def paint_timings(chromium, url: str, repeat: int) -> list[dict]:
    runs = []
    for _ in range(repeat):
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(url, wait_until="load")
        page.wait_for_function("performance.getEntriesByType('paint').length >= 2", timeout=30_000)
        runs.append(page.evaluate(TIMINGS_JS) | {"marks": page.locator("mark.hl").count(),
                                                 "findings": page.locator("li.finding").count()})
        context.close()
    return runs


def screenshots(chromium, page_url: str, report_url: str, out: Path) -> None:
    """The review page and report.html at 1400x900, a deviation selected (the README shows them)."""
    out.mkdir(parents=True, exist_ok=True)
    for url, name in ((page_url, "review-page.png"), (report_url, "report-html.png")):
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.goto(url, wait_until="load")
        page.locator('li.finding[data-kind="deviation"]').nth(3).click()
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / name))
        context.close()


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    load = os.getloadavg()[0]
    chromium = subprocess.run([browser.chromium_path(), "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, {platform.system()}, {chromium}; "
            f"shared with other jobs (1-minute load average {load:.1f} at the end)")


def row(name: str, runs: list[dict], size: int, gz: int) -> str:
    return (f"| {name} | {size:,} B ({gz:,} B gzip) | {median(runs, 'ttfb'):,.0f} | {median(runs, 'response_end'):,.0f} "
            f"| {median(runs, 'fp'):,.0f} | {median(runs, 'fcp'):,.0f} | {median(runs, 'dcl'):,.0f} | {median(runs, 'load'):,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--cache-dir", type=Path, help="engine cache to reuse between runs (default: a fresh one, cold)")
    parser.add_argument("--replicate", action="store_true",
                        help="store the long pair's comparison built from the samples' findings instead of running the engine on it")
    parser.add_argument("--screenshots", type=Path, help="also save screenshots of the review page and report.html (1400x900) here")
    args = parser.parse_args()
    if browser.missing():
        raise SystemExit(browser.missing())
    ref = long_document(ROOT / "samples" / "reference-saas-agreement.md", args.pages)
    inp = long_document(ROOT / "samples" / "input-vendor-draft.md", args.pages)
    warm = bool(args.cache_dir and args.cache_dir.exists())
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "CONFLICTKIT_CACHE_DIR": str(args.cache_dir or Path(tmp) / "cache")}
        db = Path(tmp) / "reviews.sqlite"
        if args.replicate:
            started = time.perf_counter()
            cid, ref, inp, _ = replicated_comparison(db, args.pages)
            compare_s = time.perf_counter() - started
        proc, url = start_server(db, env)
        try:
            if not args.replicate:
                cid, compare_s = compare(url, ref, inp)
            page_url = f"{url}/comparisons/{cid}"
            render_ms = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                html = httpx.get(page_url, timeout=120).content
                render_ms.append(1000 * (time.perf_counter() - started))
            assets = sum(len(httpx.get(f"{url}/static/{n}", timeout=60).content) for n in ("report.css", "report.js", "app.css", "app.js"))
            report = httpx.get(f"{page_url}/export.html", timeout=120).content
            report_file = Path(tmp) / "report.html"
            report_file.write_bytes(report)
            with browser.chromium() as chromium:
                served = paint_timings(chromium, page_url, args.repeat)
                offline = paint_timings(chromium, report_file.as_uri(), args.repeat)
                if args.screenshots:
                    screenshots(chromium, page_url, report_file.as_uri(), args.screenshots)
        finally:
            proc.terminate()
            proc.wait(10)
    lines = [
        "# Web app: time to first paint of a results page (two ~50-page documents)", "",
        f"Documents: the SaaS sample pair repeated with shifted section numbers ({SHIFT} per copy): reference "
        f"{len(ref):,} characters, input {len(inp):,} characters (a page = {PAGE_CHARS:,} characters, so "
        f"{len(ref) / PAGE_CHARS:.0f} and {len(inp) / PAGE_CHARS:.0f} pages). The comparison (fast preset: hashing "
        + (f"embedder, legal-atoms judge; {'warm' if args.cache_dir and warm else 'cold'} cache; upload to stored result) took {compare_s:.1f} s and gave "
           if not args.replicate else
           "embedder, legal-atoms judge) was not run on them: each finding of the samples was cited again in every renumbered copy "
           f"(`--replicate`, {compare_s:.1f} s), giving ")
        + f"{served[0]['findings']} findings, {served[0]['marks']} highlighted pieces.", "",
        f"Median of {args.repeat} loads, each in a fresh browser context (no cache), headless Chromium at 1400x900; "
        "times in ms from navigation start, as the browser reports them (Paint Timing and Navigation Timing).", "",
        "| page | size | first byte | last byte | first paint | first contentful paint | DOMContentLoaded | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
        row(f"`/comparisons/{{id}}` (served, + {assets:,} B of CSS/JS)", served, len(html), len(gzip.compress(html))),
        row("`report.html` export (self-contained, from disk)", offline, len(report), len(gzip.compress(report))),
        "",
        f"Server-side: GET of the results page (read from SQLite, render, send) median {statistics.median(render_ms):,.0f} ms "
        f"over {args.repeat} requests (min {min(render_ms):,.0f}). The server does not compress responses; the gzip column "
        "is what a compressing proxy would send.", "",
        f"Machine: {machine()}.",
            "Command: `.venv/bin/python benchmarks/web_paint.py --pages {} --repeat {}{}{} --out benchmarks/results/web.md`".format(
            args.pages, args.repeat, f" --cache-dir {args.cache_dir}" if args.cache_dir else "", " --replicate" if args.replicate else ""),
    ]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
