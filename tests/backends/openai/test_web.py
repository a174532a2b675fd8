"""The review app keeps a comparison's findings when its explanations fail (issue 28)."""

import pytest
import yaml

pytest.importorskip("starlette")

from tests.conftest import FAST_CONFIG  # noqa: E402
from tests.web.conftest import make_client, sample_pair, wait_for_job  # noqa: E402, F401


def test_a_failed_explainer_keeps_the_comparison(make_client, fake, tmp_path):  # noqa: F811
    fake.storm(500, 1)
    with fake.serve() as server:
        config = {**FAST_CONFIG, "pipeline": {**FAST_CONFIG["pipeline"], "explainer": {"use": "llm", "options": {
            "model": "fake-model", "base_url": server.base_url, "max_retries": 0}}}}
        path = tmp_path / "llm.yaml"
        path.write_text(yaml.safe_dump(config))
        client = make_client(config_path=str(path))
        ref, inp = sample_pair()
        location = client.post("/compare", files={"reference": (ref.name, ref.read_bytes()), "input": (inp.name, inp.read_bytes())},
                               data={"config": "default"}).headers["location"]
        job = wait_for_job(client, location)
    assert job["state"] == "done" and job["comparison"], job
    assert "the findings are saved, but their explanations failed" in (job.get("error") or "")
