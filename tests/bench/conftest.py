"""Tiny model-free benchmark inputs: clause pairs and a document pair written per test."""

from __future__ import annotations

import json

import pytest

from conflictkit.config import resolve


def model_free(judge: dict) -> dict:
    """The hashing-embedder pipeline with ``judge``."""
    return {"pipeline": {"segmenter": {"use": "rules"}, "filter": None, "embedder": {"use": "hashing"},
                         "retriever": {"use": "cosine", "options": {"top_k": 3, "min_relevance": 0.2}}, "judge": judge}}


@pytest.fixture
def line_diff_config():
    return resolve(model_free({"use": "line-diff"}))


SENTENCES = [
    "The Supplier shall deliver the goods to the Buyer's warehouse within ten business days of each purchase order.",
    "Either party may terminate this agreement on ninety days' written notice to the other party for any reason.",
    "The Customer shall pay each undisputed invoice within thirty days after receiving it by bank transfer.",
    "The Recipient shall keep the Confidential Information secret and use it only to evaluate the proposed deal.",
    "All notices under this agreement must be in writing and are effective when delivered to the address given.",
]


def toy_pairs(n: int = 40) -> list[dict]:
    """Separable for a line diff: consistent pairs differ by one character, conflicts by most words."""
    rows = []
    for i in range(n):
        base = SENTENCES[i % len(SENTENCES)] + f" This is clause {i}."
        rows.append({"id": f"c{i}", "category": "format", "label": "consistent", "reference": base,
                     "input": base.replace("shall", "shall", 1).replace(" the ", " the  ", 1)[:-1] + ";"})
        rewritten = " ".join(reversed(base.split()))
        rows.append({"id": f"x{i}", "category": "negation", "label": "conflict", "reference": base, "input": rewritten})
    return rows


@pytest.fixture
def toy_jsonl(tmp_path):
    path = tmp_path / "toy.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in toy_pairs()) + "\n", encoding="utf-8")
    return path


REF_DOC = """# Services Agreement

## 1. Payment

Customer shall pay each invoice within thirty (30) days after the invoice date.

## 2. Confidentiality

Each party shall keep the other party's confidential information secret and shall not disclose it.

## 3. Governing law

This Agreement is governed by the laws of the State of New York.
"""

INP_DOC = REF_DOC.replace("thirty (30) days", "sixty (60) days").replace(
    "## 3. Governing law", "## 3. Audit\n\nCustomer may audit Provider's records once a year on written notice.\n\n## 4. Governing law")


@pytest.fixture
def doc_manifest(tmp_path):
    (tmp_path / "ref.md").write_text(REF_DOC, encoding="utf-8")
    (tmp_path / "inp.md").write_text(INP_DOC, encoding="utf-8")
    path = tmp_path / "docs.yaml"
    path.write_text(json.dumps({"pairs": [{
        "id": "toy", "reference": "ref.md", "input": "inp.md",
        "expected": [{"kind": "deviation", "quote": "sixty (60) days"}, {"kind": "added", "quote": "Customer may audit"}],
        "consistent": [{"quote": "laws of the State of New York"}],
    }]}), encoding="utf-8")
    return path
