"""YAML configuration: which backend runs each stage, with what options, and the thresholds.

A config is validated in full before any work: the top-level schema with pydantic
(``extra="forbid"``), then each backend's options against that backend's own ``Options`` model.
Every problem is collected and reported at once, each with its YAML path.

A judge given as a list is shorthand for a cascade: ``judge: [A, B]`` means
``judge: {use: cascade, options: {judges: [A, B]}}``.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from conflictkit.errors import ConfigError, UnknownBackendError
from conflictkit.lexicon import AUTO, DEFAULT_LANGUAGE, load
from conflictkit.stages import STAGES, StageName

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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ComponentSpec(_Strict):
    """``{use: NAME, options: {...}}``: a registered backend and its options."""

    use: str
    options: dict[str, Any] = Field(default_factory=dict)


class PipelineConfig(_Strict):
    segmenter: ComponentSpec = ComponentSpec(use="rules")
    filter: ComponentSpec | None = ComponentSpec(use="rules")
    embedder: ComponentSpec | None = ComponentSpec(use="onnx")
    retriever: ComponentSpec = ComponentSpec(use="cosine")
    scorer: ComponentSpec | None = None
    judge: ComponentSpec = ComponentSpec(use="legal-atoms")
    explainer: ComponentSpec | None = None

    @field_validator("judge", mode="before")
    @classmethod
    def _list_is_cascade(cls, value: Any) -> Any:
        if isinstance(value, list):
            return {"use": "cascade", "options": {"judges": value}}
        return value


class Thresholds(_Strict):
    same_matter: float = Field(0.3, ge=0.0, le=1.0, description="min P(same matter) to pair two clauses")
    conflict: float = Field(0.7, ge=0.0, le=1.0, description="min P(conflict) to report a deviation")


class AlignmentConfig(_Strict):
    """How clauses are aligned after judging (see conflictkit.align); not part of any cache key but the report's."""

    moved: float = Field(0.6, ge=0.0, le=1.0, description="min P(same matter) of an out-of-order pair to call it a move")
    gap_cost: float = Field(0.0, ge=0.0, le=1.0, description="cost of leaving a clause unaligned, against P(same) of a pair")
    run_containment: float = Field(
        0.8, gt=0.0, le=1.0,
        description="share of a clause's topic words found in a neighbour's counterpart to join it to that link (splits, merges)",
    )
    definitions: bool = Field(
        True, description="report deleted and added definitions (false: for unrelated agreements, whose definitions differ by nature)",
    )

    def options(self, thresholds: Thresholds):
        from conflictkit.align import AlignOptions

        return AlignOptions(same_matter=thresholds.same_matter, conflict=thresholds.conflict, moved=self.moved,
                            gap_cost=self.gap_cost, run_containment=self.run_containment,
                            definition_gaps=self.definitions)


class Limits(_Strict):
    """The budgets every input is held to, whatever it claims; an input over one is refused in one line
    (:class:`~conflictkit.errors.LimitError`, exit 2) before the work it would cost grows memory or time."""

    max_document_bytes: int = Field(20_000_000, gt=0, description="refuse documents larger than this")
    max_unpacked_bytes: int = Field(
        100_000_000, gt=0,
        description="what a file's compressed parts may unpack to: the parts of a .docx, the streams of a PDF; "
        "a zip or Flate bomb is refused before it is inflated",
    )
    max_paragraphs: int = Field(
        50_000, gt=0, description="paragraphs and table rows of a .docx (body, notes, headers and footers together)",
    )
    max_pages: int = Field(2_000, gt=0, description="pages of a PDF, refused before any page is read")
    max_page_objects: int = Field(
        2_000_000, gt=0,
        description="text runs, paths and images on a PDF's pages together, counted as each page is read",
    )
    max_clauses: int = Field(
        200_000, gt=0,
        description="refuse a document with more clauses than this, before embedding it",
    )
    max_clause_pairs: int = Field(
        625_000_000, gt=0,
        description="refuse a comparison whose clauses without an identical counterpart multiply to more than this "
        "(25,000 x 25,000), before embedding: retrieval scores every pair of them, so its time grows with that product",
    )


class SeverityConfig(_Strict):
    """How findings are ranked (see conflictkit.report.severity); part of the report's cache key."""

    table: str | None = Field(
        None, description="a severity table (YAML, shaped like conflictkit/judges/atoms/lang/en/tables/severity.yaml) instead "
        "of the judge's language's; a relative path is read from the config file's folder",
    )


class Config(_Strict):
    """The whole configuration. ``Config()`` is the offline default (configs/offline.yaml)."""

    version: Literal[1] = 1
    language: str = Field(
        DEFAULT_LANGUAGE,
        description="the language pack every stage reads words with (segmenter, filter, judge, redline): a pack's "
                    "code (`conflictkit languages` lists them), or auto to detect it from the two documents")
    pipeline: PipelineConfig = PipelineConfig()
    thresholds: Thresholds = Thresholds()
    alignment: AlignmentConfig = AlignmentConfig()
    limits: Limits = Limits()
    severity: SeverityConfig = SeverityConfig()

    def specs(self) -> dict[StageName, ComponentSpec | None]:
        return {stage: getattr(self.pipeline, stage) for stage in STAGES}

    @field_validator("language")
    @classmethod
    def _a_pack(cls, value: str) -> str:
        if value != AUTO:
            load(value)  # one line naming what is wrong: no such pack, or a pack incomplete or malformed
        return value


