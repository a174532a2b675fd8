"""Ships the top-level ``configs/`` folder inside the package as ``conflictkit.presets``.

Everything else is declared in pyproject.toml; only a package that lives outside its parent's
folder needs ``package_dir``, and pyproject's automatic discovery cannot list it.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["conflictkit", "conflictkit.*"]), "conflictkit.presets"],
    package_dir={"conflictkit.presets": "configs"},
)
