"""The Ray engine in local mode gives the same pairs, folders and findings as the local engine."""

import json

import pytest

from conflictkit.batch import pairs_from_inputs, run_batch
from conflictkit.batch.engines import LocalEngine, available_engines, get_engine
from conflictkit.config import config_data

pytest.importorskip("ray")
pytestmark = [pytest.mark.slow]


def test_the_plugin_registers_the_ray_engine():
    assert "ray" in available_engines()


def test_ray_local_mode_matches_the_local_engine(portfolio, fast_config, tmp_path):
    reference, folder = portfolio
    pairs = pairs_from_inputs(str(reference), [str(folder)])
    data = config_data(fast_config)
    local = run_batch(pairs, data, tmp_path / "local", LocalEngine(workers=1))
    on_ray = run_batch(pairs, data, tmp_path / "ray", get_engine("ray", 2, None))
    strip = lambda o: {**o.to_dict(), "seconds": 0}  # noqa: E731
    assert [strip(o) for o in on_ray.outcomes] == [strip(o) for o in local.outcomes]
    for outcome in local.outcomes:
        if outcome.status == "ok":
            a = json.loads((tmp_path / "local" / outcome.folder / "report.json").read_text())["findings"]
            b = json.loads((tmp_path / "ray" / outcome.folder / "report.json").read_text())["findings"]
            assert a == b
