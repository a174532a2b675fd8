"""The ``conflictkit`` command line.

Exit codes: 0 done; 1 unexpected failure; 2 usage, config or input error; 3 findings matched
``--fail-on`` (or, for ``verify``, an extraction that is not grounded); 4 a batch in which some pairs failed.

Each command lives in its own module under ``conflictkit.cli`` and is listed in ``COMMANDS``;
installed plugins add theirs through the ``register_commands(cli)`` hook.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys

import click

from conflictkit import __version__
from conflictkit.errors import EXIT_FAILURE, EXIT_USAGE, ConflictkitError, OutputError, is_environment_error

# (module, attribute) of each built-in command, in the order --help lists them.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("conflictkit.cli.compare", "compare"),
    ("conflictkit.cli.batch", "batch"),
    ("conflictkit.cli.inspect", "backends"),
    ("conflictkit.cli.inspect", "config"),
    ("conflictkit.cli.languages", "languages"),
    ("conflictkit.cli.bench", "bench"),
    ("conflictkit.cli.calibrate", "calibrate"),
    ("conflictkit.cli.explain", "explain"),
    ("conflictkit.cli.verify", "verify"),
    ("conflictkit.cli.serve", "serve"),
)


class _CommandGroup(click.Group):
    """The top-level group: commands (and the plugins that add some) load only when a command
    is looked up or listed, so ``--version`` imports no plugin at all."""

    _loaded = False

    def _load(self) -> None:
        if not self._loaded:
            type(self)._loaded = True
            _add_commands(self)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        self._load()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load()
        return super().list_commands(ctx)


@click.group(cls=_CommandGroup, context_settings={
    "help_option_names": ["-h", "--help"],
    "max_content_width": 100,
    # the real width on a terminal; 100 columns when piped (click would assume 80)
    "terminal_width": shutil.get_terminal_size((100, 24)).columns,
})
@click.version_option(__version__, prog_name="conflictkit")
def cli() -> None:
    """Find conflicts between two legal documents.

    Compares an INPUT document (a draft, a new version, a vendor's paper) against a REFERENCE
    (a template, the old version, a playbook) and reports deviations, missing and added clauses,
    each with exact character spans in both originals.
    """


def _add_commands(group: click.Group) -> None:
    for module_name, attr in COMMANDS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        group.add_command(getattr(module, attr))
    from conflictkit.registry import get_plugin_manager

    get_plugin_manager().hook.register_commands(cli=group)


def fail(message: str, code: int) -> None:
    """Print a one-line error on stderr and exit with ``code``.

    Messages quote file names and document text, so control characters are shown, not obeyed.
    """
    from conflictkit.report.escape import sanitize_controls

    click.echo(f"conflictkit: error: {sanitize_controls(message)}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point: runs the CLI and turns every user error into one line and an exit code."""
    try:
        result = cli.main(args=argv, prog_name="conflictkit", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        fail("interrupted", 130)
    except click.UsageError as exc:
        command = exc.ctx.command_path if exc.ctx is not None else "conflictkit"
        fail(f"{exc.format_message()} (see '{command} --help')", exc.exit_code)
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except ConflictkitError as exc:
        fail(str(exc), exc.exit_code)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except BrokenPipeError:
        sys.exit(EXIT_FAILURE)
    except Exception as exc:
        if is_environment_error(exc) and not os.environ.get("CONFLICTKIT_DEBUG"):  # a full disk, not a bug
            fail(str(OutputError.from_os_error(getattr(exc, "filename", None) or "a file", exc, "use")), EXIT_USAGE)
        if os.environ.get("CONFLICTKIT_DEBUG"):  # a bug, not a user error: say so, keep the traceback on request
            raise
        fail(f"unexpected failure: {type(exc).__name__}: {exc} (set CONFLICTKIT_DEBUG=1 for the traceback, and please report it)", EXIT_FAILURE)
    sys.exit(result if isinstance(result, int) else 0)


__all__ = ["cli", "main", "fail", "EXIT_USAGE"]
