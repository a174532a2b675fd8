"""Isaacus Kanon models as conflictkit backends (segmenter, filter, embedder, scorer, judge), all named ``isaacus``.

Importing this package does not import the isaacus SDK; the client is built in ``warm_up()``.
"""

__version__ = "0.1.0"
