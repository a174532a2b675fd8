"""The CLI tests' shared fixtures."""

import pytest
import yaml

from tests.conftest import FAST_CONFIG


@pytest.fixture
def fast(tmp_path):
    path = tmp_path / "fast.yaml"
    path.write_text(yaml.safe_dump(FAST_CONFIG))
    return path
