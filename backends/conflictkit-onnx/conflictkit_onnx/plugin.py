"""Registers the ``onnx`` embedder (entry point group ``conflictkit``)."""

from conflictkit import hookimpl


@hookimpl
def register_embedders(register):
    from conflictkit_onnx.embedder import OnnxEmbedder

    register(OnnxEmbedder)
