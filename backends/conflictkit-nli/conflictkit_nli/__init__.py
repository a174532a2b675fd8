"""conflictkit-nli: local neural backends for conflictkit.

- judge ``nli``: a cross-encoder NLI model (DeBERTa...) with PyTorch or ONNX Runtime, both directions,
  sentence windows for long clauses, optional neighbouring-clause context;
- scorer ``cross-encoder``: a reranker's sigmoid relevance;
- ``conflictkit models list | pull | quantize``.

Heavy libraries (torch, transformers, onnxruntime) are imported when a model is loaded, never here.
"""
