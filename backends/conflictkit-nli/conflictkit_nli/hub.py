"""Where models come from: a local directory, or a Hugging Face model id resolved through the standard cache.

A model id is looked up in the cache first; it is downloaded only when the hub may be used
(``HF_HUB_OFFLINE`` unset). When it cannot be had, the error names the model and the two ways to
get it: ``conflictkit models pull NAME`` where the hub is reachable, or copying a model directory
and pointing ``model:`` at it. Nothing guesses a backend or a file from a model's name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from conflictkit.errors import MissingDependencyError, ModelNotAvailableError, UserError, plugin_install_hint  # noqa: F401 (ModelNotAvailableError re-exported: its home was here)

INSTALL = plugin_install_hint("conflictkit-nli", needs_torch=True)


@dataclass(frozen=True)
class Preset:
    """A model conflictkit knows by a short name: its hub id, its role, and the config that uses it."""

    name: str
    repo_id: str
    role: str
    use: str


PRESETS: tuple[Preset, ...] = (
    Preset("nli-deberta-v3-base", "cross-encoder/nli-deberta-v3-base", "NLI judge (default)", "judge nli"),
    Preset("deberta-v3-base-mnli-fever-anli-ling-wanli", "MoritzLaurer/DeBERTa-v3-base-mnli-fever-anli-ling-wanli",
           "NLI judge", "judge nli"),
    Preset("bge-reranker-v2-m3", "BAAI/bge-reranker-v2-m3", "cross-encoder reranker (default)", "scorer cross-encoder"),
    Preset("all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", "embedder", "embedder sentence-transformers"),
)


def preset_repo(name: str) -> str:
    """The hub id of a preset's short name; any other name is taken as a hub id as it is."""
    for preset in PRESETS:
        if name in (preset.name, preset.repo_id):
            return preset.repo_id
    return name


def offline() -> bool:
    """Whether the hub must not be contacted (``HF_HUB_OFFLINE`` set to a true value)."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def hub_cache() -> Path:
    """The Hugging Face hub cache directory, read from the environment at call time."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"), "huggingface")
    return Path(home).expanduser() / "hub"


def _hub():
    try:
        import huggingface_hub
    except ImportError as exc:
        raise MissingDependencyError(f"loading models by id needs huggingface_hub: {INSTALL}") from exc
    return huggingface_hub


def how_to_obtain(model: str) -> str:
    return (
        f"run `conflictkit models pull {model}` on a machine that reaches the Hugging Face hub, "
        "or copy the model directory (config.json, weights, tokenizer files) here and set `model:` to its path"
    )


def cached_snapshot(repo_id: str, patterns: list[str] | None = None) -> Path | None:
    """The local snapshot of ``repo_id`` in the hub cache, or None when it is not there."""
    hub = _hub()
    try:
        path = Path(hub.snapshot_download(repo_id, allow_patterns=patterns, local_files_only=True, cache_dir=hub_cache()))
    except Exception:  # noqa: BLE001 - huggingface_hub raises several kinds for "not cached"
        return None
    return path if (path / "config.json").is_file() else None


def resolve_model(model: str, patterns: list[str] | None = None) -> Path:
    """A local directory holding ``model``: the path itself, a cached snapshot, or a fresh download."""
    local = Path(model).expanduser()
    if local.is_dir():
        if not (local / "config.json").is_file():
            raise ModelNotAvailableError(f"model directory {local} has no config.json; point `model:` at a Hugging Face model directory")
        return local
    if local.is_absolute() or model.startswith((".", "~")) or model.count("/") > 1:
        raise ModelNotAvailableError(f"model directory {model} does not exist; {how_to_obtain(model)}")
    repo_id = preset_repo(model)
    cached = cached_snapshot(repo_id, patterns)
    if cached is not None:
        return cached
    if offline():
        raise ModelNotAvailableError(
            f"model {repo_id!r} is not in the Hugging Face cache ({hub_cache()}) and HF_HUB_OFFLINE is set; {how_to_obtain(repo_id)}"
        )
    return download(repo_id, patterns)


def local_model_problem(model: str) -> str | None:
    """Why ``model`` cannot be loaded without the network when the hub is off limits; None when it can be (or may be downloaded)."""
    try:
        local = Path(model).expanduser()
        if local.is_dir():
            return None if (local / "config.json").is_file() else f"model directory {local} has no config.json"
        if local.is_absolute() or model.startswith((".", "~")) or model.count("/") > 1:
            return f"model directory {model} does not exist"
        if offline() and cached_snapshot(preset_repo(model)) is None:
            return f"model {preset_repo(model)!r} is not downloaded (conflictkit models pull {preset_repo(model)})"
    except Exception as exc:  # noqa: BLE001 - a missing huggingface_hub and the like: say so, do not crash the form
        return f"cannot check model {model!r}: {exc}"
    return None


def download(repo_id: str, patterns: list[str] | None = None) -> Path:
    """Fetch ``repo_id`` into the standard hub cache; a one-line error when the hub cannot be reached."""
    hub = _hub()
    try:
        return Path(hub.snapshot_download(repo_id, allow_patterns=patterns, cache_dir=hub_cache()))
    except Exception as exc:  # noqa: BLE001 - network, auth and not-found errors all end the same way
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ModelNotAvailableError(
            f"could not download model {repo_id!r} ({type(exc).__name__}: {reason}); "
            "check the name and the network, or copy the model directory here and set `model:` to its path"
        ) from None


def weight_patterns(backend: str, file_name: str | None) -> list[str]:
    """The files a backend needs from a model repository (not every ONNX variant a repo ships)."""
    common = ["*.json", "*.txt", "*.model", "tokenizer*", "spm*", "vocab*", "merges*", "sentencepiece*"]
    if backend == "onnx":
        return common + [file_name or "onnx/model.onnx", (file_name or "onnx/model.onnx") + "_data"]
    return common + ["*.safetensors"]
