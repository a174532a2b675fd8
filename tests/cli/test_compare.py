"""The CLI as a user runs it: a subprocess, real exit codes, stderr, files on disk."""

import json
import os
import re
import subprocess
import sys

import pytest
import yaml

from conflictkit.testing.schemas import assert_valid
from tests.conftest import INPUT, REFERENCE


def run(*args, cwd=None, env=None):
    full_env = {**os.environ, **(env or {})}
    full_env.pop("CONFLICTKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "conflictkit", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=1200)


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
    assert_valid(report)
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--out", out, "--format", "md")
    assert proc.returncode == 0
    assert sorted(p.name for p in out.iterdir()) == [".conflictkit-set.json", "pairs.json", "params.json", "report.json", "report.md"]
    for name in ("report.json", "pairs.json", "params.json"):
        assert_valid(json.loads((out / name).read_text()))
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
    assert shown["thresholds"] == {"same_matter": 0.3, "conflict": 0.7}
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


def run_on_tty(*args, env=None):
    """Run the CLI with stdout on a pseudo-terminal (as a user at a terminal sees it); returns (code, output)."""
    import pty

    primary, secondary = pty.openpty()
    full_env = {**os.environ, "COLUMNS": "120", **(env or {})}
    full_env.pop("NO_COLOR", None) if "NO_COLOR" not in (env or {}) else None
    proc = subprocess.Popen([sys.executable, "-m", "conflictkit", *map(str, args)], stdout=secondary,
                            stderr=subprocess.DEVNULL, env=full_env)
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(primary, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(primary)
    return proc.wait(timeout=600), b"".join(chunks).decode()


def test_text_output_names_sections_lines_and_the_changed_words(fast):
    proc = run("compare", REFERENCE, INPUT, "--config", fast)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b" not in out  # piped: no colour, plain markers
    assert "5.3 Termination for cause" in out
    assert re.search(r"reference 5\.3, line \d+ · input 5\.3, line \d+", out)
    assert "within [-thirty-] {+sixty+} ([-30-]{+60+}) days" in out
    assert "P(conflict) 0.9" in out and "P(conflict) is the judge's probability" in out
    assert "[6021:6248]" not in out and "p=" not in out


def test_colour_on_a_terminal_and_never_with_no_color(fast):
    code, out = run_on_tty("compare", REFERENCE, INPUT, "--config", fast)
    assert code == 0
    assert "\x1b[9;31mthirty" in out or "\x1b[31;9mthirty" in out or re.search(r"\x1b\[[0-9;]*9[0-9;]*mthirty", out)
    assert "[-thirty-]" not in out
    code, out = run_on_tty("compare", REFERENCE, INPUT, "--config", fast, env={"NO_COLOR": "1"})
    assert code == 0
    assert "[-thirty-] {+sixty+}" in out and not re.search(r"\x1b\[[0-9;]*m", out)


def test_quiet_prints_the_summary_and_verbose_everything(fast):
    quiet = run("compare", REFERENCE, INPUT, "--config", fast, "-q")
    assert quiet.returncode == 0
    assert quiet.stdout.count("\n") == 1 and "spans grounded" in quiet.stdout
    verbose = run("compare", REFERENCE, INPUT, "--config", fast, "-v").stdout
    assert "P(same matter) 0.9" in verbose and "decided by legal-atoms" in verbose and "more (-v shows all)" not in verbose
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", fast, "-q", "-v"), "contradict")


def test_a_document_from_stdin(fast):
    full_env = {**os.environ}
    full_env.pop("CONFLICTKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", str(REFERENCE), "-", "--config", str(fast),
                           "--format", "json"], input=INPUT.read_bytes(), capture_output=True, env=full_env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert_valid(report)
    assert report["input"]["path"] == "<stdin>" and report["summary"]["deviation"] > 0
    expected = json.loads(run("compare", REFERENCE, INPUT, "--config", fast, "--format", "json").stdout)
    assert report["findings"] == expected["findings"]
    assert_user_error(run("compare", "-", "-", "--config", fast), "only one of REFERENCE and INPUT")


@pytest.mark.parametrize("kinds, code", [("deviations", 3), ("deviation", 3), ("Missing,added", 3), ("additions", 3), ("any", 3)])
def test_fail_on_takes_singular_plural_and_any(fast, kinds, code):
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--fail-on", kinds, "-q").returncode == code


def test_escape_sequences_in_a_document_never_reach_the_terminal(fast, tmp_path):
    text = INPUT.read_text(encoding="utf-8").replace("sixty (60) days", "sixty (60) \x1b]0;owned\x07\x1b[2J\x9b31mdays")
    hostile = tmp_path / "hostile.md"
    hostile.write_text(text, encoding="utf-8")
    for fmt in ("text", "md"):
        proc = run("compare", REFERENCE, hostile, "--config", fast, "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", proc.stdout), fmt
        assert "x1b" in proc.stdout  # shown as text (backslash-escaped again in Markdown)
    _, out = run_on_tty("compare", REFERENCE, hostile, "--config", fast)
    assert "\x1b]0;" not in out and "\x1b[2J" not in out and "\x9b" not in out
    proc = run("compare", REFERENCE, hostile, "--config", fast, "--format", "json")
    assert not re.search("[\x00-\x1f\x7f-\x9f]", proc.stdout.replace("\n", ""))
    quotes = [f["input"]["text"] for f in json.loads(proc.stdout)["findings"] if f["input"]]
    assert any("\x1b]0;owned\x07\x1b[2J\x9b31mdays" in q for q in quotes)  # JSON stays exact


@pytest.mark.parametrize("gate, code", [("high", 3), ("Medium", 3), ("missing,high", 3), ("added,high", 0), ("any,low", 3)])
def test_fail_on_a_severity_gates_on_findings_of_at_least_it(fast, gate, code):
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--fail-on", gate, "-q").returncode == code


def test_fail_on_two_severities_is_a_usage_error(fast):
    assert_user_error(run("compare", REFERENCE, INPUT, "--config", fast, "--fail-on", "high,low"), "give one severity")


def test_sort_orders_every_text_view_and_the_ids_stay(fast):
    by_severity = re.findall(r"^(F\d{4})  (\w+) ", run("compare", REFERENCE, INPUT, "--config", fast).stdout, re.M)
    assert by_severity[0] == ("F0006", "high") and [s for _, s in by_severity][-1] == "low"
    by_document = re.findall(r"^(F\d{4})  ", run("compare", REFERENCE, INPUT, "--config", fast, "--sort", "document").stdout, re.M)
    assert by_document == sorted(by_document) and sorted(by_document) == sorted(i for i, _ in by_severity)
    table = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "md", "--sort", "kind").stdout
    kinds = re.findall(r"^\| F\d{4} \| \w+ \| (\w+) \|", table, re.M)
    assert kinds == sorted(kinds, key=["deviation", "missing", "added", "moved"].index)
    assert "listed by kind, then in document order" in table
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--sort", "colour").returncode == 2


def test_a_file_name_that_is_not_utf8(fast, tmp_path):
    """A name with a byte that is not UTF-8 (an old Latin-1 archive): reported, and written as the JSON escape
    of the same name, which reads back to a path that opens the file (it was a UnicodeEncodeError, exit 1)."""
    name = os.fsdecode(b"caf\xe9.md")
    try:
        (tmp_path / name).write_bytes(INPUT.read_bytes())
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, name, "--config", fast, "--out", out, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for text in (proc.stdout, (out / "report.json").read_text(encoding="utf-8")):
        path = json.loads(text)["input"]["path"]
        assert path == name and (tmp_path / path).is_file()
    assert "caf\\udce9.md" in (out / "report.json").read_text(encoding="utf-8")  # an escape, not a byte that is not UTF-8


def test_an_unreadable_file_says_permission_denied(fast, tmp_path):
    import shutil

    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "in.md").write_bytes(INPUT.read_bytes())
    (tmp_path / "unreadable.md").write_bytes(INPUT.read_bytes())
    (tmp_path / "unreadable.md").chmod(0)
    locked.chmod(0)
    prefix = []
    if os.geteuid() == 0:  # root reads everything: drop the capabilities that let it
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to drop its file-reading capabilities")
        prefix = ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search"]
    try:
        for path in (tmp_path / "unreadable.md", locked / "in.md"):
            proc = subprocess.run([*prefix, sys.executable, "-m", "conflictkit", "compare", REFERENCE, path, "--config", fast],
                                  capture_output=True, text=True, timeout=600)
            assert_user_error(proc, f"{path}: permission denied; check the")
    finally:
        locked.chmod(0o755)
