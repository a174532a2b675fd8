"""A re-run of an unchanged comparison is printed from the store, building nothing; any change takes the normal path."""

import json
import os
import shutil
import subprocess
import sys
import time

from conflictkit import rerun
from conflictkit.store import Store
from tests.cli.test_compare import run
from tests.conftest import INPUT, REFERENCE

_PROBE = """
import atexit, json, sys
atexit.register(lambda: open(sys.argv[1], "w").write(json.dumps(sorted(sys.modules))))
from conflictkit.cli import main
main(sys.argv[2:])
"""


def test_an_unchanged_rerun_prints_the_same_without_building_anything(fast, tmp_path):
    for fmt in ("text", "json", "md"):
        first = run("compare", REFERENCE, INPUT, "--config", fast, "--format", fmt)
        again = run("compare", REFERENCE, INPUT, "--config", fast, "--format", fmt)
        assert first.returncode == again.returncode == 0, again.stderr
        assert again.stdout == first.stdout and again.stderr == first.stderr
    modules_file = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", _PROBE, str(modules_file), "compare", str(REFERENCE), str(INPUT),
                           "--config", str(fast), "-q"], capture_output=True, text=True, timeout=300, env=os.environ)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(modules_file.read_text()))
    assert not {"numpy", "pydantic", "conflictkit.engine", "conflictkit.config"} & modules
    # a renamed copy of a file is the same comparison: the report names the paths given
    renamed = tmp_path / "renamed-draft.md"
    shutil.copy(INPUT, renamed)
    proc = run("compare", REFERENCE, renamed, "--config", fast, "--format", "json")
    assert json.loads(proc.stdout)["input"]["path"] == str(renamed)


def test_the_key_changes_with_the_files_the_config_and_the_code(tmp_path, monkeypatch):
    copy = tmp_path / "draft.md"
    shutil.copy(INPUT, copy)
    key = rerun.rerun_key({"thresholds": {"conflict": 0.7}}, [str(REFERENCE), str(copy)])
    assert rerun.rerun_key({"thresholds": {"conflict": 0.7}}, [str(REFERENCE), str(copy)]) == key
    assert rerun.rerun_key({"thresholds": {"conflict": 0.6}}, [str(REFERENCE), str(copy)]) != key
    copy.write_text(copy.read_text(encoding="utf-8") + "\n\nOne more clause.\n", encoding="utf-8")
    assert rerun.rerun_key({"thresholds": {"conflict": 0.7}}, [str(REFERENCE), str(copy)]) != key
    assert rerun.rerun_key({}, [str(REFERENCE), str(tmp_path / "missing.md")]) is None
    lexicons = tmp_path / "lexicons"
    (lexicons / "en").mkdir(parents=True)
    (lexicons / "en" / "words.yaml").write_text("negators: [not]\n")
    monkeypatch.setenv("CONFLICTKIT_LEXICON_PATH", str(lexicons))
    stamp = rerun.code_stamp()
    later = time.time() + 5
    os.utime(lexicons / "en" / "words.yaml", (later, later))  # an edited word list is other code
    assert rerun.code_stamp() != stamp


def test_a_damaged_or_missing_entry_and_out_take_the_normal_path(fast, tmp_path):
    first = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "json")
    store = Store(tmp_path / "store.sqlite")
    key = rerun.rerun_key({}, [str(REFERENCE), str(INPUT)])
    store.put_json(rerun.KIND, key, {"report": {"reference": {}}})  # no texts: damaged
    assert rerun.lookup(store, key, (str(REFERENCE), str(INPUT))) is None
    assert rerun.lookup(Store.disabled(), key, (str(REFERENCE), str(INPUT))) is None
    out = tmp_path / "out"
    again = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "json", "--out", out)
    assert again.stdout == first.stdout and (out / "report.json").is_file()
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--format", "json", "--no-cache").stdout == first.stdout


def test_the_key_changes_when_a_requirement_is_upgraded(tmp_path, monkeypatch):
    """Upgrading what the code requires (numpy, onnxruntime) with the code itself unchanged answers afresh."""
    from conflictkit import codekey

    def forget():
        for cached in (codekey._code_key, codekey.distribution_key, codekey.installed_versions):
            cached.cache_clear()

    forget()
    key = rerun.rerun_key({}, [str(REFERENCE), str(INPUT)])
    versions = codekey.installed_versions()
    assert "numpy" in versions  # a requirement of the core
    upgraded = {**versions, "numpy": versions["numpy"] + ".post1"}
    monkeypatch.setattr(codekey, "installed_versions", lambda: upgraded)
    codekey._code_key.cache_clear()
    codekey.distribution_key.cache_clear()
    try:
        assert rerun.rerun_key({}, [str(REFERENCE), str(INPUT)]) != key
    finally:
        monkeypatch.undo()
        forget()


def test_a_severity_table_edited_since_is_answered_afresh(fast, tmp_path):
    """The config names its severity table by a path relative to itself: the table's bytes, not its
    name, are part of what a re-run printed from the store was made from."""
    import yaml

    from conflictkit.lexicon import load

    table = load("en").table("severity")
    (tmp_path / "rank.yaml").write_text(yaml.safe_dump(table), encoding="utf-8")
    config = tmp_path / "ranked.yaml"
    config.write_text(fast.read_text(encoding="utf-8") + "\nseverity: {table: rank.yaml}\n", encoding="utf-8")

    def severities() -> set[str]:
        proc = run("compare", REFERENCE, INPUT, "--config", config, "--format", "json")
        assert proc.returncode == 0, proc.stderr
        return {f["severity"] for f in json.loads(proc.stdout)["findings"]}

    assert severities() == {"high", "medium", "low"}
    assert severities() == {"high", "medium", "low"}  # from the store
    (tmp_path / "rank.yaml").write_text(yaml.safe_dump({**table, "levels": {"high": 100, "medium": 99}}), encoding="utf-8")
    assert severities() == {"low"}
