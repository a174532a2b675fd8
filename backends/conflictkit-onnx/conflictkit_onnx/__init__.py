"""conflictkit embedder backend on ONNX Runtime (no torch)."""

from conflictkit_onnx.embedder import OnnxEmbedder

__all__ = ["OnnxEmbedder"]
