"""The CLI as a user runs it: a subprocess, real exit codes, stderr, files on disk."""

import json
import os
import subprocess
import sys

import pytest
import yaml

from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


def run(*args, cwd=None, env=None):
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CONFLICTKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "conflictkit", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=1200)


@pytest.fixture
def fast(tmp_path):
    path = tmp_path / "fast.yaml"
    path.write_text(yaml.safe_dump(FAST_CONFIG))
    return path


def assert_user_error(proc, fragment):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert fragment in lines[0], lines[0]


def test_help_reads_well():
    proc = run("--help")
    assert proc.returncode == 0
    for command in ("compare", "backends", "config"):
        assert command in proc.stdout
    proc = run("compare", "--help")
    assert "--fail-on" in proc.stdout and "Exit codes" in proc.stdout


def test_compare_text_json_and_out(fast, tmp_path):
    proc = run("compare", REFERENCE, INPUT, "--config", fast)
    assert proc.returncode == 0, proc.stderr
    assert "deviation" in proc.stdout.lower() and "spans grounded" in proc.stdout
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "json")
    report = json.loads(proc.stdout)
    assert report["schema"] == "conflictkit.report/1"
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--out", out, "--format", "md")
    assert proc.returncode == 0
    assert sorted(p.name for p in out.iterdir()) == ["pairs.json", "params.json", "report.json", "report.md"]
    params = json.loads((out / "params.json").read_text())
    assert params["config"]["pipeline"]["embedder"]["options"]["dimensions"] == 512
    assert proc.stdout.startswith("# conflictkit report")


def test_fail_on_gates(fast):
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--fail-on", "deviation,missing").returncode == 3
    assert run("compare", REFERENCE, REFERENCE, "--config", fast, "--fail-on", "any").returncode == 0
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", fast, "--fail-on", "typo"), "typo")


def test_same_file_has_zero_findings(fast):
    proc = run("compare", REFERENCE, REFERENCE, "--config", fast, "--format", "json")
    assert json.loads(proc.stdout)["findings"] == []


@pytest.mark.parametrize(
    "content, fragment",
    [
        (b"", "is empty"),
        (b"   \n\n  ", "is empty"),
        (b"\x00\x01\x02binary\x00", "not a text document"),
        ("Caf\u00e9".encode("latin-1") * 10, "not valid UTF-8"),
        (b"%PDF-1.4 stuff", "PDF"),
    ],
)
def test_bad_input_files(fast, tmp_path, content, fragment):
    bad = tmp_path / "bad.md"
    bad.write_bytes(content)
    out = tmp_path / "out"
    assert_user_error(run("compare", REFERENCE, bad, "--config", fast, "--out", out), fragment)
    assert not out.exists()


def test_missing_file_and_directory(fast, tmp_path):
    assert_user_error(run("compare", tmp_path / "nope.md", INPUT, "--config", fast), "no such file")
    assert_user_error(run("compare", REFERENCE, tmp_path, "--config", fast), "is a directory")


def test_bad_configs(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pipeline: [unclosed\n")
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", bad), "not valid YAML")
    bad.write_text("pipeline:\n  judge: {use: oracle}\n  embedder: {use: hashing, options: {dims: 3}}\n")
    proc = run("compare", REFERENCE, INPUT, "--config", bad)
    assert_user_error(proc, "pipeline.judge.use")
    assert "available:" in proc.stderr and "legal-atoms" in proc.stderr
    assert "pipeline.embedder.options.dims" in proc.stderr


def test_config_show_and_backends(fast):
    proc = run("config", "show", "--config", fast)
    assert proc.returncode == 0
    shown = yaml.safe_load(proc.stdout)
    assert shown["thresholds"] == {"same_matter": 0.3, "conflict": 0.7, "shared_margin": 0.2}
    assert shown["pipeline"]["embedder"]["options"]["bigrams"] is True
    proc = run("backends")
    assert proc.returncode == 0
    for name in ("rules", "hashing", "cosine", "legal-atoms"):
        assert name in proc.stdout
    assert proc.stdout.startswith("loader:\n") and "  html " in proc.stdout


def test_output_dir_is_a_file(fast, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", fast, "--out", blocker), "not a directory")


@pytest.mark.slow
def test_five_megabyte_document(fast, tmp_path):
    text = INPUT.read_text(encoding="utf-8")
    big = tmp_path / "big.md"
    copies = 5_000_000 // len(text.encode()) + 1
    big.write_text("\n\n".join(text.replace("## ", f"## Part {i} ") for i in range(copies)), encoding="utf-8")
    assert big.stat().st_size >= 5_000_000
    proc = run("compare", REFERENCE, big, "--config", fast, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["judged_pairs"] <= 5 * report["summary"]["clauses"]["input"]
