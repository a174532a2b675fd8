"""The cross-encoder scorer on a tiny one-logit reranker."""

from __future__ import annotations

import pytest

from conflictkit.errors import BackendError

pytestmark = pytest.mark.model
pytest.importorskip("torch")

from conflictkit_nli.scorer import CrossEncoderScorer  # noqa: E402
from conflictkit_nli.testing import build_reranker  # noqa: E402


def test_scores_are_sigmoids_in_input_order(tmp_path):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    path = build_reranker(tmp_path / "reranker")
    pairs = [("The term is one year.", "This agreement lasts one year."), ("Payment is due.", "Governed by New York law."),
             ("A much longer clause about the delivery of goods and services to the customer.", "Short.")]
    scores = CrossEncoderScorer({"model": str(path), "batch_size": 2}).score(pairs)
    model = AutoModelForSequenceClassification.from_pretrained(str(path)).eval()
    tok = AutoTokenizer.from_pretrained(str(path))
    with torch.no_grad():
        expected = torch.sigmoid(model(**tok([a for a, _ in pairs], [b for _, b in pairs], padding=True, return_tensors="pt")).logits[:, 0])
    assert scores == pytest.approx(expected.tolist(), abs=1e-5)
    assert all(0.0 <= s <= 1.0 for s in scores)


def test_a_three_way_model_is_not_a_reranker(tiny_bert):
    with pytest.raises(BackendError, match="single-logit reranker"):
        CrossEncoderScorer({"model": str(tiny_bert)}).warm_up()
