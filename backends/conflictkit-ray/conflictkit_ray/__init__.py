"""conflictkit-ray: the ``ray`` batch engine (``conflictkit batch --engine ray``).

The engine module is imported on first use of ``RayEngine`` (not when the plugin loads), so
commands other than ``batch --engine ray`` pay nothing for it.
"""

__all__ = ["RayEngine"]


def __getattr__(name: str):
    if name == "RayEngine":
        from conflictkit_ray.engine import RayEngine

        return RayEngine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
