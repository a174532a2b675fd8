"""The backend registry: which backend class provides each (stage, name), and which package ships it.

Built-in backends are plugins like any other (listed in ``DEFAULT_PLUGINS``); installed packages
load through the entry-point group ``conflictkit``. ``CONFLICTKIT_LOAD_PLUGINS`` restricts which
installed plugins load (comma-separated entry-point names; empty string loads none).

Everything here is lazy, so a command pays only for what it uses: the entry points are read once,
when the plugin manager is first needed, and a stage's backends are collected (its
``register_<stage>s`` hooks called, which import the backend modules) the first time a backend of
that stage is looked up. A plugin module should therefore import its backends inside its hooks.
"""

from __future__ import annotations

import importlib
import itertools
import os
import sys
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any

import pluggy

from conflictkit import hookspecs
from conflictkit.errors import ConfigError, UnknownBackendError, plugin_install_hint

if TYPE_CHECKING:
    from conflictkit.stages import Component, Loader, Renderer, StageName

ENTRY_POINT_GROUP = "conflictkit"
_GENERATIONS = itertools.count(1)

# Every stage a plugin can register backends for, in the order `conflictkit backends` lists them;
# each has a ``register_<stage>s`` hook in :mod:`conflictkit.hookspecs`.
STAGE_HOOKS: tuple[StageName, ...] = (
    "loader", "segmenter", "filter", "embedder", "retriever", "scorer", "judge", "explainer", "renderer",
)

