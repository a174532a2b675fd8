"""The llm backends end to end through the CLI, against the fake on a loopback port."""

import json

import pytest
import yaml

from conflictkit.testing.openai import FakeOpenAI

from tests.cli.test_compare import assert_user_error, run
from tests.conftest import FAST_CONFIG, INPUT, REFERENCE


@pytest.fixture
def server(fake):
    with fake.serve() as s:
        yield s


def write_config(tmp_path, server, *, judge=True, explainer=True, **llm):
    options = {"model": "fake-model", "base_url": server.base_url, "backoff_s": 0.0, "max_retries": 2, **llm}
    pipeline = dict(FAST_CONFIG["pipeline"])
    if judge:
        pipeline["judge"] = {"use": "cascade", "options": {"judges": [{"use": "legal-atoms"}, {"use": "llm", "options": options}]}}
    if explainer:
        pipeline["explainer"] = {"use": "llm", "options": options}
    path = tmp_path / "llm.yaml"
    path.write_text(yaml.safe_dump({"pipeline": pipeline}))
    return path


def test_the_cascade_and_the_explainer_end_to_end_and_a_rerun_sends_nothing(tmp_path, server, fake):
    config = write_config(tmp_path, server)
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["recommendations"] and report["summaries"] and report["explainer"]["model"] == "fake-model"
    usage = json.loads((out / "params.json").read_text())["usage"]
    assert 0 < usage["judge"]["llm"]["pairs_sent"] == usage["judge"]["pairs_per_judge"]["llm"]
    assert usage["judge"]["llm"]["pairs_sent"] <= max(report["summary"]["clauses"].values())  # only the atoms judge's survivors
    assert "summary:" in run("compare", REFERENCE, INPUT, "--config", config).stdout
    requests = fake.count(None)
    again = run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "again", "--no-cache")
    assert again.returncode == 0 and fake.count(None) > requests  # --no-cache asks again
    requests = fake.count(None)
    assert run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "third").returncode == 0
    assert fake.count(None) == requests


def findings_without_explanations(out) -> list:
    report = json.loads((out / "report.json").read_text())
    assert report["findings"] and not report.get("recommendations")
    assert "summary:" not in (out / "report.md").read_text()
    return report["findings"]


def test_an_explainer_failure_after_retries_is_exit_1_with_the_findings_written(tmp_path, server, fake):
    config = write_config(tmp_path, server, judge=False)
    fake.storm(500, 1)
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out)
    assert proc.returncode == 1, proc.stderr
    assert "server error (500) after 2 retries" in proc.stderr and "Traceback" not in proc.stderr
    assert "the findings were written without them; `conflictkit explain DIR` adds them later" in proc.stderr
    findings_without_explanations(out)
    fake.calm()
    assert run("explain", out, "--config", config).returncode == 0
    assert json.loads((out / "report.json").read_text())["recommendations"]


def test_a_rerun_after_an_explainer_failure_asks_again_not_the_store(tmp_path, server, fake):
    config = write_config(tmp_path, server, judge=False, max_retries=0)
    fake.storm(500, 1)
    assert run("compare", REFERENCE, INPUT, "--config", config).returncode == 1
    fake.calm()
    before = fake.count(None)
    proc = run("compare", REFERENCE, INPUT, "--config", config)
    assert proc.returncode == 0 and fake.count(None) > before, proc.stderr  # not the explanation-less result, reprinted
    after = fake.count(None)
    assert run("compare", REFERENCE, INPUT, "--config", config).returncode == 0 and fake.count(None) == after  # now it is


def test_a_judge_failure_is_exit_1_and_writes_nothing(tmp_path, server, fake):
    config = write_config(tmp_path, server, explainer=False)
    fake.storm(500, 1)
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out)
    assert proc.returncode == 1 and "server error (500)" in proc.stderr
    assert not out.exists() or not any(out.iterdir())  # no findings without the judge that makes them


def test_a_missing_key_is_a_configuration_error(tmp_path, server, fake):
    config = write_config(tmp_path, server, base_url="https://llm.example.com/v1")
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", config, env={"OPENAI_API_KEY": ""}), "export OPENAI_API_KEY")
    assert fake.count(None) == 0


def test_explain_adds_explanations_to_a_saved_run(tmp_path, server, fake):
    out = tmp_path / "run"
    fast = tmp_path / "fast.yaml"
    fast.write_text(yaml.safe_dump(FAST_CONFIG))
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--out", out, "--format", "html").returncode == 0
    before = json.loads((out / "report.json").read_text())
    config = write_config(tmp_path, server, judge=False)
    proc = run("explain", out, "--config", config)
    assert proc.returncode == 0, proc.stderr
    after = json.loads((out / "report.json").read_text())
    assert after["findings"] == before["findings"] and len(after["recommendations"]) == len(after["findings"])
    assert "summary:" in (out / "report.md").read_text() and 'class="explanation"' in (out / "report.html").read_text()
    requests = fake.count(None)
    assert run("explain", out, "--config", config).returncode == 0
    assert fake.count(None) == requests  # kept: same model, nothing asked again
    # the explained set is still one conflictkit wrote: a new comparison may replace it
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--out", out).returncode == 0


def test_explain_refuses_a_run_whose_documents_changed_or_a_config_without_explainer(tmp_path, server):
    out = tmp_path / "run"
    document = tmp_path / "input.md"
    document.write_text(INPUT.read_text())
    fast = tmp_path / "fast.yaml"
    fast.write_text(yaml.safe_dump(FAST_CONFIG))
    assert run("compare", REFERENCE, document, "--config", fast, "--out", out).returncode == 0
    assert_user_error(run("explain", out), "has no pipeline.explainer")
    document.write_text(INPUT.read_text() + "\nOne more clause.\n")
    assert_user_error(run("explain", out, "--config", write_config(tmp_path, server, judge=False)), "changed since the run")
    assert_user_error(run("explain", tmp_path / "nowhere"), "does not exist")


