"""YAML configuration: which backend runs each stage, with what options, and the thresholds.

A config is validated in full before any work: the top-level schema with pydantic
(``extra="forbid"``), then each backend's options against that backend's own ``Options`` model.
Every problem is collected and reported at once, each with its YAML path.

A judge given as a list is shorthand for a cascade: ``judge: [A, B]`` means
``judge: {use: cascade, options: {judges: [A, B]}}``.
"""

from __future__ import annotations

import os
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from conflictkit.configfile import (  # noqa: F401 (re-exported: where config files are found and read)
    MAX_DEPTH,
    PRESETS_DIR,
    load_yaml,
    locate_config,
    looks_like_path,
    preset_dirs,
    preset_names,
    preset_path,
    read_config,
)
from conflictkit.errors import ConfigError, UnknownBackendError
from conflictkit.lexicon import AUTO, DEFAULT_LANGUAGE, load
from conflictkit.stages import STAGES, StageName

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


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


def format_errors(exc: ValidationError, prefix: tuple[Any, ...] = ()) -> list[str]:
    """Each problem of a pydantic validation error as ``dotted.path: message`` (``unknown key`` for extra keys)."""
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
        return spec, format_errors(exc, loc + ("options",))
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
        raise ConfigError(joined_problems(source, format_errors(exc))) from None
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
        raise ConfigError(joined_problems(source, problems))
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


def joined_problems(source: str, problems: list[str], what: str = "config") -> str:
    """One line for every problem of a file: ``invalid config F (2 problems): a: ...; b: ...``."""
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    return f"invalid {what} {source} ({count}): " + "; ".join(problems)


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """Load and resolve a config file (or a preset name); ``None`` gives the offline default."""
    return resolve(*read_config(path))


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
