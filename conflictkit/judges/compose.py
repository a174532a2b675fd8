"""Judge composition: a cascade (a cheap judge passes survivors to an expensive one) and a weighted blend.

``judge: [A, B]`` in a config is shorthand for ``{use: cascade, options: {judges: [A, B]}}``.
Each sub-judge is a ``{use, options}`` spec built through the registry, so any installed judge
can take part; its options are validated with the rest of the config and problems carry their
path (``judges.1.options.model: ...``).

Cascade: every pair goes to the first judge; a pair goes on to the next judge when the current
verdict is uncertain (see :class:`EscalateOptions`). The final judgement is the last judge's,
with ``judge`` naming who decided and ``signals["<judge>.p_conflict"]`` for every judge that saw
the pair, so the report shows which judge decided each pair and what the others said. The
contract between tiers (``overrule: quoted``): a later judge may confirm or lower the verdict
before it, and add its probabilities as signals; it raises P(conflict) only with a reason that
quotes the change (:func:`conflictkit.judges.evidence.quotes_a_change`). Without one the earlier
verdict stands, marked ``signals["<judge>.unsupported"] = 1``: a small model that answers
CONTRADICTION to everything cannot turn what the rules judge read as the same effect into a finding.

Weighted: every judge sees every pair; ``p_conflict = sigmoid(bias + sum_k w_k * logit(p_k))``
over the judges' P(conflict), with weights fitted on labelled pairs by :func:`fit`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from conflictkit.errors import ConfigError
from conflictkit.judges.evidence import quotes_a_change
from conflictkit.model import CandidatePair, Judgement, Reason
from conflictkit.stages import Comparison, Judge, Options

_EPS = 1e-6


class JudgeSpec(BaseModel):
    """One sub-judge: a registered judge name and its options."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    use: str
    options: dict[str, Any] = Field(default_factory=dict)


def _validated_specs(value: Any) -> list[dict[str, Any]]:
    """Validate each sub-judge against the registry; fill defaults; one ConfigError naming every path."""
    from conflictkit.config import ComponentSpec, validate_backend_options

    if not isinstance(value, list) or not value:
        raise ConfigError("judges: give a non-empty list of {use: NAME, options: {...}}")
    problems: list[str] = []
    filled: list[dict[str, Any]] = []
    for i, raw in enumerate(value):
        if isinstance(raw, str):
            raw = {"use": raw}
        if isinstance(raw, JudgeSpec):
            raw = raw.model_dump()
        if not isinstance(raw, dict) or "use" not in raw or set(raw) - {"use", "options"}:
            problems.append(f"judges.{i}: expected {{use: NAME, options: {{...}}}}, got {raw!r}")
            continue
        spec, errs = validate_backend_options("judge", ComponentSpec.model_validate(raw), ("judges", i))
        problems.extend(errs)
        filled.append(spec.model_dump(mode="json"))
    if problems:
        raise ConfigError("; ".join(problems), problems=problems)
    return filled


def _labels(names: Sequence[str]) -> list[str]:
    """Signal prefixes: a judge's name, or ``name.N`` (1-based position) when a name repeats."""
    return [n if names.count(n) == 1 else f"{n}.{i + 1}" for i, n in enumerate(names)]


def _build(specs: Sequence[JudgeSpec]) -> list[Judge]:
    from conflictkit.registry import get_registry

    registry = get_registry()
    return [registry.get("judge", spec.use).cls(spec.options) for spec in specs]


class _Composite(Judge):
    """Shared plumbing: builds the sub-judges and forwards store, warm-up, describe and usage."""

    def __init__(self, options: Options | dict | None = None, language=None) -> None:
        self.judges: list[Judge] = []
        super().__init__(options, language)
        self.judges = _build(self.options.judges)
        if self._language is not None:
            self.use_language(self._language)
        self.labels = _labels([j.name for j in self.judges])

    @property
    def needs_vectors(self) -> bool:  # type: ignore[override]
        return any(judge.needs_vectors for judge in self.judges)

    @property
    def reads_words(self) -> bool:  # type: ignore[override]
        return any(judge.reads_words for judge in self.judges)

    def use_language(self, language) -> None:
        super().use_language(language)
        for judge in self.judges:
            judge.use_language(self.language)

    def use_store(self, store) -> None:
        super().use_store(store)
        for judge in self.judges:
            judge.use_store(store)

    def unavailable(self) -> str | None:
        return next((f"{judge.name}: {why}" for judge in self.judges if (why := judge.unavailable())), None)

    def warm_up(self) -> None:
        if self._warm:
            return
        for judge in self.judges:
            judge.warm_up()
        self._warm = True

    def describe(self) -> dict:
        info = super().describe()
        info["judges"] = [judge.describe() for judge in self.judges]
        return info

    def usage(self) -> dict:
        used = {label: judge.usage() for label, judge in zip(self.labels, self.judges)}
        return {label: u for label, u in used.items() if u}


