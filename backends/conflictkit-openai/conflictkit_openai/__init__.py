"""conflictkit-openai: the ``llm`` judge and the ``llm`` explainer on any OpenAI-compatible chat endpoint."""