@pytest.mark.parametrize("fault, expect", [
    ("truncated", "ok"), ("prose", "ok"), ("missing_ids", "unexplained"), ("unknown_party", "unknown_parties"),
    ("hallucinated_quote", "ungrounded"), ("malformed", "malformed"),
])
def test_every_broken_answer_through_the_cli(tmp_path, server, fake, fault, expect):
    """Each broken answer the fake can give, end to end: kept out of the report, said, or a clear failure."""
    config = write_config(tmp_path, server, judge=False, max_retries=0)
    fake.corrupt(fault, times=2 if fault != "truncated" else 1)  # the first answer is the parties'
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out)
    if expect == "malformed":
        assert proc.returncode == 2 and "/chat/completions answered 200 with malformed JSON" in proc.stderr
        findings_without_explanations(out)
        return
    assert proc.returncode == 0, proc.stderr
    info = json.loads((out / "report.json").read_text())["explainer"]
    if expect == "unexplained":
        assert info["unexplained"]
    elif expect == "unknown_parties":
        assert info["unknown_parties_dropped"] > 0
    elif expect == "ungrounded":
        assert info["ungrounded_quotes_dropped"] > 0
    else:
        assert not info["unexplained"] and info["ungrounded_quotes_dropped"] == 0


def test_a_timeout_through_the_cli_is_exit_1_with_the_findings_written(tmp_path, server, fake):
    config = write_config(tmp_path, server, judge=False, max_retries=0, timeout=0.5, prompt_tokens_per_s=1e6)
    fake.delay(2.0, times=1)
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out)
    assert proc.returncode == 1 and "request timed out (timeout 0.5 s" in proc.stderr
    findings_without_explanations(out)
    assert run("compare", REFERENCE, INPUT, "--config", config, "--out", out).returncode == 0


def test_a_rerun_after_an_api_failure_asks_only_what_was_not_answered(tmp_path, server, fake):
    config = write_config(tmp_path, server, judge=False, max_retries=0, batch_size=4, max_concurrency=1)
    fake.storm(500, 3)  # every third request fails, no retries: some batches answered, then a failure
    proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "out")
    assert proc.returncode == 1 and "requests of this step answered and kept in the cache: run again to send only the rest" in proc.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["findings"]  # written first; the batches answered before the failure are in it too
    fake.calm()
    before = fake.count(200)
    assert run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "out").returncode == 0
    resumed = fake.count(200) - before
    cold = fake.count(200)
    assert run("compare", REFERENCE, INPUT, "--config", config, "--out", tmp_path / "cold", "--no-cache").returncode == 0
    assert 0 < resumed < fake.count(200) - cold  # fewer requests than a run from nothing


def test_report_docx_carries_the_explanations(tmp_path, server):
    docx = pytest.importorskip("docx")
    pytest.importorskip("conflictkit_docx")
    config = write_config(tmp_path, server, judge=False)
    out = tmp_path / "out"
    assert run("compare", REFERENCE, INPUT, "--config", config, "--out", out, "--format", "docx").returncode == 0
    index, *comments = [c.text for c in docx.Document(str(out / "report.docx")).comments]
    assert index.startswith("conflictkit: ")  # the findings by severity, on the document's first words
    assert comments and all("summary:" in text for text in comments)  # each finding's comment has its explanation


def test_a_small_local_model_never_crashes_and_its_echoes_are_counted(tmp_path, fake):
    """Issue 28: a 1.5B model answered CONTRADICTION to everything and echoed the findings back."""
    small = FakeOpenAI.small_model(explainer="echo")
    with small.serve() as server:
        config = write_config(tmp_path, server, max_retries=0)
        out = tmp_path / "out"
        proc = run("compare", REFERENCE, INPUT, "--config", config, "--out", out)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
        findings = findings_without_explanations(out)
        info = json.loads((out / "report.json").read_text())["explainer"]
        assert info["explained"] == 0 and len(info["unexplained"]) == len(findings)
        assert info["problems"] == [{"problem": "an echo of the finding (no summary, comment, action, quote or rewrite)",
                                     "findings": len(findings)}]
        assert f"{len(findings)} of {len(findings)} findings not explained by fake-model" in proc.stderr
        sent = small.count(None)
        again = run("explain", out, "--config", config)
        assert again.returncode == 1 and small.count(None) > sent  # echoes were not cached: asked again


def test_explain_finds_the_documents_from_another_folder_and_keeps_the_locators(tmp_path, server):
    work = tmp_path / "work"
    work.mkdir()
    for name in ("reference.md", "input.md"):
        (work / name).write_text((REFERENCE if name == "reference.md" else INPUT).read_text())
    fast = tmp_path / "fast.yaml"
    fast.write_text(yaml.safe_dump(FAST_CONFIG))
    assert run("compare", "reference.md", "input.md", "--config", fast, "--out", "runs/first", cwd=work).returncode == 0
    located = json.loads((work / "runs/first/params.json").read_text())["documents"]
    assert located["input"] == {"absolute": str(work / "input.md"), "from_run": "../../input.md"}
    before = (work / "runs/first/report.md").read_text()
    moved = tmp_path / "moved"
    (work).rename(moved)  # the project moves, run folder and documents together
    config = write_config(tmp_path, server, judge=False)
    proc = run("explain", moved / "runs/first", "--config", config, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    after = (moved / "runs/first/report.md").read_text()
    locators = [line for line in before.splitlines() if ", line" in line or ", lines" in line]
    assert locators and all(line in after for line in locators) and "summary:" in after
