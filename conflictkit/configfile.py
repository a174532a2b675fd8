"""Where config files are found and how they are read: presets, YAML without duplicate keys.

Reading a config gives its data as written; :func:`conflictkit.config.resolve` validates it. Kept
apart from the config models so that reading one imports neither pydantic nor any backend.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from conflictkit.errors import ConfigError

# The top-level configs/ folder, installed as the package conflictkit.presets (setup.py maps it), so
# presets are found the same way in a checkout, an editable install and a wheel.
PRESETS_DIR = Path(str(resources.files("conflictkit.presets")))


MAX_DEPTH = 64  # levels of nesting a config may have; every real one has fewer than 10


def load_yaml(text: str) -> Any:
    """``yaml.safe_load``, refusing a key given twice in one mapping (PyYAML keeps the last silently)
    and nesting deeper than :data:`MAX_DEPTH` (PyYAML composes recursively: 10,000 levels crash it).

    A duplicate raises ``yaml.YAMLError`` whose ``problem`` names the key's YAML path and the line
    of its first occurrence, and whose mark is the second one, like any other YAML error.
    """
    _refuse_deep_nesting(text)
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _refuse_duplicate_keys(node, (), set())
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _refuse_deep_nesting(text: str) -> None:
    """Count nesting on the token stream (the scanner does not recurse) before anything composes it."""
    opening = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken, yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)
    closing = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    depth = 0
    for token in yaml.scan(text, Loader=yaml.SafeLoader):
        if isinstance(token, opening):
            depth += 1
            if depth > MAX_DEPTH:
                raise yaml.constructor.ConstructorError(
                    None, None, f"nested more than {MAX_DEPTH} levels deep; a config needs a few", token.start_mark)
        elif isinstance(token, closing):
            depth -= 1


def _refuse_duplicate_keys(node: yaml.Node, path: tuple[str, ...], seen: set[int]) -> None:
    if id(node) in seen:  # an alias of a node already checked (anchors may even be recursive)
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first: dict[tuple[str, str], int] = {}
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value != "<<":
                where = (key.tag, key.value)
                if where in first:
                    dotted = ".".join((*path, key.value))
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {dotted} (first given at line {first[where]}); keep one", key.start_mark)
                first[where] = key.start_mark.line + 1
            _refuse_duplicate_keys(value, (*path, str(key.value)), seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _refuse_duplicate_keys(item, (*path, f"[{index}]"), seen)


def preset_dirs() -> list[Path]:
    """Where presets are looked up, first match wins: $CONFLICTKIT_CONFIGS (os.pathsep-separated), then the shipped ones."""
    return [Path(d) for d in os.environ.get("CONFLICTKIT_CONFIGS", "").split(os.pathsep) if d] + [PRESETS_DIR]


def preset_path(name: str) -> Path | None:
    """The file of a named preset (``offline``, ``isaacus``...), or None when no preset has that name."""
    for directory in preset_dirs():
        candidate = directory / f"{name}.yaml"
        if candidate.is_file():
            return candidate
    return None


def preset_names() -> list[str]:
    """Every preset name a user may give to ``--config``, sorted."""
    return sorted({p.stem for d in preset_dirs() if d.is_dir() for p in d.glob("*.yaml")})


def looks_like_path(value: str) -> bool:
    """Whether a --config argument names a file (a separator, or a .yaml/.yml ending), not a preset."""
    separators = [os.sep, "/"] + ([os.altsep] if os.altsep else [])
    return any(sep in value for sep in separators) or value.endswith((".yaml", ".yml"))


def locate_config(value: str | os.PathLike[str]) -> Path:
    """The file a --config argument means: a preset for a bare name (even when a same-named file or
    folder is in the current directory), else the path as given."""
    text = os.fspath(value)
    if not looks_like_path(text):
        preset = preset_path(text)
        if preset is not None:
            return preset
    return Path(text)


def read_config(path: str | os.PathLike[str] | None = None) -> tuple[Any, str]:
    """A config file's data as written (not yet validated) and how to name it in messages; ``None`` is
    the offline default (no data: every default). Raises ConfigError for a missing or unreadable file."""
    if path is None:
        return {}, "offline default"
    file = locate_config(path)
    try:
        if not file.exists():
            raise ConfigError(f"config file {path} does not exist; give a YAML file or a preset name such as 'offline'")
        if file.is_dir():
            raise ConfigError(f"config {path} is a directory; give a YAML file")
        text = file.read_text(encoding="utf-8")
    except PermissionError:
        raise ConfigError(f"cannot read config {path}: permission denied; check the permissions of the file and its folders") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read config {path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    try:
        return _relative_to(load_yaml(text), file.parent), str(path)
    except yaml.YAMLError as exc:
        raise ConfigError(f"config {path} is not valid YAML{yaml_problem(exc)}") from None


def yaml_problem(exc: yaml.YAMLError) -> str:
    """Where and what a YAML error is, to follow "is not valid YAML": `` at line 3, column 5: <problem>``."""
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    return f"{where}: {problem}"


def _relative_to(data: Any, folder: Path) -> Any:
    """Config data with the files it names (``severity.table``) read from ``folder`` when relative."""
    table = named_files(data).get("severity.table")
    if table and not Path(table).expanduser().is_absolute():
        data = {**data, "severity": {**data["severity"], "table": str((folder / table).resolve())}}
    return data


def named_files(data: Any) -> dict[str, str]:
    """The files a config's data names besides itself, by their key (``severity.table``): what they hold
    is part of what a comparison is made from."""
    severity = data.get("severity") if isinstance(data, dict) else None
    table = severity.get("table") if isinstance(severity, dict) else None
    return {"severity.table": table} if isinstance(table, str) and table else {}
