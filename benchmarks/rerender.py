"""Re-render a results folder (bench.md and plots) from its bench.json, without running anything.

For a change in how results are presented; the numbers, the command and the provenance are the
ones recorded in bench.json.   python benchmarks/rerender.py benchmarks/results/bench
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conflictkit.bench.report import write_results

if __name__ == "__main__":
    for folder in map(Path, sys.argv[1:]):
        data = json.loads((folder / "bench.json").read_text(encoding="utf-8"))
        command, provenance = data.pop("command"), data.pop("provenance", "")
        write_results(data, folder, command, plots=True, extra=provenance)
        print(f"re-rendered {folder}")
