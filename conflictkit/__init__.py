"""conflictkit: find conflicts between two legal documents.

The public API: :func:`conflictkit.engine.Engine`, the data model in :mod:`conflictkit.model`,
the stage interfaces in :mod:`conflictkit.stages`, and :data:`hookimpl` for plugins.
"""

from conflictkit.hookspecs import hookimpl

__version__ = "0.2.0"
PIPELINE_VERSION = "3"  # bump when a stage's output changes with no version or source change to show it
# (every cache key also holds the installed versions, an editable checkout's sources and the lexicons:
# conflictkit.codekey)

__all__ = ["hookimpl", "__version__", "PIPELINE_VERSION"]
