"""conflictkit-ray: the ``ray`` batch engine (``conflictkit batch --engine ray``)."""

from conflictkit_ray.engine import RayEngine

__all__ = ["RayEngine"]
