"""The offline default through the CLI: the ONNX embedder, no torch, and model errors as one-line user errors."""

import json
import subprocess
import sys

import pytest

from tests.conftest import INPUT, REFERENCE

pytest.importorskip("conflictkit_onnx")

# Runs the CLI in-process, then reports whether anything imported torch on the way.
NO_TORCH = """
import sys
from conflictkit.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print("TORCH_IMPORTED" if "torch" in sys.modules else "NO_TORCH", file=sys.stderr)
sys.exit(code)
"""


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-c", NO_TORCH, *map(str, args)], capture_output=True, text=True, timeout=300, **kwargs)


@pytest.mark.model
def test_the_default_compare_runs_on_onnx_without_importing_torch(tmp_path):
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--out", out, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().endswith("NO_TORCH")
    params = json.loads((out / "params.json").read_text())
    assert "onnx" in json.dumps(params["config"]["pipeline"]["embedder"])
    report = json.loads(proc.stdout)
    assert report["summary"]["deviation"] >= 10


def test_a_broken_model_directory_exits_2_with_one_line(tmp_path):
    config = tmp_path / "broken.yaml"
    config.write_text(f"pipeline:\n  embedder: {{use: onnx, options: {{model: {tmp_path}}}}}\n")
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "out")
    assert proc.returncode == 2
    error = proc.stderr.replace("NO_TORCH", "").strip()
    assert error.count("\n") == 0 and "Traceback" not in error
    assert "has no model.onnx and no tokenizer.json" in error
    assert not (tmp_path / "out").exists()