class _JudgesOptions(Options):
    judges: list[JudgeSpec] = Field(description="sub-judges, each {use: NAME, options: {...}}")

    @field_validator("judges", mode="before")
    @classmethod
    def _check(cls, value: Any) -> Any:
        return _validated_specs(value)


class EscalateOptions(Options):
    """When a pair goes on to the next judge of a cascade.

    A pair escalates when the current judge thinks it may be the same matter
    (``p_same >= p_same_min``) and either its P(conflict) is in the uncertain band
    ``[p_conflict_low, p_conflict_high]``, or (with ``without_reasons``) it gave no typed reason
    for its verdict: a judge of atoms that sees no changed atom cannot rule out a paraphrased
    contradiction.
    """

    p_same_min: float = Field(0.3, ge=0.0, le=1.0, description="only pairs at least this likely the same matter")
    p_conflict_low: float = Field(0.2, ge=0.0, le=1.0, description="lower end of the uncertain P(conflict) band")
    p_conflict_high: float = Field(0.8, ge=0.0, le=1.0, description="upper end of the uncertain P(conflict) band")
    without_reasons: bool = Field(True, description="also escalate pairs the judge gave no typed reason for")

    @model_validator(mode="after")
    def _band(self) -> EscalateOptions:
        if self.p_conflict_low > self.p_conflict_high:
            raise ValueError("p_conflict_low must not exceed p_conflict_high")
        return self

    def escalates(self, judgement: Judgement) -> bool:
        if judgement.p_same < self.p_same_min:
            return False
        uncertain = self.p_conflict_low <= judgement.p_conflict <= self.p_conflict_high
        return uncertain or (self.without_reasons and not judgement.reasons)


class CascadeOptions(_JudgesOptions):
    escalate: EscalateOptions = Field(default_factory=EscalateOptions, description="when a pair goes to the next judge")
    overrule: Literal["quoted", "free"] = Field("quoted", description=(
        "what a later judge needs to raise a pair's P(conflict) above the verdict before it: 'quoted', a reason "
        "quoting words of the two clauses that changed (an llm judge quotes them with a CONTRADICTION); "
        "'free', its word alone (a judge that cannot quote, such as an NLI cross-encoder)"))


def _merge_reasons(*lists: Sequence[Reason]) -> list[Reason]:
    seen: set[tuple] = set()
    merged = []
    for reasons in lists:
        for reason in reasons:
            key = (reason.type, reason.reference, reason.input, reason.detail)
            if key not in seen:
                seen.add(key)
                merged.append(reason)
    return merged


class CascadeJudge(_Composite):
    """Runs judges in order; each later judge sees only the pairs the one before could not settle."""

    name: ClassVar[str] = "cascade"
    Options: ClassVar[type[Options]] = CascadeOptions

    def __init__(self, options: Options | dict | None = None) -> None:
        super().__init__(options)
        self.escalated = [0] * len(self.judges)  # pairs each judge was given, for usage()

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        final: list[Judgement | None] = [None] * len(pairs)
        history: list[dict[str, float]] = [{} for _ in pairs]
        earlier_reasons: list[list[Reason]] = [[] for _ in pairs]
        todo = list(range(len(pairs)))
        for step, (label, judge) in enumerate(zip(self.labels, self.judges)):
            if not todo:
                break
            self.escalated[step] += len(todo)
            verdicts = judge.judge([pairs[i] for i in todo], comparison.for_step(f"{comparison.step} {label}"))
            _check_count(label, verdicts, todo)
            last = step == len(self.judges) - 1
            still = []
            for i, verdict in zip(todo, verdicts):
                history[i][f"{label}.p_conflict"] = verdict.p_conflict
                earlier = final[i]
                if earlier is not None and not self._may_raise(earlier, verdict, pairs[i], comparison):
                    history[i][f"{label}.unsupported"] = 1.0
                    final[i] = earlier.model_copy(update={"signals": {**earlier.signals, **history[i]}})
                    verdict = earlier
                else:
                    final[i] = _decided(verdict, label, history[i], earlier_reasons[i])
                    earlier_reasons[i] = final[i].reasons
                if not last and self.options.escalate.escalates(verdict):
                    still.append(i)
            todo = still
        return [j for j in final if j is not None]

    def _may_raise(self, earlier: Judgement, verdict: Judgement, pair: CandidatePair, comparison: Comparison) -> bool:
        """Whether ``verdict`` may stand over ``earlier``: it does not raise P(conflict), or it quotes the change."""
        if self.options.overrule == "free" or verdict.p_conflict <= earlier.p_conflict:
            return True
        known = {(r.type, r.reference, r.input) for r in earlier.reasons}
        reference = comparison.reference.clause(pair.reference_id).text
        input = comparison.input.clause(pair.input_id).text
        return any(quotes_a_change(r, reference, input, earlier.edits)
                   for r in verdict.reasons if (r.type, r.reference, r.input) not in known)

    def usage(self) -> dict:
        used = super().usage()
        used["pairs_per_judge"] = dict(zip(self.labels, self.escalated))
        return used


