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

# name -> (module, attribute) of each built-in command, in the order --help lists them.
COMMANDS: dict[str, tuple[str, str]] = {
    "compare": ("conflictkit.cli.compare", "compare"),
    "review": ("conflictkit.cli.review", "review"),
    "playbook": ("conflictkit.cli.playbook", "playbook"),
    "batch": ("conflictkit.cli.batch", "batch"),
    "backends": ("conflictkit.cli.inspect", "backends"),
    "config": ("conflictkit.cli.inspect", "config"),
    "languages": ("conflictkit.cli.languages", "languages"),
    "bench": ("conflictkit.cli.bench", "bench"),
    "calibrate": ("conflictkit.cli.calibrate", "calibrate"),
    "explain": ("conflictkit.cli.explain", "explain"),
    "verify": ("conflictkit.cli.verify", "verify"),
    "serve": ("conflictkit.cli.serve", "serve"),
}


class _CommandGroup(click.Group):
    """The top-level group: a command's module is imported only when that command is looked up,
    and plugins (which may add commands) load only for a name that is not built in or when
    --help lists every command, so ``compare`` imports no other command and ``--version`` no plugin."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._plugin_commands: dict[str, click.Command] | None = None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name in COMMANDS:
            module_name, attr = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(module_name), attr)
            self.add_command(command, cmd_name)
            return command
        return self.plugin_commands().get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        others = (set(self.commands) | set(self.plugin_commands())) - set(COMMANDS)
        return [*COMMANDS, *sorted(others)]

    def plugin_commands(self) -> dict[str, click.Command]:
        """Commands that installed plugins add through ``register_commands(cli)``; a built-in name wins."""
        if self._plugin_commands is None:
            from conflictkit.registry import get_plugin_manager

            collector = click.Group()
            get_plugin_manager().hook.register_commands(cli=collector)
            self._plugin_commands = {name: cmd for name, cmd in collector.commands.items() if name not in COMMANDS}
        return self._plugin_commands


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
