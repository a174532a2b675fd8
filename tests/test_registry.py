import sys
import textwrap

import pytest

from conflictkit import registry as reg
from conflictkit.embedders.hashing import HashingEmbedder
from conflictkit.errors import ConfigError, UnknownBackendError
from conflictkit.stages import Embedder


def test_builtins_are_registered_per_stage():
    r = reg.build_registry(reg.build_plugin_manager(load_entry_points=False))
    assert "hashing" in r.names("embedder")
    assert "cosine" in r.names("retriever")
    assert r.get("embedder", "hashing").package == "conflictkit"
    assert {"markdown", "text", "html"} <= set(r.names("loader"))
    assert [cls.name for cls in r.loaders()] == sorted(cls.name for cls in r.loaders())


def test_duplicate_names_are_refused():
    r = reg.Registry()
    r.add(HashingEmbedder, "conflictkit")

    class Impostor(Embedder):
        name = "hashing"

        def embed(self, texts):
            raise NotImplementedError

    with pytest.raises(ConfigError, match="registered twice: by conflictkit and by other-package"):
        r.add(Impostor, "other-package")


def test_wrong_stage_is_refused():
    r = reg.Registry()
    with pytest.raises(ConfigError, match="not a conflictkit stage backend"):
        r.add(dict, "pkg")  # type: ignore[arg-type]


def test_unknown_name_lists_available():
    r = reg.Registry()
    r.add(HashingEmbedder, "conflictkit")
    with pytest.raises(UnknownBackendError, match="unknown embedder backend 'x'; available: hashing"):
        r.get("embedder", "x")


@pytest.fixture
def demo_plugin(tmp_path, monkeypatch):
    """A real installed distribution with an entry point in the `conflictkit` group."""
    (tmp_path / "demo_conflictkit_plugin.py").write_text(textwrap.dedent('''
        import numpy as np
        from conflictkit import hookimpl
        from conflictkit.stages import Embedder

        class OnesEmbedder(Embedder):
            """Every text is the same unit vector."""
            name = "ones"
            def embed(self, texts):
                return np.ones((len(texts), 4), dtype=np.float32) / 2.0

        @hookimpl
        def register_embedders(register):
            register(OnesEmbedder)
    '''))
    dist = tmp_path / "demo_conflictkit_plugin-1.2.3.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-conflictkit-plugin\nVersion: 1.2.3\n")
    (dist / "entry_points.txt").write_text("[conflictkit]\ndemo = demo_conflictkit_plugin\n")
    (dist / "top_level.txt").write_text("demo_conflictkit_plugin\n")
    (dist / "RECORD").write_text("demo_conflictkit_plugin.py,,\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("demo_conflictkit_plugin", None)


def test_plugins_load_through_the_entry_point_group(demo_plugin, monkeypatch):
    monkeypatch.delenv("CONFLICTKIT_LOAD_PLUGINS", raising=False)
    r = reg.build_registry(reg.build_plugin_manager(load_entry_points=True))
    info = r.get("embedder", "ones")
    assert info.package == "demo-conflictkit-plugin"
    assert info.cls(None).embed(["a", "b"]).shape == (2, 4)


def test_load_plugins_env_restricts(demo_plugin, monkeypatch):
    monkeypatch.setenv("CONFLICTKIT_LOAD_PLUGINS", "")
    r = reg.build_registry(reg.build_plugin_manager(load_entry_points=True))
    assert "ones" not in r.names("embedder")
    monkeypatch.setenv("CONFLICTKIT_LOAD_PLUGINS", "demo")
    r = reg.build_registry(reg.build_plugin_manager(load_entry_points=True))
    assert "ones" in r.names("embedder")


def test_broken_plugin_is_a_warning_not_a_crash(tmp_path, monkeypatch, capsys):
    dist = tmp_path / "broken_ck-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-ck\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[conflictkit]\nbroken = module_that_does_not_exist_ck\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("CONFLICTKIT_LOAD_PLUGINS", "broken")
    r = reg.build_registry(reg.build_plugin_manager(load_entry_points=True))
    assert "hashing" in r.names("embedder")
    err = capsys.readouterr().err
    assert "plugin 'broken'" in err and "failed to import" in err and "reinstall or uninstall" in err


def test_unknown_plugin_backend_names_its_package():
    r = reg.Registry()
    with pytest.raises(UnknownBackendError, match=r"conflictkit-onnx plugin: pip install \./backends/conflictkit-onnx \(from a conflictkit checkout\)"):
        r.get("embedder", "onnx")
    # the torch plugins say how to get torch's CPU build first
    with pytest.raises(UnknownBackendError, match=r"download.pytorch.org/whl/cpu, then pip install \./backends/conflictkit-sentence-transformers"):
        r.get("embedder", "sentence-transformers")


def test_a_stage_is_collected_only_when_looked_up():
    """Looking up a loader imports no segmenter backend, judge, retriever or other stage's plugin backend:
    each stage's hooks run on first use."""
    import subprocess

    probe = ("import json, sys\n"
             "from conflictkit.registry import get_registry\n"
             "registry = get_registry()\n"
             "before = set(sys.modules)\n"
             "registry.get('loader', 'markdown')\n"
             "print(json.dumps(sorted(set(sys.modules) - before)))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    imported = set(__import__("json").loads(done.stdout))
    assert "conflictkit.formats.text" in imported
    assert not {m for m in imported if m.startswith(("conflictkit.judges", "conflictkit.segmenters.rules", "conflictkit.retrievers"))}
    assert not {m for m in imported if m.startswith("conflictkit_") and not m.startswith(("conflictkit_docx", "conflictkit_pdf"))}


def test_loading_the_installed_plugins_imports_none_of_their_backends():
    """Every installed plugin module (and its package's ``__init__``) imports its backends inside its hooks:
    loading the plugins, as every command does, imports only the plugin modules themselves."""
    import json
    import subprocess
    from importlib import metadata

    probe = ("import json, sys\n"
             "from conflictkit.registry import get_plugin_manager\n"
             "get_plugin_manager()\n"
             "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    imported = set(json.loads(done.stdout))
    plugins = {ep.module for ep in metadata.entry_points(group="conflictkit")}
    packages = {module.split(".")[0] for module in plugins}
    assert plugins, "no plugin installed: this test needs the repository's plugin packages"
    heavy = {m for m in imported if m.split(".")[0] in packages} - plugins - packages
    assert not heavy, f"plugin modules import their backends when they load: {sorted(heavy)}"


def test_a_backend_registered_under_the_wrong_stage_is_refused():
    import pluggy

    pm = pluggy.PluginManager("conflictkit")
    pm.add_hookspecs(reg.hookspecs)

    class Plugin:
        @staticmethod
        @reg.hookspecs.hookimpl
        def register_judges(register):
            register(HashingEmbedder)

    pm.register(Plugin, name="wrong")
    with pytest.raises(ConfigError, match="registered as a judge but is a embedder"):
        reg.build_registry(pm).names("judge")
