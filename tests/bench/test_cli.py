"""``conflictkit bench`` and ``conflictkit calibrate`` as a user runs them: exit codes, files, one-line errors."""

import json
import os
import subprocess
import sys

import pytest
import yaml

from tests.bench.conftest import model_free


def run(*args):
    env = {k: v for k, v in os.environ.items() if k != "CONFLICTKIT_DEBUG"}
    return subprocess.run([sys.executable, "-m", "conflictkit", *map(str, args)], capture_output=True, text=True, env=env, timeout=600)


def assert_user_error(proc, fragment):
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert fragment in lines[0], lines[0]


@pytest.fixture
def diff_config(tmp_path):
    path = tmp_path / "line-diff.yaml"
    path.write_text(yaml.safe_dump({"bench": {"name": "diff"}, **model_free({"use": "line-diff"})}), encoding="utf-8")
    return path


def test_bench_writes_table_json_and_plots(diff_config, toy_jsonl, doc_manifest, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "results"
    proc = run("bench", "--config", diff_config, "--dataset", toy_jsonl, "--dataset", doc_manifest, "--out", out, "--threshold-sweep")
    assert proc.returncode == 0, proc.stderr
    assert "| diff |" in proc.stdout
    names = sorted(p.name for p in out.iterdir())
    assert names == [".conflictkit-set.json", "bench.json", "bench.md", "categories-toy.png", "pr-toy.png"]
    data = json.loads((out / "bench.json").read_text())
    assert data["command"].startswith("conflictkit bench --config") and len(data["runs"]) == 2
    assert (out / "pr-toy.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (out / "bench.md").read_text()
    assert "## Failing cases" in md and "conflictkit bench" in md


@pytest.mark.parametrize("bad_line, fragment", [('{"id": 1', "bad.jsonl:2: malformed JSON"),
                                                 ('{"id": "z", "category": "c", "label": "perhaps", "reference": "a", "input": "b"}',
                                                  "bad.jsonl:2: unknown label 'perhaps'")])
def test_bench_bad_dataset_exit_2_and_nothing_written(diff_config, toy_jsonl, tmp_path, bad_line, fragment):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(toy_jsonl.read_text().splitlines()[0] + "\n" + bad_line + "\n", encoding="utf-8")
    out = tmp_path / "results"
    assert_user_error(run("bench", "--config", diff_config, "--dataset", bad, "--out", out), fragment)
    assert not out.exists()


def test_bench_missing_inputs_exit_2(diff_config, tmp_path):
    assert_user_error(run("bench", "--config", diff_config, "--dataset", tmp_path / "nope.jsonl", "--out", tmp_path / "o"),
                      "does not exist")
    assert_user_error(run("bench", "--config", tmp_path / "nope.yaml", "--dataset", tmp_path / "x.jsonl", "--out", tmp_path / "o"),
                      "does not exist")
    manifest = tmp_path / "m.yaml"
    manifest.write_text("pairs:\n  - {id: a, reference: gone.md, input: gone2.md}\n", encoding="utf-8")
    assert_user_error(run("bench", "--config", diff_config, "--dataset", manifest, "--out", tmp_path / "o"), "gone.md does not exist")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert_user_error(run("bench", "--config", diff_config, "--dataset", empty, "--out", tmp_path / "o"), "empty dataset")


def test_calibrate_writes_config_compare_accepts(diff_config, toy_jsonl, tmp_path):
    out = tmp_path / "calibrated.yaml"
    config = tmp_path / "plain.yaml"
    config.write_text(yaml.safe_dump(model_free({"use": "line-diff"})), encoding="utf-8")
    proc = run("calibrate", "--config", config, "--dataset", toy_jsonl, "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert "held-apart data: before -> after" in proc.stdout
    shown = run("config", "show", "--config", out)
    assert shown.returncode == 0, shown.stderr
    assert yaml.safe_load(out.read_text())["thresholds"]["conflict"] > 0.7


def test_calibrate_bad_input_exit_2(tmp_path, toy_jsonl):
    config = tmp_path / "plain.yaml"
    config.write_text(yaml.safe_dump(model_free({"use": "line-diff"})), encoding="utf-8")
    out = tmp_path / "c.yaml"
    assert_user_error(run("calibrate", "--config", config, "--dataset", tmp_path / "none.jsonl", "--out", out), "does not exist")
    assert_user_error(run("calibrate", "--config", config, "--dataset", toy_jsonl, "--out", tmp_path / "no-dir" / "c.yaml"),
                      "does not exist")
    assert not out.exists()
