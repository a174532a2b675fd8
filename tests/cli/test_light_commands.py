"""Commands that only describe conflictkit import no backend library, with every installed plugin loaded."""

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("torch", "transformers", "onnxruntime", "sentence_transformers", "isaacus", "rank_bm25", "bm25s", "tokenizers", "scipy")

# Runs the CLI in a fresh interpreter and writes the top-level names of every module it imported.
_PROBE = """
import atexit, json, sys
atexit.register(lambda: open(sys.argv[1], "w").write(json.dumps(sorted({m.split(".")[0] for m in sys.modules}))))
from conflictkit.cli import main
main(sys.argv[2:])
"""


def imported_by(tmp_path, *args):
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if k not in ("CONFLICTKIT_LOAD_PLUGINS", "CONFLICTKIT_NO_ENTRY_POINTS")}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(out), *args], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text())), done.stdout


@pytest.mark.parametrize("args", [("--version",), ("--help",), ("backends",), ("config", "show"), ("config", "show", "--config", "hybrid")])
def test_describing_commands_import_no_backend_library(tmp_path, args):
    modules, _ = imported_by(tmp_path, *args)
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_version_loads_no_plugin(tmp_path):
    modules, stdout = imported_by(tmp_path, "--version")
    assert "version" in stdout
    assert not {m for m in modules if m.startswith("conflictkit_")}, sorted(m for m in modules if m.startswith("conflictkit_"))
    assert "conflictkit" in modules


def test_backends_still_lists_installed_plugins(tmp_path):
    modules, stdout = imported_by(tmp_path, "backends")
    # the probe is only meaningful when plugins are installed and loaded; in a core-only install it checks the core
    installed = {m for m in modules if m.startswith("conflictkit_")}
    if "conflictkit_bm25" in installed:
        assert "hybrid" in stdout


_PROBE_FULL = """
import atexit, json, sys
atexit.register(lambda: open(sys.argv[1], "w").write(json.dumps(sorted(sys.modules))))
from conflictkit.cli import main
main(sys.argv[2:])
"""


def modules_imported_by(tmp_path, *args):
    """Every module (full dotted names) a CLI run imported."""
    out = tmp_path / "modules.json"
    done = subprocess.run([sys.executable, "-c", _PROBE_FULL, str(out), *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "CONFLICTKIT_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 0, done.stderr
    return set(json.loads(out.read_text()))


def test_help_builds_no_model_and_imports_no_numpy(tmp_path):
    modules = modules_imported_by(tmp_path, "--help")
    assert not {"numpy", "pydantic", "conflictkit.stages", "conflictkit.model"} & modules
    from conflictkit.cli import COMMANDS

    # --help reads each command's short help from its module: those modules and nothing else of the CLI
    assert not {m for m in modules if m.startswith("conflictkit.cli.")} - {module for module, _ in COMMANDS.values()}


def test_compare_imports_no_other_command(tmp_path):
    from tests.conftest import INPUT, REFERENCE

    args = ("compare", str(REFERENCE), str(INPUT), "--config", "fast", "-q")
    cold = modules_imported_by(tmp_path, *args)
    warm = modules_imported_by(tmp_path, *args)
    for modules in (cold, warm):
        commands = {m for m in modules if m.startswith("conflictkit.cli.")}
        assert commands == {"conflictkit.cli.compare"}, sorted(commands)
    # a warm run (every stage cached) checks no span again: the grounding package stays unimported
    assert not {m for m in warm if m.startswith("conflictkit.grounding")}
    assert "conflictkit.grounding" in cold
