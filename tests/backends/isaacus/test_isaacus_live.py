"""Against the real Isaacus API: runs only with ISAACUS_API_KEY set and ISAACUS_BASE_URL unset (`pytest -m live`).

The conftest hides both variables from the other tests, so this module reads them before it does.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

LIVE_KEY = os.environ.get("ISAACUS_API_KEY")
LIVE = bool(LIVE_KEY) and not os.environ.get("ISAACUS_BASE_URL")

pytestmark = [pytest.mark.live, pytest.mark.skipif(not LIVE, reason="set ISAACUS_API_KEY (and leave ISAACUS_BASE_URL unset) to run")]


def test_the_real_api_answers_every_endpoint_the_backends_use(store):
    from conflictkit.loaders import document_from_text
    from conflictkit_isaacus.embedder import IsaacusEmbedder
    from conflictkit_isaacus.filter import IsaacusFilter
    from conflictkit_isaacus.scorer import IsaacusScorer
    from conflictkit_isaacus.segmenter import IsaacusSegmenter

    def warm(cls, **options):
        component = cls({"api_key": LIVE_KEY, "strict_responses": True, **options})
        component.use_store(store)
        component.warm_up()
        return component

    text = "## 4. Fees\n\n4.1 Customer shall pay all fees within thirty (30) days of the invoice date.\n\n## Signatures\n\nBy: ________"
    doc = document_from_text(text, "live.md")
    clauses = warm(IsaacusSegmenter).segment(doc)
    assert any("thirty (30) days" in c.text for c in clauses)
    for c in clauses:
        assert doc.original[c.span.start : c.span.end].strip()
    vectors = warm(IsaacusEmbedder, dimensions=256).embed([c.text for c in clauses])
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    flags = warm(IsaacusFilter).flag(clauses)
    assert len(flags) == len(clauses)
    (score,) = warm(IsaacusScorer).score([("payment deadline", clauses[0].text)])
    assert 0.0 <= score <= 1.0
