"""The legal-atoms judge as a backend: registration, options, probabilities, reasons, P(same matter)."""

from __future__ import annotations

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import ValidationError

from conflictkit.config import ComponentSpec, validate_backend_options
from conflictkit.judges.atoms import LegalAtomsJudge
from conflictkit.model import CandidatePair, Clause, Document, IndexedDocument, Span
from conflictkit.normalize import flat, normalize
from conflictkit.registry import get_registry
from conflictkit.stages import Comparison
from tests.judges.test_atoms_cases import judged

DROPPED_NOT = ("Customer shall not export the Software to any embargoed country.",
               "Customer shall export the Software to any embargoed country.")


def test_registered_under_its_config_name():
    info = get_registry().get("judge", "legal-atoms")
    assert info.cls is LegalAtomsJudge and info.package == "conflictkit"


def test_options_are_validated_with_their_path():
    spec, problems = validate_backend_options("judge", ComponentSpec(use="legal-atoms", options={"weights": {"negation": 3}}),
                                              ("pipeline", "judge"))
    assert problems and problems[0].startswith("pipeline.judge.options.weights.negation")
    _, problems = validate_backend_options("judge", ComponentSpec(use="legal-atoms", options={"bogus": 1}), ("pipeline", "judge"))
    assert problems == ["pipeline.judge.options.bogus: unknown key"]
    filled, problems = validate_backend_options("judge", ComponentSpec(use="legal-atoms"), ("pipeline", "judge"))
    assert not problems and filled.options["weights"]["negation"] == pytest.approx(0.93)
    with pytest.raises(ValidationError):
        LegalAtomsJudge({"same_exponent": -1})


def test_a_dropped_not_is_a_conflict_with_a_negation_reason():
    j = judged(*DROPPED_NOT)
    assert j.judge == "legal-atoms"
    assert j.p_conflict >= 0.7 and j.p_same >= 0.3
    assert [r.type for r in j.reasons] == ["negation"]


def test_identical_clauses_have_no_reasons_and_high_p_same():
    text = "Provider shall maintain ISO 27001 certification throughout the Term at its own expense."
    j = judged(text, text)
    assert j.reasons == [] and j.p_same > 0.9 and j.p_differs < 0.1 and j.p_conflict < 0.1


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Customer shall pay the Fees within thirty (30) days after the date of each invoice.",
         "Within 30 days after the date of each invoice, the Fees shall be paid by Customer."),
        ("Either party may terminate this Agreement immediately by written notice if the other party becomes insolvent.",
         "If the other party becomes insolvent, either party may terminate this Agreement immediately by giving written notice."),
        ("The Receiving Party shall protect the Confidential Information using at least a reasonable degree of care.",
         "The Receiving Party will safeguard the Confidential Information with no less than a reasonable degree of care."),
        ("Provider will not be liable for any failure caused by events beyond its reasonable control.",
         "Provider shall not be responsible for any failure resulting from events beyond its reasonable control."),
        ("THE SUPPLIER SHALL NOT BE LIABLE FOR LOSS OF PROFITS.", "The Supplier shall not be liable for loss of profits."),
        ("Customer\u2019s \u201cAuthorized Users\u201d may access the Service\u00a024/7.",
         "Customer's \"Authorized Users\" may access the Service 24/7."),
        ("Any notice under this Agreement must be in writing and delivered by hand or by courier.",
         "All notices under this Agreement shall be written and delivered by courier or by hand."),
    ],
)
def test_paraphrase_and_typography_are_not_conflicts(ref, inp):
    j = judged(ref, inp)
    assert j.p_conflict < 0.5, (j.p_conflict, j.reasons)
    assert j.p_same >= 0.3


