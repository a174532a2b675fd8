"""Errors a user can act on. The CLI prints their message on one line and exits with ``exit_code``."""

from __future__ import annotations

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


class MissingDependencyError(ConflictkitError):
    """A backend needs a package that is not installed; the message names the pip install."""

    exit_code = EXIT_USAGE


class BackendError(ConflictkitError):
    """A backend failed at run time (an API error, a model that cannot be loaded...)."""


class GroundingError(ConflictkitError):
    """The engine produced a finding whose span does not match its source: a bug, never output."""
