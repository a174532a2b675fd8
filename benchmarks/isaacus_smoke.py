"""Run ``conflictkit bench`` on the Isaacus config against the fake API (a smoke test, not quality).

The fake (:class:`conflictkit.testing.isaacus.FakeIsaacus`) is served on 127.0.0.1 and the SDK is
pointed at it through ``ISAACUS_BASE_URL``; its answers are lexical stand-ins for the Kanon models,
so the numbers only show that the backend runs end to end through the harness. Arguments after
the script name are passed to ``conflictkit bench``:

    python benchmarks/isaacus_smoke.py --config benchmarks/configs/isaacus-smoke.yaml \
        --dataset benchmarks/data/clause-pairs/report.jsonl --out benchmarks/results/isaacus-smoke
"""

from __future__ import annotations

import os
import shlex
import sys

from conflictkit.cli import main
from conflictkit.testing.isaacus import FakeIsaacus

if __name__ == "__main__":
    with FakeIsaacus().serve() as server:
        os.environ["ISAACUS_BASE_URL"] = server.base_url
        os.environ.setdefault("ISAACUS_API_KEY", "fake-key-for-smoke-test")
        os.environ["CONFLICTKIT_BENCH_COMMAND"] = shlex.join(["python", "benchmarks/isaacus_smoke.py", *sys.argv[1:]])
        sys.argv = ["conflictkit", "bench", *sys.argv[1:]]
        main()
