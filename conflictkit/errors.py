"""Errors a user can act on. The CLI prints their message on one line and exits with ``exit_code``."""

from __future__ import annotations

import errno

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_FINDINGS = 3
EXIT_PARTIAL = 4  # a batch finished, but some of its pairs failed


class ConflictkitError(Exception):
    """Base of every error meant for a user: the message says what is wrong and what to do."""

    exit_code = EXIT_FAILURE


class UserError(ConflictkitError):
    """Bad input, bad usage or a bad config: exit code 2."""

    exit_code = EXIT_USAGE


class InputError(UserError):
    """A document that cannot be read or compared (missing, empty, binary, wrong encoding...)."""


class LimitError(InputError):
    """An input over one of the budgets it is held to (the config's ``limits:``), refused before the
    work it would cost grows memory or time; the message names the limit to raise."""


def over_limit(subject: str, amount: str, key: str, limit: str, fix: str = "split it") -> LimitError:
    """The one-line refusal of an input over ``limits.<key>``: "x.pdf has 9,000 pages, over the limit
    of 5,000; split it, or raise limits.max_pages in the config"."""
    return LimitError(f"{subject} has {amount}, over the limit of {limit}; {fix}, or raise limits.{key} in the config")


class ConfigError(UserError):
    """A configuration that fails validation; the message lists every problem with its YAML path.

    ``problems`` keeps them apart, so a config nested in another (a cascade's judges) can prefix
    each with its own path.
    """

    def __init__(self, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems = problems or [message]


class UnknownBackendError(ConfigError):
    """A config names a backend that is not registered; the message lists the available ones."""


# PyPI's torch wheel for Linux is the CUDA build (several GB); PyTorch's own index has the CPU one.
TORCH_CPU_INSTALL = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu"


def plugin_install_hint(dist: str, needs_torch: bool = False) -> str:
    """How to install one of this repository's backend plugins: they are not published on PyPI."""
    command = f"pip install ./backends/{dist} (from a conflictkit checkout)"
    return f"{TORCH_CPU_INSTALL}, then {command}" if needs_torch else command


class MissingDependencyError(ConflictkitError):
    """A backend needs a package that is not installed; the message names the pip install."""

    exit_code = EXIT_USAGE


class ModelNotAvailableError(UserError):
    """A configured model is neither a local directory nor in the Hugging Face cache, and cannot be fetched."""


class BackendError(ConflictkitError):
    """A backend failed at run time (an API error, a model that cannot be loaded...)."""


class ResponseError(BackendError):
    """A hosted API answered, but not with what its endpoint promises (an HTML page, malformed JSON,
    a NaN score, a vector of the wrong size): exit 2, and nothing of that answer is cached."""

    exit_code = EXIT_USAGE


class GroundingError(ConflictkitError):
    """The engine produced a finding whose span does not match its source: a bug, never output."""


# What to do about each OS error a write can meet; the rest get the system's own words only.
_OS_ERROR_HINTS = {
    errno.ENOSPC: "free some space or write elsewhere",
    errno.EDQUOT: "free some space or write elsewhere",
    errno.EROFS: "the file system is read-only: write elsewhere",
    errno.EACCES: "choose a location you can write to",
    errno.EPERM: "the file or folder is protected (immutable?): choose another location",
    errno.ENAMETOOLONG: "use a shorter name (at most 255 bytes per name)",
}


class OutputError(UserError):
    """A file or folder that cannot be written (full disk, read-only, permission, name too long): exit 2."""

    @classmethod
    def from_os_error(cls, path: object, exc: OSError, action: str = "write") -> OutputError:
        """One line naming ``path``, the cause in the system's words, and what to do."""
        hint = _OS_ERROR_HINTS.get(exc.errno or 0)
        cause = exc.strerror or str(exc)
        return cls(f"cannot {action} {path}: {cause}" + (f"; {hint}" if hint else ""))


def is_environment_error(exc: BaseException) -> bool:
    """Whether an OSError comes from the machine (disk full, read-only, permissions), not from a bug."""
    return isinstance(exc, OSError) and exc.errno in _OS_ERROR_HINTS
