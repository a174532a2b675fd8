"""Export a cross-encoder to ONNX and quantize it to dynamic int8.

The exporter is ``torch.onnx.export(dynamo=True)``: the legacy TorchScript exporter
(``dynamo=False``) gives wrong DeBERTa logits with transformers 5, the dynamo one matches PyTorch
to about 1e-5. Every export is checked against PyTorch on a sample batch and refused when it
does not match. Quantization is ONNX Runtime's dynamic int8, per output channel, on the MatMul
weights (the embeddings stay fp32: quantizing the Gather costs accuracy for little speed).

The output directory has the Hugging Face layout, so ``model: DIR`` with ``backend: onnx`` and
``file_name: onnx/model_qint8.onnx`` loads it::

    DIR/config.json, tokenizer files
    DIR/onnx/model.onnx          fp32
    DIR/onnx/model_qint8.onnx    int8
"""

from __future__ import annotations

import inspect
import warnings
from pathlib import Path

import numpy as np

from conflictkit.errors import BackendError
from conflictkit_nli.runtime import _require

FP32_FILE = "onnx/model.onnx"
INT8_FILE = "onnx/model_qint8.onnx"
SAMPLE = [
    ("The Supplier shall deliver the goods within thirty (30) days.", "Goods are delivered within sixty days."),
    ("Either party may terminate.", "Neither party may terminate this Agreement for convenience at any time."),
]


def _inputs(model, tokenizer) -> list[str]:
    """The tokenizer outputs that the model's forward takes (token_type_ids only where it exists)."""
    accepted = set(inspect.signature(model.forward).parameters)
    given = set(tokenizer.model_input_names) & accepted
    names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in given]
    if "token_type_ids" in names and not getattr(model.config, "type_vocab_size", 0):
        names.remove("token_type_ids")
    return names


def export_onnx(model_dir: str | Path, out_dir: str | Path, tolerance: float = 1e-3) -> Path:
    """Write ``out_dir/onnx/model.onnx`` (fp32) with tokenizer and config; check it against PyTorch."""
    torch = _require("torch", "export")
    transformers = _require("transformers", "export")
    _require("onnxscript", "torch.onnx.export(dynamo=True)")
    out_dir = Path(out_dir)
    (out_dir / "onnx").mkdir(parents=True, exist_ok=True)
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(model_dir))
    model = transformers.AutoModelForSequenceClassification.from_pretrained(str(model_dir)).eval()
    names = _inputs(model, tokenizer)
    sample = tokenizer([a for a, _ in SAMPLE], [b for _, b in SAMPLE], padding=True, return_tensors="pt")
    kwargs = {n: sample[n] for n in names}
    args = tuple(kwargs[n] for n in names)
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence")
    target = out_dir / FP32_FILE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        program = torch.onnx.export(
            _Logits(model, names), args, dynamo=True, input_names=names, output_names=["logits"],
            dynamic_shapes=tuple({0: batch, 1: seq} for _ in names), optimize=True, verbose=False,
        )
        program.save(str(target))
    model.config.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    with torch.inference_mode():
        expected = model(**kwargs).logits.numpy()
    check(target, {n: v.numpy() for n, v in kwargs.items()}, expected, tolerance)
    return target


def _Logits(model, names):  # noqa: N802 - a module class defined once torch is imported
    torch = _require("torch", "export")

    class Logits(torch.nn.Module):
        """The classifier with positional tensor inputs (in ``names`` order) and the logits as only output."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            extra = {"token_type_ids": token_type_ids} if token_type_ids is not None else {}
            return self.model(input_ids=input_ids, attention_mask=attention_mask, **extra).logits

    if names[:2] != ["input_ids", "attention_mask"] or len(names) > 3:
        raise BackendError(f"cannot export a model whose inputs are {names}; expected input_ids, attention_mask[, token_type_ids]")
    return Logits()


def run_onnx(path: str | Path, inputs: dict[str, np.ndarray]) -> np.ndarray:
    ort = _require("onnxruntime", "ONNX inference")
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {i.name: inputs[i.name].astype(np.int64) for i in session.get_inputs()})[0]


def check(path: Path, inputs: dict[str, np.ndarray], expected: np.ndarray, tolerance: float) -> float:
    """Max |ONNX - PyTorch| on ``inputs``; a BackendError when it exceeds ``tolerance``."""
    diff = float(np.abs(run_onnx(path, inputs) - expected).max())
    if diff > tolerance:
        raise BackendError(f"the ONNX export {path} differs from PyTorch by {diff:.2g} (> {tolerance}); not using it")
    return diff


def quantize_int8(source: str | Path, target: str | Path) -> Path:
    """Dynamic int8 quantization (per-channel, MatMul weights) of an fp32 ONNX file."""
    _require("onnxruntime", "quantization")
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), per_channel=True, weight_type=QuantType.QInt8,
                     op_types_to_quantize=["MatMul"])
    return Path(target)


def export_and_quantize(model_dir: str | Path, out_dir: str | Path) -> tuple[Path, Path]:
    """The ``conflictkit models quantize`` pipeline: fp32 export (checked), then int8."""
    fp32 = export_onnx(model_dir, out_dir)
    return fp32, quantize_int8(fp32, Path(out_dir) / INT8_FILE)
