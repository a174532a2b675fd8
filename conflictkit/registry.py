"""The backend registry: which backend class provides each (stage, name), and which package ships it.

Built-in backends are plugins like any other (listed in ``DEFAULT_PLUGINS``); installed packages
load through the entry-point group ``conflictkit``. ``CONFLICTKIT_LOAD_PLUGINS`` restricts which
installed plugins load (comma-separated entry-point names; empty string loads none).
"""

from __future__ import annotations

import importlib
import itertools
import os
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import pluggy

from conflictkit import hookspecs
from conflictkit.errors import ConfigError, UnknownBackendError, plugin_install_hint
from conflictkit.stages import STAGE_CLASSES, Component, Loader, Renderer, StageName

ENTRY_POINT_GROUP = "conflictkit"
_GENERATIONS = itertools.count(1)

# Built-in plugin modules, each registering the backends it defines (simonw/llm style).
DEFAULT_PLUGINS: tuple[str, ...] = (
    "conflictkit.formats.text",
    "conflictkit.formats.html",
    "conflictkit.bench.baselines",
    "conflictkit.segmenters.rules",
    "conflictkit.filters.rules",
    "conflictkit.embedders.hashing",
    "conflictkit.retrievers.cosine",
    "conflictkit.judges.compose",
    "conflictkit.judges.atoms",
    "conflictkit.report.renderers",
)


# Backends of the plugin packages in this repository, so an unknown name can say what to install.
KNOWN_PLUGINS: dict[str, str] = {
    "onnx": "conflictkit-onnx",
    "sentence-transformers": "conflictkit-sentence-transformers",
    "bm25": "conflictkit-bm25",
    "hybrid": "conflictkit-bm25",
    "nli": "conflictkit-nli",
    "cross-encoder": "conflictkit-nli",
    "isaacus": "conflictkit-isaacus",
    "docx": "conflictkit-docx",
    "pdf": "conflictkit-pdf",
    "llm": "conflictkit-openai",
}
TORCH_PLUGINS = frozenset({"conflictkit-sentence-transformers", "conflictkit-nli"})


@dataclass(frozen=True)
class BackendInfo:
    """One registered backend: its stage, config name, class and the package that provides it."""

    stage: StageName
    name: str
    cls: type[Component]
    package: str


class Registry:
    """Backends by stage and name, and the legal-atoms judge's rule families. Refuses duplicates; an
    unknown name lists the available ones."""

    def __init__(self) -> None:
        self._backends: dict[StageName, dict[str, BackendInfo]] = {stage: {} for stage in STAGE_CLASSES}
        self._families: dict[str, tuple[Any, str]] = {}
        self.generation = next(_GENERATIONS)
        """Which registry this is: what is derived from its families (the judge's options) is keyed by it."""

    def add_family(self, family: Any, package: str) -> None:
        """A rule family of the legal-atoms judge, from ``package``; a second family of one name is refused."""
        from conflictkit.judges.atoms.family import Family

        if not isinstance(family, Family):
            raise ConfigError(f"{package}: register_families registered {family!r}, not a Family")
        existing = self._families.get(family.name)
        if existing is not None and existing[0] is not family:
            raise ConfigError(f"rule family {family.name!r} is registered twice: by {existing[1]} and by {package}; "
                              "uninstall one of them or rename the family")
        providers = {name: other for other, _ in self._families.values() if other is not family for name in other.facts}
        clash = next((name for name in family.facts if name in providers), None)
        if clash is not None:
            raise ConfigError(f"{package}: family {family.name!r} provides the fact {clash!r}, which family "
                              f"{providers[clash].name!r} provides already")
        self._families[family.name] = (family, package)

    def families(self) -> tuple[Any, ...]:
        """Every registered rule family, in extraction order (``claims``, then name)."""
        return tuple(sorted((f for f, _ in self._families.values()), key=lambda f: (f.claims, f.name)))

    def family_package(self, name: str) -> str:
        """The package that registered the family ``name``."""
        return self._families[name][1]

    def add(self, cls: type[Component], package: str) -> None:
        stage = getattr(cls, "stage", None)
        if stage not in STAGE_CLASSES or not issubclass(cls, STAGE_CLASSES[stage]):
            raise ConfigError(f"{package}: {cls!r} is not a conflictkit stage backend")
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise ConfigError(f"{package}: backend {cls.__qualname__} has no name")
        existing = self._backends[stage].get(name)
        if existing is not None and existing.cls is not cls:
            raise ConfigError(
                f"{stage} backend {name!r} is registered twice: by {existing.package} and by {package}; "
                "uninstall one of them or rename the backend"
            )
        self._backends[stage][name] = BackendInfo(stage, name, cls, package)

    def get(self, stage: StageName, name: str) -> BackendInfo:
        try:
            return self._backends[stage][name]
        except KeyError:
            available = ", ".join(sorted(self._backends[stage])) or "none"
            package = KNOWN_PLUGINS.get(name)
            hint = (
                f"it is in the {package} plugin: {plugin_install_hint(package, needs_torch=package in TORCH_PLUGINS)}"
                if package
                else "install the plugin that provides it, then check `conflictkit backends`"
            )
            raise UnknownBackendError(f"unknown {stage} backend {name!r}; available: {available} ({hint})") from None

    def names(self, stage: StageName) -> list[str]:
        return sorted(self._backends[stage])

    def all(self) -> list[BackendInfo]:
        return [info for stage in STAGE_CLASSES for info in sorted(self._backends[stage].values(), key=lambda i: i.name)]

    def renderer(self, name: str) -> type[Renderer]:
        """The renderer of ``--format name``; an unknown name lists the installed formats and says what to install."""
        if name not in self._backends["renderer"]:
            package = KNOWN_PLUGINS.get(name)
            hint = (f"it is in the {package} plugin: {plugin_install_hint(package)}" if package
                    else "install the plugin that provides it, then check `conflictkit backends`")
            raise UnknownBackendError(f"unknown --format {name!r}; installed: {', '.join(self.names('renderer'))} ({hint})")
        return self._backends["renderer"][name].cls  # type: ignore[return-value]

    def loaders(self) -> list[type[Loader]]:
        """Every registered loader class, by name."""
        return [info.cls for info in sorted(self._backends["loader"].values(), key=lambda i: i.name)]  # type: ignore[misc]


