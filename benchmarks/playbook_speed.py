"""Playbook review speed: a 50-position playbook against a ~50-page draft, whole process, cold and warm.

    python benchmarks/playbook_speed.py [--rounds 3] [--out benchmarks/results/playbook-speed.md]

The playbook is made here from the Common Paper CSA 2.1 (read from ../shared/corpus, never copied):
`playbook init`'s positions for its first 50 operative clauses that are not definitions, each given
what a real playbook has: a fallback (its first number doubled) and a red-line rule (any such
number above three times the largest), or, for a clause without a number, a red-line text (its
first "will" made "may"); the template stays as context. The draft is the ~50-page document of
benchmarks/default_targets.py (CSA 2.0, DPA 1.1, PSA 1.1 and the Bonterms Cloud Terms in one file).
Each figure is the median of --rounds whole `conflictkit review` processes (interpreter start,
imports, model load when cold) with a fresh cache (cold) or the cache of the run before (warm), timed
side by side with `conflictkit compare` of CSA 2.1 against the same draft.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path

import yaml

from default_targets import CORPUS, ROOT, fifty_pages

POSITIONS = 50
TARGET = 5.0


def playbook(work: Path) -> Path:
    """The 50-position playbook, with fallbacks and red lines, citing the CSA 2.1 as its template."""
    from conflictkit.config import load_config
    from conflictkit.engine import Engine
    from conflictkit.judges.atoms.extract import extract
    from conflictkit.loaders import read_document
    from conflictkit.playbook.write import playbook_from_template

    template = CORPUS / "commonpaper/csa/CSA_v2.1.md"
    clauses = Engine(load_config("fast")).clauses(read_document(template))
    data = yaml.safe_load(playbook_from_template(clauses, "CSA 2.1, 50 positions", str(template), definitions=False))
    kept = 0
    for subject in data["subjects"]:
        subject["positions"] = subject["positions"][: max(0, POSITIONS - kept)]
        kept += len(subject["positions"])
        for position in subject["positions"]:
            text = position["preferred"]
            numbers = [a for a in extract(text).atoms if a.family == "number" and a.group in ("duration", "money", "percent")
                       and a.text[:1].isdigit()]
            if numbers:
                first = numbers[0]
                value = first.text.split()[0]
                doubled = first.text.replace(value, str(int(float(value.replace(",", "")) * 2)), 1)
                position["fallbacks"] = [{"edits": [{"replace": first.text, "with": doubled}]}]
                same = [a for a in numbers if a.group == first.group and a.key.split(":")[2] == first.key.split(":")[2]]
                largest = max(float(a.key.split(":")[1]) for a in same)
                unit = first.text.split(None, 1)[1] if " " in first.text else ""
                position["red_lines"] = [{"rule": {"above": f"{largest * 3:g} {unit}".strip()}}]
            elif " will " in text:
                position["red_lines"] = [{"edits": [{"replace": " will ", "with": " may "}]}]
    data["subjects"] = [s for s in data["subjects"] if s["positions"]]
    path = work / "csa-50.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def timed(args: list[str], cache: Path) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of the child, and its last line.

    CPU seconds depend less on what else runs on a shared machine than wall seconds (but ONNX
    Runtime's threads spin while they wait, so they are no idle wall time either).
    """
    import subprocess
    import time

    wrapper = ("import resource,subprocess,sys;p=subprocess.run(sys.argv[1:],capture_output=True,text=True);"
               "u=resource.getrusage(resource.RUSAGE_CHILDREN);print(u.ru_maxrss,u.ru_utime+u.ru_stime,file=sys.stderr);"
               "print((p.stdout.strip().splitlines() or [''])[-1] if p.returncode==0 else 'exit %d: %s'%(p.returncode,p.stderr.strip()[-200:]))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    env["CONFLICTKIT_CACHE_DIR"] = str(cache)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - started
    rss, cpu = proc.stderr.strip().splitlines()[-1].split()
    return elapsed, float(cpu), int(rss) / 1024, proc.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ck-playbook-speed-"))
    load_before = os.getloadavg()[0]
    book = playbook(work)
    _, draft = fifty_pages(work)
    ck = [sys.executable, "-m", "conflictkit"]
    check = timed([*ck, "playbook", "check", str(book), "--config", "fast"], work / "cache-check")[3]
    rows = []
    for config in ("offline", "fast"):
        for label, command in (("review", [*ck, "review", "-p", str(book), str(draft), "--config", config, "-q"]),
                               ("compare CSA 2.1", [*ck, "compare", str(CORPUS / "commonpaper/csa/CSA_v2.1.md"), str(draft),
                                                    "--config", config, "-q"])):
            cold, cpu, warm, rss, line = [], [], [], [], ""
            for n in range(args.rounds):
                cache = work / f"cache-{config}-{label}-{n}"
                seconds, cpu_seconds, peak, line = timed(command, cache)
                cold.append(seconds)
                cpu.append(cpu_seconds)
                rss.append(peak)
                warm.append(timed(command, cache)[0])
            rows.append((f"{label}, `{config}`", line, statistics.median(cold), statistics.median(cpu),
                         statistics.median(warm), max(rss)))
    lines = [
        "# Playbook review speed: 50 positions against a ~50-page draft",
        "",
        f"Command: `python benchmarks/playbook_speed.py --rounds {args.rounds}`. Whole processes, medians of {args.rounds}; "
        f"a fresh cache for each cold run, the same cache again for the warm one. Machine: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, load average {load_before:.1f} at the start and "
        f"{os.getloadavg()[0]:.1f} at the end (other jobs share the machine; 0 is idle).",
        "",
        f"Playbook: {check}. Draft: {draft.stat().st_size / 1e6:.2f} MB.",
        "",
        "| run | summary | cold s (wall) | cold CPU s | warm s (wall) | peak RSS (cold) |",
        "|---|---|---|---|---|---|",
        *[f"| {a} | {b} | {c:.2f} | {d:.2f} | {e:.2f} | {f:.0f} MB |" for a, b, c, d, e, f in rows],
        "",
    ]
    review = next(r for r in rows if r[0] == "review, `offline`")
    compare = next(r for r in rows if r[0] == "compare CSA 2.1, `offline`")
    verdict = "met" if review[2] < TARGET else "NOT met on this machine at this load"
    lines += [f"Target (< {TARGET:g} s cold, offline default): {verdict} ({review[2]:.2f} s wall, {review[3]:.2f} CPU s; "
              f"{review[2] / compare[2]:.2f}x the wall time and {review[3] / compare[3]:.2f}x the CPU time of a cold compare "
              "of the template against the same draft, measured side by side)."]
    text = "\n".join(lines) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    sys.exit(0 if review[2] < TARGET else 1)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