@pytest.mark.parametrize(
    ("ref", "inp"),
    [
        ("Customer shall pay all undisputed fees within thirty days of the invoice date.",
         "Customer shall keep the Provider's source code confidential for five years after termination."),
        ("Provider shall maintain commercial general liability insurance with limits of at least $2,000,000.",
         "Provider shall provide Customer with a copy of its most recent SOC 2 report each year."),
        ("This Agreement is governed by the laws of the State of California.",
         "Customer may not assign this Agreement without Provider's prior written consent."),
        ("The Tenant shall keep the interior of the Premises in good repair.",
         "The Tenant shall pay the Rent monthly in advance on the first day of each month."),
    ],
)
def test_unrelated_clauses_have_low_p_same_and_no_conflict(ref, inp):
    j = judged(ref, inp)
    assert j.p_same < 0.3, j
    assert j.p_conflict < 0.7


def test_p_same_increases_with_similarity_and_heading_agreement():
    ref = "Supplier warrants that the Goods will conform to the Specification for twelve months."
    inp = "The Goods will match the Specification for a year from delivery, the Supplier warrants."
    by_sim = [judged(ref, inp, similarity=s).p_same for s in (-0.2, 0.3, 0.6, 0.9)]
    assert by_sim == sorted(by_sim) and by_sim[-1] > by_sim[0] + 0.3
    same = judged(ref, inp, ref_heading="Warranty", inp_heading="Product Warranty").p_same
    different = judged(ref, inp, ref_heading="Warranty", inp_heading="Governing Law").p_same
    none = judged(ref, inp).p_same
    assert different < none < same


def test_options_change_the_verdict():
    default = judged(*DROPPED_NOT)
    weak = judged(*DROPPED_NOT, judge=LegalAtomsJudge({"weights": {"negation": 0.2}}))
    assert weak.p_conflict < 0.7 <= default.p_conflict
    steep = judged(*DROPPED_NOT, judge=LegalAtomsJudge({"same_exponent": 2.0}))
    assert steep.p_conflict < default.p_conflict


def test_reasons_are_ranked_and_capped():
    ref = "Provider shall not assign this Agreement and shall pay $10,000 within 30 days under Delaware law."
    inp = "Provider may assign this Agreement and shall pay $20,000 within 60 days under Texas law."
    j = judged(ref, inp, judge=LegalAtomsJudge({"max_reasons": 2}))
    assert len(j.reasons) == 2
    assert judged(ref, inp).reasons[0].type in ("negation", "number", "governing_law")


def test_judge_keeps_pair_order_and_ids_across_a_document():
    texts_r = ["Customer shall pay within 30 days.", "Either party may terminate on 60 days' notice."]
    texts_i = ["Customer shall pay within 45 days.", "Either party may terminate on 60 days' notice."]

    def doc(texts, prefix):
        joined = "\n\n".join(texts)
        norm = normalize(joined)
        clauses, pos = [], 0
        for k, t in enumerate(texts):
            clauses.append(Clause(id=f"{prefix}{k}", text=flat(t), span=Span(start=pos, end=pos + len(t)), order=k))
            pos += len(t) + 2
        d = Document(path=prefix, original=joined, normalized=norm.text, offsets=norm.offsets, sha256="0" * 64)
        return IndexedDocument(document=d, clauses=clauses)

    comparison = Comparison(reference=doc(texts_r, "r"), input=doc(texts_i, "i"))
    pairs = [CandidatePair(reference_id=r, input_id=i, similarity=0.8) for r, i in (("r1", "i1"), ("r0", "i0"), ("r0", "i1"))]
    out = LegalAtomsJudge().judge(pairs, comparison)
    assert [(j.reference_id, j.input_id) for j in out] == [("r1", "i1"), ("r0", "i0"), ("r0", "i1")]
    assert out[0].p_conflict < 0.5 <= 0.7 <= out[1].p_conflict
    assert out[2].p_same < out[1].p_same