# Built-in plugin modules: the one that registers the built-in backends (simonw/llm style).
DEFAULT_PLUGINS: tuple[str, ...] = ("conflictkit.plugins",)


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
    unknown name lists the available ones.

    Built from a plugin manager, a stage's backends are collected the first time that stage is
    asked about (the plugins' hooks for other stages are not called, so their modules stay unimported);
    the rule families the first time they are asked for.
    """

    def __init__(self, plugin_manager: pluggy.PluginManager | None = None, packages: dict[str, str] | None = None,
                 versions: dict[str, str] | None = None) -> None:
        self._backends: dict[str, dict[str, BackendInfo]] = {stage: {} for stage in STAGE_HOOKS}
        self._pm = plugin_manager
        self._packages = {"conflictkit": "conflictkit", **(packages or {})}
        self._versions = dict(versions or {})
        self._collected: set[str] = set()
        self._families: dict[str, tuple[Any, str]] = {}
        self.generation = next(_GENERATIONS)
        """Which registry this is: what is derived from its families (the judge's options) is keyed by it."""

    def version_of(self, package: str) -> str | None:
        """The installed version of a package that provides backends (read with the entry points, else from
        its metadata; None when it is not installed as a distribution)."""
        from importlib import metadata

        from conflictkit import __version__

        if package == "conflictkit":
            return __version__
        if package not in self._versions:
            try:
                self._versions[package] = metadata.version(package)
            except metadata.PackageNotFoundError:
                return None
        return self._versions[package]

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

    def _collect_families(self) -> dict[str, tuple[Any, str]]:
        """The rule families, collected from the plugins' ``register_families`` hooks on first use."""
        if "families" not in self._collected and self._pm is not None:
            self._collected.add("families")
            for impl in self._pm.hook.register_families.get_hookimpls():
                def register_family(family: Any, _package: str = _package_of(impl.plugin, self._packages)) -> None:
                    self.add_family(family, _package)

                impl.function(register=register_family)
        return self._families

    def families(self) -> tuple[Any, ...]:
        """Every registered rule family, in extraction order (``claims``, then name)."""
        return tuple(sorted((f for f, _ in self._collect_families().values()), key=lambda f: (f.claims, f.name)))

    def family_package(self, name: str) -> str:
        """The package that registered the family ``name``."""
        return self._collect_families()[name][1]

    def add(self, cls: type[Component], package: str) -> None:
        from conflictkit.stages import STAGE_CLASSES

        stage = getattr(cls, "stage", None)
        if stage not in STAGE_CLASSES or not isinstance(cls, type) or not issubclass(cls, STAGE_CLASSES[stage]):
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

    def _stage(self, stage: StageName) -> dict[str, BackendInfo]:
        """The backends of ``stage``, collected from the plugins on first use."""
        if stage not in self._collected and self._pm is not None:
            self._collected.add(stage)
            for impl in getattr(self._pm.hook, f"register_{stage}s").get_hookimpls():
                package = _package_of(impl.plugin, self._packages)

                def register(cls: type[Component], _package: str = package, _stage: str = stage) -> None:
                    if getattr(cls, "stage", None) != _stage:
                        raise ConfigError(f"{_package}: {getattr(cls, '__qualname__', cls)!r} registered as a {_stage} "
                                          f"but is a {getattr(cls, 'stage', 'non-backend')}")
                    self.add(cls, _package)

                impl.function(register=register)
        return self._backends[stage]

    def get(self, stage: StageName, name: str) -> BackendInfo:
        backends = self._stage(stage)
        try:
            return backends[name]
        except KeyError:
            available = ", ".join(sorted(backends)) or "none"
            package = KNOWN_PLUGINS.get(name)
            hint = (
                f"it is in the {package} plugin: {plugin_install_hint(package, needs_torch=package in TORCH_PLUGINS)}"
                if package
                else "install the plugin that provides it, then check `conflictkit backends`"
            )
            raise UnknownBackendError(f"unknown {stage} backend {name!r}; available: {available} ({hint})") from None

    def names(self, stage: StageName) -> list[str]:
        return sorted(self._stage(stage))

    def all(self) -> list[BackendInfo]:
        return [info for stage in STAGE_HOOKS for info in sorted(self._stage(stage).values(), key=lambda i: i.name)]

    def renderer(self, name: str) -> type[Renderer]:
        """The renderer of ``--format name``; an unknown name lists the installed formats and says what to install."""
        renderers = self._stage("renderer")
        if name not in renderers:
            package = KNOWN_PLUGINS.get(name)
            hint = (f"it is in the {package} plugin: {plugin_install_hint(package)}" if package
                    else "install the plugin that provides it, then check `conflictkit backends`")
            raise UnknownBackendError(f"unknown --format {name!r}; installed: {', '.join(self.names('renderer'))} ({hint})")
        return renderers[name].cls  # type: ignore[return-value]

    def loaders(self) -> list[type[Loader]]:
        """Every registered loader class, by name."""
        return [info.cls for info in sorted(self._stage("loader").values(), key=lambda i: i.name)]  # type: ignore[misc]


class PluginManager(pluggy.PluginManager):
    """pluggy's manager, plus which distribution ships each entry-point plugin (read with the entry points)."""

    def __init__(self) -> None:
        super().__init__("conflictkit")
        self.packages: dict[str, str] = {}  # top-level module of a plugin -> its distribution's name
        self.versions: dict[str, str] = {}  # distribution's name -> its version, as the entry points found it


def _package_of(plugin: object, packages: dict[str, str]) -> str:
    top = getattr(plugin, "__name__", "").split(".")[0]
    return packages.get(top, top)


def _load_entry_points(pm: PluginManager) -> None:
    allowed = os.environ.get("CONFLICTKIT_LOAD_PLUGINS")
    allow = None if allowed is None else {n.strip() for n in allowed.split(",") if n.strip()}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.dist is not None:
            pm.packages.setdefault(ep.module.split(".")[0], ep.dist.name)
            pm.versions.setdefault(ep.dist.name, ep.dist.version)
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


def build_plugin_manager(load_entry_points: bool = True) -> PluginManager:
    """The hook specs, the built-in plugin modules and (unless told not to) the installed plugins' modules.

    Plugin modules are imported here; the backends they register are imported when their stage is
    first looked up (see :class:`Registry`).
    """
    pm = PluginManager()
    pm.add_hookspecs(hookspecs)
    for module_name in DEFAULT_PLUGINS:
        pm.register(importlib.import_module(module_name), name=module_name)
    if load_entry_points:
        _load_entry_points(pm)
    pm.check_pending()
    return pm


def build_registry(pm: pluggy.PluginManager | None = None) -> Registry:
    """A registry of every backend that the default and installed plugins register, collected stage by stage on use."""
    pm = pm or get_plugin_manager()
    return Registry(pm, getattr(pm, "packages", None), getattr(pm, "versions", None))


_PM: PluginManager | None = None
_REGISTRY: Registry | None = None


def get_plugin_manager() -> PluginManager:
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