def _path(loc: tuple[Any, ...]) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def _format_errors(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[str]:
    problems = []
    for err in exc.errors():
        loc = prefix + tuple(p for p in err["loc"] if not (isinstance(p, str) and p.startswith("function-")))
        message = err["msg"].removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        problems.append(f"{_path(loc)}: {message}")
    return problems


def validate_backend_options(stage: StageName, spec: ComponentSpec, loc: tuple[Any, ...]) -> tuple[ComponentSpec, list[str]]:
    """Check ``spec`` against the registry and the backend's options; return it with defaults filled."""
    from conflictkit.registry import get_registry

    try:
        info = get_registry().get(stage, spec.use)
    except UnknownBackendError as exc:
        return spec, [f"{_path(loc + ('use',))}: {exc}"]
    try:
        options = info.cls.Options.model_validate(spec.options)
    except ValidationError as exc:
        return spec, _format_errors(exc, loc + ("options",))
    except ConfigError as exc:  # nested specs (a cascade's judges) report their own paths
        return spec, [f"{_path(loc + ('options',))}.{problem}" for problem in exc.problems]
    return ComponentSpec(use=spec.use, options=options.model_dump(mode="json")), []


def resolve(data: Any, source: str = "config") -> Config:
    """Validate raw config data and fill in every default; raise one ConfigError listing all problems."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping (version, pipeline, thresholds), not {type(data).__name__}")
    try:
        config = Config.model_validate(_judge_language_moved(data))
    except ValidationError as exc:
        raise ConfigError(_joined(source, _format_errors(exc))) from None
    problems: list[str] = []
    resolved: dict[str, Any] = {}
    for stage, spec in config.specs().items():
        if spec is None:
            resolved[stage] = None
            continue
        filled, errs = validate_backend_options(stage, spec, ("pipeline", stage))
        problems.extend(errs)
        resolved[stage] = filled
    if config.severity.table:
        from conflictkit.report.severity import load_table

        try:
            load_table(config.severity.table)
        except ConfigError as exc:
            problems.extend(f"severity.table: {p}" for p in exc.problems)
    if problems:
        raise ConfigError(_joined(source, problems))
    return config.model_copy(update={"pipeline": PipelineConfig.model_construct(**resolved)})


def _judge_language_moved(data: dict[str, Any]) -> dict[str, Any]:
    """Configs written before language packs chose the language in the legal-atoms judge's options
    (``pipeline.judge.options.language``); it is the top-level ``language`` now, read from there when
    the config gives no top-level one."""
    judge = data.get("pipeline", {}).get("judge") if isinstance(data.get("pipeline"), dict) else None
    options = judge.get("options") if isinstance(judge, dict) else None
    if not isinstance(options, dict) or "language" not in options or judge.get("use") != "legal-atoms":
        return data
    options = {k: v for k, v in options.items() if k != "language"}
    moved = {**data, "pipeline": {**data["pipeline"], "judge": {**judge, "options": options}}}
    moved.setdefault("language", judge["options"]["language"])
    return moved


def _joined(source: str, problems: list[str]) -> str:
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return f"invalid config {source} ({count}): " + "; ".join(problems)


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


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Load and resolve a config file (or a preset name); ``None`` gives the offline default."""
    if path is None:
        return resolve({}, "offline default")
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
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"config {path} is not valid YAML{where}: {problem}") from None
    return resolve(_relative_to(data, file.parent), str(path))


def _relative_to(data: Any, folder: Path) -> Any:
    """Config data with the files it names (``severity.table``) read from ``folder`` when relative."""
    severity = data.get("severity") if isinstance(data, dict) else None
    table = severity.get("table") if isinstance(severity, dict) else None
    if isinstance(table, str) and table and not Path(table).expanduser().is_absolute():
        data = {**data, "severity": {**severity, "table": str((folder / table).resolve())}}
    return data


SECRET_KEYS = frozenset({"api_key", "token", "password", "secret", "access_token"})
REDACTED = "***"


def redact(data: Any) -> Any:
    """A copy of config data with secrets (``api_key``, ``token``...) replaced, for anything written or shown."""
    if isinstance(data, dict):
        return {k: (REDACTED if k in SECRET_KEYS and v else redact(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [redact(v) for v in data]
    return data


def config_data(config: Config) -> dict[str, Any]:
    """The resolved config as plain data with secrets redacted: what reports and params.json keep."""
    return redact(config.model_dump(mode="json"))


def dump_config(config: Config) -> str:
    """The resolved config as YAML, defaults included, secrets redacted: what ``config show`` prints."""
    return yaml.safe_dump(config_data(config), sort_keys=False, default_flow_style=False)
