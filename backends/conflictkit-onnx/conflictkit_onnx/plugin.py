"""Registers the ``onnx`` embedder (entry point group ``conflictkit``)."""

from conflictkit import hookimpl
from conflictkit_onnx.embedder import OnnxEmbedder


@hookimpl
def register_embedders(register):
    register(OnnxEmbedder)
