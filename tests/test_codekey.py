"""Cache keys follow the code: installed versions, an editable checkout's sources and the lexicons
(conflictkit.codekey). A warm cache used to return the old code's report after an upgrade, because
its keys held only backend names, declared versions, options and a PIPELINE_VERSION stuck at "2"."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from importlib import resources

import pytest
import yaml

from conflictkit import codekey, lexicon


@pytest.fixture
def fresh(monkeypatch):
    """Every per-process memo of the key cleared before and after (the test changes what is installed)."""
    def clear():
        for memo in (codekey._code_key, codekey.installed_plugins, codekey.distribution_key, codekey.installed_versions,
                     lexicon.data_digest, lexicon.load):
            memo.cache_clear()
    clear()
    yield clear
    clear()


def fake_distribution(site, name, version, *, requires=(), editable_source=None):
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    lines = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", *[f"Requires-Dist: {r}" for r in requires]]
    (info / "METADATA").write_text("\n".join(lines) + "\n")
    if editable_source is not None:
        (info / "direct_url.json").write_text(json.dumps({"url": editable_source.as_uri(), "dir_info": {"editable": True}}))
        (info / "top_level.txt").write_text(name.replace("-", "_") + "\n")
    return info


def test_a_new_version_of_a_requirement_changes_the_key(tmp_path, monkeypatch, fresh):
    before = codekey.code_key([], rules=False)
    fake_distribution(tmp_path, "pluggy", "99.0")  # shadows the installed pluggy, as an upgrade would
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh()
    assert codekey.distribution_key("conflictkit")[2]["pluggy"] == "99.0"
    assert codekey.code_key([], rules=False) != before


def test_an_edit_of_an_editable_checkout_changes_the_key(tmp_path, monkeypatch, fresh):
    source = tmp_path / "src"
    (source / "ckfake").mkdir(parents=True)
    module = source / "ckfake" / "judge.py"
    module.write_text("THRESHOLD = 0.5\n")
    fake_distribution(tmp_path / "site", "ckfake", "1.0", requires=["pluggy>=1", "torch; extra == 'gpu'"], editable_source=source)
    monkeypatch.syspath_prepend(str(source))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    fresh()
    first = codekey.distribution_key("ckfake")
    assert first[1] == "1.0" and set(first[2]) == {"pluggy"} and first[3] is not None  # extras are not what runs
    module.write_text("THRESHOLD = 0.55\n")  # the version stays 1.0
    fresh()
    assert codekey.distribution_key("ckfake") != first
    assert codekey.code_key(["ckfake"]) != codekey.code_key([])


def test_an_edited_lexicon_changes_the_key_and_a_vector_key_ignores_it(tmp_path, monkeypatch, fresh):
    before, vectors = codekey.code_key(), codekey.code_key(rules=False)
    folder = tmp_path / "en"
    shutil.copytree(str(resources.files("conflictkit.judges.atoms.lang").joinpath("en")), folder)
    monkeypatch.setenv(lexicon.LEXICON_PATH_ENV, str(tmp_path))
    fresh()
    assert codekey.code_key() != before  # a new lexicon folder on the path, even an identical copy
    key = codekey.code_key()
    with open(folder / "words.yaml", "a", encoding="utf-8") as handle:
        handle.write("\n# an edit\n")
    fresh()
    assert codekey.code_key() != key and codekey.code_key(rules=False) == vectors  # embeddings need no lexicon


def _compare(reference, input, cache, lexicons):
    env = {**os.environ, "CONFLICTKIT_CACHE_DIR": str(cache), lexicon.LEXICON_PATH_ENV: str(lexicons)}
    env.pop("CONFLICTKIT_DEBUG", None)
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "compare", reference, input, "--config", "fast", "--format", "json"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_a_warm_cache_never_returns_a_report_of_the_old_lexicon(tmp_path):
    """The same comparison, cached, then the lexicon edited: the warm run equals a cold run of the new lexicon."""
    reference, input = tmp_path / "ref.md", tmp_path / "inp.md"
    reference.write_text("1. Payment. Customer shall pay the fees within thirty days of the invoice.\n\n"
                         "2. Notices. Notices are given in writing to the addresses on the order form.\n")
    input.write_text("1. Payment. Customer shall nae pay the fees within thirty days of the invoice.\n\n"
                     "2. Notices. Notices are given in writing to the addresses on the order form.\n")
    lexicons = tmp_path / "lexicons"
    shutil.copytree(str(resources.files("conflictkit.judges.atoms.lang").joinpath("en")), lexicons / "en")
    warm = tmp_path / "warm"
    old = _compare(reference, input, warm, lexicons)
    words = yaml.safe_load((lexicons / "en" / "words.yaml").read_text(encoding="utf-8"))
    words["negators"].append("nae")  # a Scots negator: the edit turns the inserted word into a negation
    (lexicons / "en" / "words.yaml").write_text(yaml.safe_dump(words), encoding="utf-8")
    new_warm = _compare(reference, input, warm, lexicons)
    new_cold = _compare(reference, input, tmp_path / "cold", lexicons)
    assert new_warm["findings"] == new_cold["findings"]
    assert new_warm["findings"] != old["findings"]  # the edit mattered: a cached old report would have shown
    with sqlite3.connect(warm / "cache.sqlite") as conn:
        assert conn.execute("SELECT count(*) FROM entries WHERE namespace='report'").fetchone() == (2,)
