"""Registers the ``ray`` batch engine; Ray itself is imported only when a batch runs on it."""

from conflictkit import hookimpl


@hookimpl
def register_batch_engines(register):
    from conflictkit_ray.engine import RayEngine

    register(RayEngine)
