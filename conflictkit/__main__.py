"""``python -m conflictkit`` runs the CLI."""

from conflictkit.cli import main

main()