def _package_of(plugin: object, dists: dict[str, str]) -> str:
    module = getattr(plugin, "__name__", "")
    top = module.split(".")[0]
    return dists.get(top, top)


def _load_entry_points(pm: pluggy.PluginManager) -> None:
    allowed = os.environ.get("CONFLICTKIT_LOAD_PLUGINS")
    allow = None if allowed is None else {n.strip() for n in allowed.split(",") if n.strip()}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if allow is not None and ep.name not in allow:
            continue
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            plugin = ep.load()
        except Exception as exc:  # one broken plugin must not take the others down with it
            print(
                f"conflictkit: warning: plugin {ep.name!r} ({ep.value}) failed to import ({type(exc).__name__}: {exc}); "
                "its backends are unavailable: reinstall or uninstall it",
                file=sys.stderr,
            )
            continue
        pm.register(plugin, name=ep.name)


def build_plugin_manager(load_entry_points: bool = True) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("conflictkit")
    pm.add_hookspecs(hookspecs)
    for module_name in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(module_name), name=module_name)
    if load_entry_points:
        _load_entry_points(pm)
    pm.check_pending()
    return pm


def _distributions() -> dict[str, str]:
    """Top-level module -> distribution name, for the plugins' own modules only.

    Read from the entry points (which say which distribution declares them): scanning every
    installed distribution's file list (``packages_distributions``) took a quarter of a second.
    """
    mapping = {"conflictkit": "conflictkit"}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.dist is not None:
            mapping.setdefault(ep.module.split(".")[0], ep.dist.name)
    return mapping


def build_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """Collect every backend that the default and installed plugins register."""
    pm = pm or get_plugin_manager()
    registry = Registry()
    dists = _distributions()
    hooks = {
        "loader": pm.hook.register_loaders,
        "segmenter": pm.hook.register_segmenters,
        "filter": pm.hook.register_filters,
        "embedder": pm.hook.register_embedders,
        "retriever": pm.hook.register_retrievers,
        "scorer": pm.hook.register_scorers,
        "judge": pm.hook.register_judges,
        "explainer": pm.hook.register_explainers,
        "renderer": pm.hook.register_renderers,
    }
    for impl in pm.hook.register_families.get_hookimpls():
        def register_family(family: Any, _package: str = _package_of(impl.plugin, dists)) -> None:
            registry.add_family(family, _package)

        impl.function(register=register_family)
    for stage, hook in hooks.items():
        for impl in hook.get_hookimpls():
            package = _package_of(impl.plugin, dists)

            def register(cls: type[Component], _package: str = package, _stage: str = stage) -> None:
                if getattr(cls, "stage", None) != _stage:
                    raise ConfigError(f"{_package}: {cls.__qualname__} registered as a {_stage} but is a {cls.stage}")
                registry.add(cls, _package)

            impl.function(register=register)
    return registry


_PM: pluggy.PluginManager | None = None
_REGISTRY: Registry | None = None


def get_plugin_manager() -> pluggy.PluginManager:
    global _PM
    if _PM is None:
        _PM = build_plugin_manager(load_entry_points=os.environ.get("CONFLICTKIT_NO_ENTRY_POINTS") != "1")
    return _PM


def get_registry() -> Registry:
    """The process-wide registry, built on first use."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = build_registry(get_plugin_manager())
    return _REGISTRY


def reset() -> None:
    """Forget the plugin manager and registry (tests, or after installing a plugin at run time)."""
    global _PM, _REGISTRY
    _PM = None
    _REGISTRY = None
