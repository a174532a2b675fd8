"""Report formats as a plugin stage: --format lists and takes the installed renderers, a plugin adds one."""

from __future__ import annotations

import os
import textwrap

from tests.cli.test_compare import assert_user_error, run
from tests.conftest import INPUT, REFERENCE

CSV_PLUGIN = '''
from typing import ClassVar
from conflictkit import hookimpl
from conflictkit.stages import Renderer

class CsvRenderer(Renderer):
    """findings.csv: one line per finding."""
    name = "csv"
    filename: ClassVar[str] = "findings.csv"

    def render(self, rendering):
        view = rendering.view
        return "".join(f"{f['id']},{f['kind']},{view.title(f)}\\n" for f in view.findings)

@hookimpl
def register_renderers(register):
    register(CsvRenderer)
'''


def _plugin(tmp_path) -> dict[str, str]:
    """An installed distribution whose entry point registers a ``csv`` renderer; the environment to see it."""
    (tmp_path / "ck_csv_plugin.py").write_text(textwrap.dedent(CSV_PLUGIN))
    dist = tmp_path / "ck_csv_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ck-csv-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[conflictkit]\ncsv = ck_csv_plugin\n")
    (dist / "RECORD").write_text("ck_csv_plugin.py,,\n")
    return {"PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}


def test_a_plugin_renderer_is_a_format(tmp_path, fast):
    env = _plugin(tmp_path)
    help_text = run("compare", "--help", env=env).stdout
    assert "csv" in help_text and "redline" in help_text
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "csv", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].startswith("F0006,missing,")  # the view's order: by severity, a right removed first
    by_document = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "csv", "--sort", "document", env=env)
    assert by_document.stdout.splitlines()[0].startswith("F0001,deviation,")  # ids number the findings in document order
    out = tmp_path / "out"
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--format", "csv", "--out", out, env=env).returncode == 0
    assert (out / "findings.csv").read_text().startswith("F0006,")
    # a later run replaces the set whole: findings.csv is known as part of it
    assert run("compare", REFERENCE, INPUT, "--config", fast, "--format", "csv", "--out", out, env=env).returncode == 0
    assert "csv" in run("backends", env=env).stdout


def test_an_unknown_format_fails_before_any_work_listing_the_installed_ones(tmp_path, fast):
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "pdf", "--out", out)
    assert_user_error(proc, "unknown --format 'pdf'; installed: ")
    assert "md, redline, text" in proc.stderr and not out.exists()


def test_the_redline_format_prints_and_writes_every_change(tmp_path, fast):
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "redline")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Redline") and "substantive (number), F0008 medium deviation" in proc.stdout
    out = tmp_path / "out"
    proc = run("compare", REFERENCE, INPUT, "--config", fast, "--format", "redline", "--changes", "findings", "--out", out)
    assert proc.returncode == 0, proc.stderr
    written = (out / "redline.md").read_text()
    assert written == proc.stdout and "only the changes of findings are listed" in written
    assert sorted(p.name for p in out.iterdir()) == [".conflictkit-set.json", "pairs.json", "params.json", "redline.md", "report.json", "report.md"]
