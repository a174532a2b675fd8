import pytest
import yaml

from tests.conftest import FAST_CONFIG


@pytest.fixture
def fast(tmp_path):
    """The model-free pipeline as a YAML file, for CLI runs."""
    path = tmp_path / "fast.yaml"
    path.write_text(yaml.safe_dump(FAST_CONFIG))
    return path
