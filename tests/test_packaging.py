"""A non-editable install from the core wheel carries its presets: nothing is read from the checkout."""

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.slow
def test_the_core_wheel_ships_its_presets(tmp_path):
    wheels, venv, elsewhere = tmp_path / "wheels", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args, cwd=None):
        proc = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600, cwd=cwd)
        assert proc.returncode == 0, proc.stderr[-3000:]
        return proc.stdout

    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", wheels, ROOT)
    (wheel,) = wheels.glob("conflictkit-*.whl")
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", wheel)
    shown = run(venv / "bin" / "conflictkit", "config", "show", "--config", "fast", cwd=elsewhere)
    assert "use: hashing" in shown and "min_relevance: 0.2" in shown
    names = run(python, "-c", "from conflictkit.config import preset_names; print(' '.join(preset_names()))", cwd=elsewhere)
    assert set(names.split()) == {p.stem for p in (ROOT / "configs").glob("*.yaml")}
    location = run(python, "-c", "from conflictkit.config import PRESETS_DIR; print(PRESETS_DIR)", cwd=elsewhere)
    assert location.strip().startswith(str(venv))
    # the playbook package and its schemas are in the wheel too
    reviewed = run(venv / "bin" / "conflictkit", "review", "-p", ROOT / "samples/playbook-saas.yaml",
                   ROOT / "samples/input-vendor-draft.md", "--config", "fast", "-q", cwd=elsewhere)
    assert "of 13 positions" in reviewed
    run(python, "-c", "from conflictkit.report.schemas import load_schema; load_schema('playbook'); load_schema('playbook-review')",
        cwd=elsewhere)


def test_every_plugin_moves_with_the_core_version():
    """A plugin of this round needs this round's core (new stages and modules): pins say so."""
    import tomllib

    from conflictkit import __version__

    major, minor, *_ = __version__.split(".")
    core_pin = f"conflictkit>={major}.{minor},<{major}.{int(minor) + 1}"
    plugins = sorted((ROOT / "backends").glob("*/pyproject.toml"))
    assert plugins
    for path in plugins:
        project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
        assert project["version"] == __version__, path
        pins = [d for d in project["dependencies"] if d.split(">")[0].split("=")[0].split("<")[0].strip() == "conflictkit"]
        assert pins == [core_pin], (path, pins)
