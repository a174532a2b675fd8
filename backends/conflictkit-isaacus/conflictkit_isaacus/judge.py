"""The published Isaacus conflict judge: four questions, materiality, mutual match.

Questions (the article's, in our wording, configurable):
- ``empty`` (reranker): is the clause boilerplate, a heading, a signature, an address or a definition;
- ``money`` (classifier): does it state an amount, a percentage or a cap;
- ``care`` (classifier, both ways, averaged): would a party not care which of the two clauses applied;
- ``agree`` (reranker, both ways, averaged): would a lawyer compare the two clauses.
``empty`` and ``money`` are asked once per distinct clause and averaged over the pair's two
clauses; ``care`` and ``agree`` send each clause once as a query with all its partners. The
match comes from the embeddings the engine already computed (``comparison.*.vectors``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pydantic import Field

from conflictkit.errors import ConfigError
from conflictkit.model import CandidatePair, IndexedDocument, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options

from conflictkit_isaacus import recipe
from conflictkit_isaacus.component import IsaacusBackend
from conflictkit_isaacus.options import IsaacusOptions

QUERY_MAX = 5000  # the classifier refuses longer queries


class IsaacusJudgeOptions(IsaacusOptions):
    classifier_model: str = Field("kanon-universal-classifier", description="model for money and care")
    reranker_model: str = Field("kanon-2-reranker", description="model for empty and agree")
    empty_query: str = Field("boilerplate, heading, signature, address or definition", min_length=1)
    money_query: str = Field("This clause states an amount of money, a percentage or a cap.", min_length=1)
    care_query: str = Field(
        "A party to the contract would not care whether this clause or the following clause applied: {clause}",
        description="'{clause}' is replaced by the other clause of the pair",
    )
    agree_query: str = Field(
        "A lawyer would compare this clause with the following clause: {clause}",
        description="'{clause}' is replaced by the other clause of the pair",
    )
    temperature: float = Field(recipe.TEMPERATURE, gt=0, description="softmax temperature of the match matrix")
    batch_size: int = Field(64, ge=1, le=1000, description="texts per classification or reranking request")


def _kept(document: IndexedDocument) -> list[int]:
    """Clauses the recipe keeps after filtering (definitions are never filtered)."""
    return [i for i, c in enumerate(document.clauses) if c.filtered is None or c.kind == "definition"]


class IsaacusJudge(IsaacusBackend, Judge):
    """P(same), P(differs), P(conflict) by the published recipe, with the four answers as signals."""

    name: ClassVar[str] = "isaacus"
    Options: ClassVar[type[Options]] = IsaacusJudgeOptions
    needs_vectors: ClassVar[bool] = True  # the match is mutual over every clause's vector

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        if not pairs:
            return []
        ref, inp = comparison.reference, comparison.input
        texts = [(ref.clause(p.reference_id).text, inp.clause(p.input_id).text) for p in pairs]
        matches = self._matches(pairs, ref, inp)
        empty, money = self._unary(texts)
        care = self._both_ways("classify", self.options.classifier_model, self.options.care_query, texts, is_iql=False)
        agree = self._both_ways("rerank", self.options.reranker_model, self.options.agree_query, texts, is_iql=False)
        return [
            self._judgement(p, matches[k], (empty[a] + empty[b]) / 2, (money[a] + money[b]) / 2, care[k], agree[k])
            for k, (p, (a, b)) in enumerate(zip(pairs, texts))
        ]

    def _matches(self, pairs: Sequence[CandidatePair], ref: IndexedDocument, inp: IndexedDocument) -> list[float]:
        if ref.vectors is None or inp.vectors is None:
            raise ConfigError("the isaacus judge needs clause vectors: configure an embedder (e.g. embedder: {use: isaacus})")
        similarity = ref.vectors @ inp.vectors.T
        index = [(ref.position(p.reference_id), inp.position(p.input_id)) for p in pairs]
        return recipe.mutual_match(similarity, index, _kept(ref), _kept(inp), self.options.temperature)

    def _unary(self, texts: list[tuple[str, str]]) -> tuple[dict[str, float], dict[str, float]]:
        distinct = list(dict.fromkeys(t for pair in texts for t in pair))
        opts = self.options
        empty = self._scores("rerank", opts.reranker_model, [(opts.empty_query, t) for t in distinct], is_iql=False, batch_size=opts.batch_size)
        money = self._scores("classify", opts.classifier_model, [(opts.money_query, t) for t in distinct], is_iql=True, batch_size=opts.batch_size)
        return dict(zip(distinct, empty)), dict(zip(distinct, money))

    def _both_ways(self, endpoint: str, model: str, template: str, texts: list[tuple[str, str]], *, is_iql: bool) -> list[float]:
        """Each pair asked with the reference clause in the query, then the input clause; averaged."""
        forward = [(_fill(template, a), b) for a, b in texts]
        backward = [(_fill(template, b), a) for a, b in texts]
        scores = self._scores(endpoint, model, forward + backward, is_iql=is_iql, batch_size=self.options.batch_size)
        n = len(texts)
        return [(scores[k] + scores[n + k]) / 2 for k in range(n)]

    def _judgement(self, pair: CandidatePair, match: float, empty: float, money: float, care: float, agree: float) -> Judgement:
        material = recipe.materiality(empty, care, agree, money)
        return Judgement(
            reference_id=pair.reference_id,
            input_id=pair.input_id,
            p_same=recipe.p_same(match),
            p_differs=recipe.p_differs(material),
            p_conflict=recipe.p_conflict(match, material),
            reasons=[Reason(type="isaacus", detail=f"materiality {material:.1f}; money: {'yes' if money > 0.5 else 'no'}; "
                                                  f"care {care:.2f}; agree {agree:.2f}")],
            judge=self.name,
            signals={"match": match, "empty": empty, "money": money, "care": care, "agree": agree, "materiality": material},
        )


def _fill(template: str, clause: str) -> str:
    """The template with ``{clause}`` filled, the clause cut at a word so the query fits the API's limit."""
    room = QUERY_MAX - len(template.replace("{clause}", ""))
    if len(clause) > room:
        clause = clause[: max(0, room - 1)].rsplit(" ", 1)[0] + "\u2026"
    return template.replace("{clause}", clause)
