"""``conflictkit review`` and ``conflictkit playbook`` as a user runs them: subprocesses, exit codes, files."""

from __future__ import annotations

import json

import yaml

from conflictkit.testing.schemas import assert_valid
from tests.cli.test_compare import assert_user_error, run
from tests.conftest import INPUT, REFERENCE, SAMPLES

PLAYBOOK = SAMPLES / "playbook-saas.yaml"


def test_review_the_sample_draft(fast, tmp_path):
    proc = run("review", "--playbook", PLAYBOOK, INPUT, "--config", fast)
    assert proc.returncode == 0, proc.stderr
    assert "FALLBACK 2" in proc.stdout and "NOT ACCEPTABLE" in proc.stdout and "MISSING" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1].startswith("2 standard, 4 fallback, 5 not acceptable, 2 missing of 13 positions")
    proc = run("review", "-p", PLAYBOOK, INPUT, "--config", fast, "--format", "json")
    review = json.loads(proc.stdout)
    assert_valid(review)
    verdicts = {p["id"]: p["label"] for p in review["positions"]}
    assert verdicts["cure-period"] == "fallback 2" and verdicts["governing-law"] == "not acceptable"
    assert verdicts["termination-for-convenience"] == "missing" and verdicts["data-location"] == "missing"
    out = tmp_path / "out"
    proc = run("review", "-p", PLAYBOOK, INPUT, "--config", fast, "--out", out, "--format", "html")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == [".conflictkit-set.json", "params.json", "playbook.md", "review.html", "review.json", "review.md"]
    saved = json.loads((out / "review.json").read_text())
    playbook_md = (out / "playbook.md").read_text()
    for position in saved["positions"]:
        quote = position["reference"]
        assert playbook_md[quote["start"]:quote["end"]] == quote["text"]
    assert "<!DOCTYPE html>" in (out / "review.html").read_text()
    assert (out / "review.md").read_text().startswith("# conflictkit playbook review")


def test_fail_on_verdicts(fast):
    assert run("review", "-p", PLAYBOOK, INPUT, "--config", fast, "--fail-on", "not-acceptable,missing", "-q").returncode == 3
    proc = run("review", "-p", PLAYBOOK, REFERENCE, "--config", fast, "--fail-on", "any", "-q")
    assert proc.returncode == 0 and proc.stdout.startswith("13 standard, 0 fallback, 0 not acceptable, 0 missing of 13 positions")
    assert_user_error(run("review", "-p", PLAYBOOK, INPUT, "--fail-on", "bad"), "unknown verdict(s) bad")


def test_user_errors_are_one_line(fast, tmp_path):
    assert_user_error(run("review", "-p", tmp_path / "none.yaml", INPUT, "--config", fast), "does not exist")
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: t\nsubjects: [{subject: s, positions: [{id: a, preferred: pay in 10 days, red_lines: [{rule: {below: 30 days}}]}]}]")
    assert_user_error(run("review", "-p", bad, INPUT, "--config", fast), "breaks its own red line 1")
    assert_user_error(run("review", "-p", PLAYBOOK, tmp_path / "none.md", "--config", fast), "no such file")
    assert_user_error(run("review", "-p", PLAYBOOK, INPUT, "--format", "html"), "give --out DIR")
    proc = run("review", INPUT)
    assert proc.returncode == 2 and "--playbook" in proc.stderr


def test_playbook_init_show_check(fast, tmp_path):
    target = tmp_path / "mine.yaml"
    proc = run("playbook", "init", REFERENCE, "--out", target, "--no-definitions", "--config", fast)
    assert proc.returncode == 0, proc.stderr
    data = yaml.safe_load(target.read_text())
    assert data["template"].endswith("reference-saas-agreement.md")
    assert sum(len(s["positions"]) for s in data["subjects"]) > 50
    assert_user_error(run("playbook", "init", REFERENCE, "--out", target, "--config", fast), "exists; give --force")
    proc = run("playbook", "check", target, "--config", fast)
    assert proc.returncode == 0 and proc.stdout.endswith("ok\n")
    proc = run("playbook", "show", PLAYBOOK, "--config", fast)
    assert proc.stdout.startswith("# SaaS subscription, customer side") and "**Fallback 2** (only together with" in proc.stdout
    proc = run("playbook", "show", PLAYBOOK, "--format", "yaml", "--config", fast)
    standalone = tmp_path / "standalone.yaml"
    standalone.write_text(proc.stdout)
    assert "clause:" not in proc.stdout and run("playbook", "check", standalone, "--config", fast).returncode == 0
    proc = run("playbook", "show", PLAYBOOK, "--format", "json", "--config", fast)
    assert json.loads(proc.stdout)["positions"][0]["id"] == "late-payment"
    assert_user_error(run("playbook", "check", tmp_path / "none.yaml"), "does not exist")


def test_the_conforming_redline(fast, tmp_path):
    import pytest

    pytest.importorskip("conflictkit_docx", reason="the docx plugin is not installed")
    out = tmp_path / "out"
    proc = run("review", "-p", PLAYBOOK, INPUT, "--config", fast, "--format", "docx", "--out", out)
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}/review.docx" in proc.stderr and (out / "review.docx").stat().st_size > 0
    assert_user_error(run("review", "-p", PLAYBOOK, INPUT, "--format", "docx"), "--format docx writes review.docx: give --out DIR")
