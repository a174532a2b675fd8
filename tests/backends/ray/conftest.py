"""The portfolio fixture of the batch tests."""

from tests.batch.conftest import portfolio  # noqa: F401
