"""An optional real run against a local OpenAI-compatible server (Ollama, vLLM, llama.cpp, LiteLLM).

    CONFLICTKIT_LLM_BASE_URL=http://127.0.0.1:11434/v1 CONFLICTKIT_LLM_MODEL=llama3.1 pytest -m live tests/backends/openai
"""

import os

import pytest

from conflictkit.model import CandidatePair
from conflictkit.stages import Comparison
from conflictkit.testing.clauses import indexed_document
from conflictkit_openai.judge import LLMJudge

BASE_URL = os.environ.get("CONFLICTKIT_LLM_BASE_URL")
MODEL = os.environ.get("CONFLICTKIT_LLM_MODEL")
pytestmark = [pytest.mark.live, pytest.mark.skipif(not (BASE_URL and MODEL), reason="set CONFLICTKIT_LLM_BASE_URL and CONFLICTKIT_LLM_MODEL to run")]


def test_a_real_model_sees_a_dropped_not():
    reference = indexed_document(["Customer may not share its credentials with any third party."])
    input = indexed_document(["Customer may share its credentials with any third party."])
    pair = CandidatePair(reference_id=reference.clauses[0].id, input_id=input.clauses[0].id, relevance=0.9)
    (judgement,) = LLMJudge({"model": MODEL, "base_url": BASE_URL}).judge([pair], Comparison(reference=reference, input=input))
    assert judgement.p_conflict > 0.5
