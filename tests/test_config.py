from pathlib import Path

import pytest

from conflictkit.config import dump_config, load_config, resolve
from conflictkit.errors import ConfigError, UnknownBackendError

ROOT = Path(__file__).resolve().parent.parent


def test_default_is_the_offline_preset():
    assert load_config(None) == load_config(ROOT / "configs" / "offline.yaml")
    assert load_config("offline") == load_config(None)


def test_every_preset_resolves():
    for path in sorted((ROOT / "configs").glob("*.yaml")):
        try:
            load_config(path)
        except ConfigError as exc:
            if "unknown" in str(exc) and "backend" in str(exc):
                pytest.skip(f"{path.name} needs a plugin that is not installed: {exc}")
            raise


def test_resolved_config_fills_backend_defaults():
    config = resolve({"pipeline": {"embedder": {"use": "hashing"}}})
    assert config.pipeline.embedder.options == {"dimensions": 512, "bigrams": True}
    assert config.pipeline.retriever.options["top_k"] == 3
    text = dump_config(config)
    assert "dimensions: 512" in text and "same_matter: 0.3" in text


def test_every_problem_is_listed_with_its_path():
    with pytest.raises(ConfigError) as info:
        resolve({
            "version": 1,
            "pipeline": {"embedder": {"use": "hashing", "options": {"dimensions": "big", "colour": 1}},
                         "retriever": {"use": "nope"}},
            "thresholds": {"conflict": 2},
            "extra": True,
        })
    message = str(info.value)
    assert "thresholds.conflict" in message and "extra: unknown key" in message
    # the schema errors come first; backend errors are reported once the schema holds
    with pytest.raises(ConfigError) as info:
        resolve({"pipeline": {"embedder": {"use": "hashing", "options": {"dimensions": "big", "colour": 1}},
                              "retriever": {"use": "nope"}}})
    message = str(info.value)
    assert "pipeline.embedder.options.dimensions" in message
    assert "pipeline.embedder.options.colour: unknown key" in message
    assert "pipeline.retriever.use" in message and "available: " in message and "cosine" in message
    assert "3 problems" in message


def test_unknown_backend_lists_available():
    from conflictkit.registry import get_registry

    with pytest.raises(UnknownBackendError, match="available: .*hashing"):
        get_registry().get("embedder", "no-such-embedder")


def test_judge_list_is_a_cascade():
    config = resolve({"pipeline": {"judge": [{"use": "line-diff"}, {"use": "cosine-only"}]}})
    assert config.pipeline.judge.use == "cascade"


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("pipeline: [unclosed", "not valid YAML at line"),
        ("- a\n- b\n", "top level must be a mapping"),
        ("version: 2\n", "version"),
        ("pipeline:\n  segmenter: rules\n", "pipeline.segmenter"),
    ],
)
def test_bad_files(tmp_path, text, fragment):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=fragment):
        load_config(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "absent.yaml")
    with pytest.raises(ConfigError, match="directory"):
        load_config(tmp_path)


