"""A small portfolio: the sample reference, the sample draft, edited copies of it and one bad file."""

from __future__ import annotations

import pytest

from tests.conftest import INPUT, REFERENCE


@pytest.fixture
def portfolio(tmp_path):
    """(reference, [inputs]) with one binary file among the inputs."""
    folder = tmp_path / "contracts"
    folder.mkdir()
    draft = INPUT.read_text(encoding="utf-8")
    (folder / "draft.md").write_text(draft, encoding="utf-8")
    (folder / "same.md").write_text(REFERENCE.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "longer-notice.md").write_text(REFERENCE.read_text(encoding="utf-8").replace("thirty (30) days", "ninety (90) days"), encoding="utf-8")
    (folder / "broken.md").write_bytes(b"\x00\x01\x02 not text")
    return REFERENCE, folder
