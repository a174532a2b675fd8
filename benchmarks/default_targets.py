"""Issue 10's absolute targets for the offline default, whole process, on this machine.

    python benchmarks/default_targets.py [--out benchmarks/results/targets.md]

Each row is `conflictkit compare` in a fresh process with a fresh cache (cold, model load included)
or the same command again (warm), timed from outside with its peak RSS (``/usr/bin/time``-style,
from ``resource.getrusage`` of the child). Documents are built from ../shared/corpus (never copied):
- samples: the project's SaaS pair;
- ~50 pages: the Common Paper CSA, DPA, PSA and the Bonterms Cloud Terms in one document, against
  their next versions;
- ~5 MB: every Basecamp terms and privacy revision in one document, older half against newer half,
  repeated to 5 MB a side (a version history: many clause texts recur).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("CONFLICTKIT_CORPUS", ROOT.parent / "shared" / "corpus"))


def fifty_pages(work: Path) -> tuple[Path, Path]:
    cp = CORPUS / "commonpaper"
    old = [cp / "csa/CSA_v1.1.md", cp / "dpa/DPA_v1.0.md", cp / "psa/PSA_v1.0.md", CORPUS / "bonterms/Bonterms-Cloud-Terms_v1.0.md"]
    new = [cp / "csa/CSA_v2.0.md", cp / "dpa/DPA_v1.1.md", cp / "psa/PSA_v1.1.md", CORPUS / "bonterms/Bonterms-Cloud-Terms_v1.0.md"]
    pair = []
    for name, files in (("ref-50p.md", old), ("inp-50p.md", new)):
        path = work / name
        path.write_text("\n\n".join(f.read_text(encoding="utf-8") for f in files), encoding="utf-8")
        pair.append(path)
    return pair[0], pair[1]


def five_megabytes(work: Path) -> tuple[Path, Path]:
    revisions = sorted((CORPUS / "basecamp/terms").glob("*.md")) + sorted((CORPUS / "basecamp/privacy").glob("*.md"))
    half = len(revisions) // 2
    pair = []
    for name, files in (("ref-5mb.md", revisions[:half]), ("inp-5mb.md", revisions[half:])):
        text = "\n\n".join(f.read_text(encoding="utf-8") for f in files)
        copies = 5_000_000 // len(text.encode()) + 1
        path = work / name
        path.write_text("\n\n".join(f"# Copy {i}\n\n{text}" for i in range(copies)), encoding="utf-8")
        pair.append(path)
    return pair[0], pair[1]


def timed(args: list[str], cache: Path) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) of the child, and the summary line."""
    wrapper = ("import resource,subprocess,sys;p=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,file=sys.stderr);"
               "print((p.stdout.strip().splitlines() or [''])[-1] if p.returncode==0 else 'exit %d: %s'%(p.returncode,p.stderr.strip()[-200:]))")
    # as an installed package runs: with its bytecode cached (pip compiles it at install time); a
    # PYTHONDONTWRITEBYTECODE in the environment would add ~0.1 s of compiling to every run
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["CONFLICTKIT_CACHE_DIR"] = str(cache)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    return elapsed, int(proc.stderr.strip().splitlines()[-1]) / 1024, proc.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/targets.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-targets-"))
    load_before = os.getloadavg()[0]
    ck = [sys.executable, "-m", "conflictkit"]
    samples = (ROOT / "samples/reference-saas-agreement.md", ROOT / "samples/input-vendor-draft.md")
    rows = []
    timed([*ck, "compare", *map(str, samples), "--config", "fast", "-q"], work / "cache-prime")  # bytecode written
    version, _, _ = timed([*ck, "--version"], work / "cache-version")
    rows.append(("`conflictkit --version`", "", f"{version:.2f}", "", "<= 0.3 s"))
    for label, (ref, inp), target in (("samples", samples, "<= 3 s cold; warm <= 0.5 s and <= 1.5x fast"),
                                      ("~50 pages a side", fifty_pages(work), "<= 5 s cold"),
                                      ("~5 MB a side", five_megabytes(work), "< 2 min and < 4 GB")):
        for config in ("offline", "fast"):
            cache = work / f"cache-{label}-{config}"
            cold, rss, line = timed([*ck, "compare", str(ref), str(inp), "--config", config, "-q"], cache)
            warm, _, _ = timed([*ck, "compare", str(ref), str(inp), "--config", config, "-q"], cache)
            rows.append((f"{label}, `{config}`", f"{ref.stat().st_size / 1e6:.2f} MB / {line}", f"{cold:.2f}", f"{warm:.2f}",
                         f"{target}; peak {rss:.0f} MB"))
    lines = [
        "# The offline default against issue 10's targets",
        "",
        "Command: `python benchmarks/default_targets.py`. Each figure is a whole `conflictkit compare` process",
        "(interpreter start, imports, model load when cold), a fresh cache for the cold run, the same cache for",
        f"the warm one, bytecode cached as in an installed package. Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load_before:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end (other jobs share the machine; 0 is idle).",
        "",
        "| case | document size / summary | cold s | warm s | target; peak RSS (cold) |",
        "|---|---|---|---|---|",
        *[f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in rows],
    ]
    Path(args.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