def test_empty_file_is_the_default(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text("")
    assert load_config(path) == load_config(None)


def test_secrets_are_redacted_everywhere_shown():
    from conflictkit.config import config_data

    config = resolve({"pipeline": {"embedder": {"use": "hashing"}}})
    data = config.model_dump(mode="json")
    data["pipeline"]["embedder"]["options"]["api_key"] = "sk-secret"
    from conflictkit.config import redact

    assert redact(data)["pipeline"]["embedder"]["options"]["api_key"] == "***"
    assert "sk-secret" not in str(redact({"a": [{"token": "sk-secret"}]}))
    assert config_data(config) == config.model_dump(mode="json")  # nothing to redact: unchanged


def test_nested_cascade_problems_each_carry_their_path():
    with pytest.raises(ConfigError) as info:
        resolve({"pipeline": {"judge": [{"use": "legal-atoms", "options": {"nope": 1}}, {"use": "oracle"}]}})
    message = str(info.value)
    assert "pipeline.judge.options.judges.0.options.nope: unknown key" in message
    assert "pipeline.judge.options.judges.1.use: unknown judge backend 'oracle'" in message


def test_the_offline_default_needs_no_torch():
    from conflictkit.config import Config

    assert Config().pipeline.embedder.use == "onnx"
    assert load_config(ROOT / "configs" / "offline.yaml").pipeline.embedder.use == "onnx"


def test_offline_torch_is_the_offline_default_on_sentence_transformers():
    pytest.importorskip("conflictkit_sentence_transformers")
    torch, default = load_config("offline-torch"), load_config("offline")
    assert torch.pipeline.embedder.use == "sentence-transformers"
    assert torch.pipeline.embedder.options["model"] == default.pipeline.embedder.options["model"]
    assert torch.model_copy(update={"pipeline": default.pipeline}) == default
    assert torch.pipeline.retriever == default.pipeline.retriever and torch.pipeline.judge == default.pipeline.judge


def test_presets_are_found_through_the_installed_package(tmp_path, monkeypatch):
    from conflictkit.config import preset_names, preset_path

    monkeypatch.chdir(tmp_path)  # never relative to the working directory
    names = preset_names()
    assert {"offline", "offline-torch", "fast", "hybrid", "nli-onnx", "isaacus", "isaacus-mixed"} <= set(names)
    assert {p.stem for p in (ROOT / "configs").glob("*.yaml")} == set(names)
    assert preset_path("fast").read_text() == (ROOT / "configs" / "fast.yaml").read_text()


def test_user_preset_dirs_come_first(tmp_path, monkeypatch):
    from conflictkit.config import preset_names, preset_path

    (tmp_path / "fast.yaml").write_text("version: 1\n")
    (tmp_path / "mine.yaml").write_text("version: 1\n")
    monkeypatch.setenv("CONFLICTKIT_CONFIGS", str(tmp_path))
    assert preset_path("fast") == tmp_path / "fast.yaml"
    assert "mine" in preset_names() and "offline" in preset_names()


def test_preset_name_wins_over_a_same_named_folder_or_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "offline").mkdir()  # e.g. a folder of outputs named after the preset
    (tmp_path / "fast").write_text("not: [yaml")
    assert load_config("offline") == load_config(None)
    assert load_config("fast").pipeline.embedder.use == load_config(ROOT / "configs" / "fast.yaml").pipeline.embedder.use
    with pytest.raises(ConfigError, match="directory"):
        load_config("./offline")  # a path is a path


def test_duplicate_keys_are_refused_with_path_and_line(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("pipeline:\n  judge: {use: legal-atoms}\n  embedder: {use: hashing}\n  judge: {use: line-diff}\n")
    with pytest.raises(ConfigError, match=r"at line 4, column 3: duplicate key pipeline.judge \(first given at line 2\)"):
        load_config(path)
    path.write_text("pipeline:\n  judge:\n    - use: legal-atoms\n      use: line-diff\n")
    with pytest.raises(ConfigError, match=r"duplicate key pipeline.judge.\[0\].use"):
        load_config(path)
    from conflictkit.config import load_yaml

    recursive = load_yaml("a: &a [1, *a]\nb: {x: 1, <<: {y: 2}}\n")  # anchors, aliases and merge keys still load
    assert recursive["a"][1] is recursive["a"] and recursive["b"] == {"x": 1, "y": 2}


def test_the_language_is_chosen_once_at_the_top_and_checked_before_any_work():
    assert resolve({}).language == "en" and resolve({"language": "auto"}).language == "auto"
    with pytest.raises(ConfigError, match=r"\(1 problem\): language: no language pack for 'xx' \(available: .*en"):
        resolve({"language": "xx"})


def test_a_judge_language_option_of_an_older_config_is_the_top_level_language():
    config = resolve({"pipeline": {"judge": {"use": "legal-atoms", "options": {"language": "en", "floor": 0.05}}}})
    assert config.language == "en"
    assert "language" not in config.pipeline.judge.options and config.pipeline.judge.options["floor"] == 0.05


@pytest.mark.parametrize("text", [
    "pipeline: " + "[" * 10_000 + "]" * 10_000,
    "pipeline: " + "{a: " * 10_000 + "1" + "}" * 10_000,
    "pipeline:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(100)),
])
def test_a_config_nested_thousands_deep_is_one_clear_error(tmp_path, text):
    """PyYAML composes recursively: 10,000 levels used to be a RecursionError (exit 1)."""
    path = tmp_path / "deep.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=r"is not valid YAML at line \d+, column \d+: nested more than 64 levels deep"):
        load_config(path)
