"""Deterministic fakes shipped for tests and plugin authors; nothing here is used by the engine."""
