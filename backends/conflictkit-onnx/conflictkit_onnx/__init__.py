"""conflictkit embedder backend on ONNX Runtime (no torch).

The embedder module is imported on first use of ``OnnxEmbedder`` (not when the plugin loads), so
commands that never embed pay nothing for it.
"""

__all__ = ["OnnxEmbedder"]


def __getattr__(name: str):
    if name == "OnnxEmbedder":
        from conflictkit_onnx.embedder import OnnxEmbedder

        return OnnxEmbedder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