def _check_count(label: str, verdicts: Sequence[Judgement], todo: Sequence[int]) -> None:
    if len(verdicts) != len(todo):
        raise ConfigError(f"judge {label!r} returned {len(verdicts)} judgements for {len(todo)} pairs; it is broken")


def _decided(verdict: Judgement, label: str, history: dict[str, float], earlier: list[Reason]) -> Judgement:
    signals = {**{f"{label}.{k}": v for k, v in verdict.signals.items()}, **history}
    return verdict.model_copy(
        update={"judge": label, "signals": signals, "reasons": _merge_reasons(earlier, verdict.reasons)}
    )


def logit(p: float | np.ndarray) -> float | np.ndarray:
    """log(p / (1 - p)), with p clipped away from 0 and 1 so certain judges stay finite."""
    p = np.clip(p, _EPS, 1.0 - _EPS)
    return np.log(p / (1.0 - p))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


class WeightedOptions(_JudgesOptions):
    weights: list[float] | None = Field(None, description="one weight per judge on logit(P(conflict)); default 1/n each")
    bias: float = Field(0.0, description="added to the weighted sum of logits")

    @model_validator(mode="after")
    def _one_weight_per_judge(self) -> WeightedOptions:
        if self.weights is not None and len(self.weights) != len(self.judges):
            raise ValueError(f"weights: give one weight per judge ({len(self.judges)}), not {len(self.weights)}")
        return self


class WeightedJudge(_Composite):
    """Every judge sees every pair; P(conflict) is a logistic blend of theirs.

    ``p_same`` and ``p_differs`` are the means of the judges' values weighted by ``|w_k|``;
    reasons are the union of the judges' reasons; ``judge`` is ``weighted``, and each judge's
    P(conflict) is in ``signals["<judge>.p_conflict"]``.
    """

    name: ClassVar[str] = "weighted"
    Options: ClassVar[type[Options]] = WeightedOptions

    @property
    def weights(self) -> np.ndarray:
        n = len(self.judges)
        return np.array(self.options.weights if self.options.weights is not None else [1.0 / n] * n)

    def judge(self, pairs: Sequence[CandidatePair], comparison: Comparison) -> list[Judgement]:
        per_judge = []
        for label, judge in zip(self.labels, self.judges):
            verdicts = judge.judge(pairs, comparison.for_step(f"{comparison.step} {label}"))
            _check_count(label, verdicts, pairs)
            per_judge.append(verdicts)
        return [self._blend(pair, [v[i] for v in per_judge]) for i, pair in enumerate(pairs)]

    def _blend(self, pair: CandidatePair, verdicts: list[Judgement]) -> Judgement:
        w = self.weights
        z = self.options.bias + float(np.dot(w, logit(np.array([v.p_conflict for v in verdicts]))))
        share = np.abs(w) / np.abs(w).sum() if np.abs(w).sum() > 0 else np.full(len(w), 1.0 / len(w))
        signals = {f"{label}.p_conflict": v.p_conflict for label, v in zip(self.labels, verdicts)}
        signals["weighted.logit"] = z
        return Judgement(
            reference_id=pair.reference_id,
            input_id=pair.input_id,
            p_same=float(np.clip(np.dot(share, [v.p_same for v in verdicts]), 0.0, 1.0)),
            p_differs=float(np.clip(np.dot(share, [v.p_differs for v in verdicts]), 0.0, 1.0)),
            p_conflict=_sigmoid(z),
            reasons=_merge_reasons(*(v.reasons for v in verdicts)),
            judge=self.name,
            signals=signals,
        )


def fit(X: np.ndarray | Sequence[Sequence[float]], y: Sequence[int], l2: float = 1e-2, iterations: int = 50) -> dict:
    """Fit ``weights`` and ``bias`` for :class:`WeightedJudge` by L2-regularized logistic regression.

    ``X[n, k]`` is judge k's P(conflict) on labelled pair n, ``y[n]`` is 1 for a conflict. Returns
    ``{"weights": [...], "bias": b}``, ready to put in the weighted judge's options. Newton's method
    on the logits; the bias is not regularized.
    """
    features = logit(np.asarray(X, dtype=float))
    labels = np.asarray(y, dtype=float)
    if features.ndim != 2 or len(features) != len(labels):
        raise ValueError("fit: X must be (pairs, judges) and y one label per pair")
    if not set(np.unique(labels)) <= {0.0, 1.0}:
        raise ValueError("fit: labels must be 0 or 1")
    design = np.hstack([features, np.ones((len(features), 1))])
    theta = np.zeros(design.shape[1])
    penalty = np.full(design.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(design @ theta)))
        grad = design.T @ (p - labels) + penalty * theta
        hess = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return {"weights": [float(t) for t in theta[:-1]], "bias": float(theta[-1])}