FRAGMENTS = [
    "Provider", "Customer", "shall", "shall not", "may", "must not", "not", "no", "without", "pay", "terminate",
    "indemnify", "within", "thirty (30) days", "60 days", "$1,000", "5%", "January 1, 2025", "prior written",
    "consent", "unless", "except as", "exclusive", "non-exclusive", "worldwide", "Delaware", "England and Wales",
    "the laws of", "courts of", "at least", "no later than", "reasonable", "material", "breach", "the Fees",
    "Confidential Information", ",", ".", "in no event", "neither party", "is not required to", "won't",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=25),
       st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=25),
       st.one_of(st.none(), st.floats(-1, 1)), st.floats(0, 1))
def test_probabilities_are_bounded_and_reasons_quote_the_clauses(ref_words, inp_words, similarity, relevance):
    ref, inp = " ".join(ref_words), " ".join(inp_words)
    j = judged(ref, inp, similarity=similarity, relevance=relevance)
    for p in (j.p_same, j.p_differs, j.p_conflict):
        assert 0.0 <= p <= 1.0
    assert j.p_conflict <= j.p_differs + 1e-9
    for r in j.reasons:
        assert r.reference is None or r.reference in flat(ref)
        assert r.input is None or r.input in flat(inp)
        assert r.reference is not None or r.input is not None


def test_throughput_measure_runs_on_generated_pairs():
    from conflictkit.judges.atoms.throughput import generate, measure

    assert generate(20, seed=3) == generate(20, seed=3)
    result = measure(60, seed=3)
    assert result["pairs"] == 60 and result["pairs_per_second"] > 0
    assert 0 < result["flagged"] < 60  # the generator makes both edited and unchanged pairs


def _two_by_one(judge: LegalAtomsJudge):
    ref_texts = ["Customer may terminate this Agreement for convenience on ninety days' notice.",
                 "Either party may terminate this Agreement for cause if the other party fails to cure a breach."]
    inp_texts = ["Either party may terminate this Agreement for cause if the other party fails to cure a breach."]

    def doc(texts, prefix):
        joined = "\n\n".join(texts)
        norm = normalize(joined)
        clauses, pos = [], 0
        for k, t in enumerate(texts):
            clauses.append(Clause(id=f"{prefix}{k}", text=flat(t), span=Span(start=pos, end=pos + len(t)), order=k))
            pos += len(t) + 2
        d = Document(path=prefix, original=joined, normalized=norm.text, offsets=norm.offsets, sha256="0" * 64)
        return IndexedDocument(document=d, clauses=clauses)

    comparison = Comparison(reference=doc(ref_texts, "r"), input=doc(inp_texts, "i"))
    pairs = [CandidatePair(reference_id="r0", input_id="i0"), CandidatePair(reference_id="r1", input_id="i0")]
    return judge.judge(pairs, comparison)


def test_a_clause_with_a_far_better_counterpart_is_less_likely_the_same_matter_as_another():
    alone_other, alone_best = _two_by_one(LegalAtomsJudge({"competition": 0}))
    other, best = _two_by_one(LegalAtomsJudge())
    assert best.p_same == alone_best.p_same > 0.9
    assert other.p_same < alone_other.p_same and other.p_conflict < alone_other.p_conflict
    assert other.signals["competition_gap"] > 0


def test_changed_values_do_not_lower_p_same():
    same = judged("All payments under this Agreement shall be made in euros to Supplier's account.",
                  "All payments under this Agreement shall be made in euros to Supplier's account.")
    changed = judged("All payments under this Agreement shall be made in euros to Supplier's account.",
                     "All payments under this Agreement shall be made in US dollars to Buyer's account.")
    assert changed.p_same == pytest.approx(same.p_same)


def test_the_engine_runs_the_judge_on_clause_pairs(fast_config):
    from conflictkit.engine import Engine

    engine = Engine(fast_config)
    out = engine.judge_texts([DROPPED_NOT, (DROPPED_NOT[0], DROPPED_NOT[0])])
    assert [j.judge for j in out] == ["legal-atoms", "legal-atoms"]
    assert out[0].p_conflict >= 0.7 > out[1].p_conflict
    assert out[0].reasons[0].type == "negation"
