"""Registers the ``llm`` judge and explainer; the openai SDK is imported only when one of them warms up."""

from conflictkit import hookimpl


@hookimpl
def register_judges(register):
    from conflictkit_openai.judge import LLMJudge

    register(LLMJudge)


@hookimpl
def register_explainers(register):
    from conflictkit_openai.explain import LLMExplainer

    register(LLMExplainer)
