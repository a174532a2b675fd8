"""The YAML presets, installed as the package ``conflictkit.presets`` (see setup.py)."""
