"""The job queue survives restarts; several workers; a batch upload (several files or a zip) against one reference."""

from __future__ import annotations

import io
import time
import zipfile

import pytest

from conflictkit.web.reviews import ReviewStore
from tests.web.conftest import sample_pair, wait_for_job


def wait_for_batch(client, location: str, timeout: float = 120.0) -> list[dict]:
    batch_id = location.rsplit("/", 1)[1]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = client.get(f"/api/batches/{batch_id}").json()["jobs"]
        if all(j["state"] in ("done", "failed") for j in jobs):
            return jobs
        time.sleep(0.1)
    raise AssertionError(f"batch {batch_id} did not finish in {timeout}s")


def test_a_finished_job_is_still_known_after_a_restart(make_client):
    ref, inp = sample_pair()
    first = make_client()
    location = first.post("/compare", files={"reference": (ref.name, ref.read_bytes()), "input": (inp.name, inp.read_bytes())},
                          data={"config": "default"}).headers["location"]
    done = wait_for_job(first, location)
    second = make_client()
    assert second.get(f"/api/jobs/{done['id']}").json()["comparison"] == done["comparison"]
    assert second.app.conflictkit.reviews.job_files(done["id"]) == (b"", b"")  # the uploads are not kept once done
    assert second.get(location).headers["location"] == f"/comparisons/{done['comparison']}"


def test_a_job_running_when_the_server_stopped_runs_again_at_the_next_start(make_client, tmp_path):
    ref, inp = sample_pair()
    store = ReviewStore(tmp_path / "reviews.sqlite")  # what the stopped server left behind
    store.add_job("0123456789abcdef", None, "default", ref.name, inp.name, ref.read_bytes(), inp.read_bytes())
    store.update_job("0123456789abcdef", state="running")
    store.add_job("fedcba9876543210", None, "default", ref.name, ref.name, ref.read_bytes(), ref.read_bytes())
    client = make_client()
    interrupted = wait_for_job(client, "/jobs/0123456789abcdef")
    queued = wait_for_job(client, "/jobs/fedcba9876543210")
    assert interrupted["state"] == queued["state"] == "done"
    assert interrupted["interrupted"] == 1 and queued["interrupted"] == 0
    assert client.get(f"/comparisons/{interrupted['comparison']}").status_code == 200


def test_several_inputs_are_a_batch_reviewed_document_by_document(make_client):
    ref, inp = sample_pair()
    client = make_client(workers=2)
    edited = inp.read_text().replace("sixty (60) days", "ninety (90) days").encode()
    response = client.post("/compare", data={"config": "default"}, files=[
        ("reference", (ref.name, ref.read_bytes())), ("input", (inp.name, inp.read_bytes())),
        ("input", ("edited.md", edited)), ("input", ("same.md", ref.read_bytes()))])
    assert response.status_code == 303 and response.headers["location"].startswith("/batches/")
    jobs = wait_for_batch(client, response.headers["location"])
    assert [j["input_name"] for j in jobs] == [inp.name, "edited.md", "same.md"]
    assert all(j["state"] == "done" for j in jobs)
    page = client.get(response.headers["location"]).text
    assert all(f'href="/comparisons/{j["comparison"]}"' in page for j in jobs)
    assert "3 of 3 compared" in page


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_zip_of_inputs_is_a_batch_and_hidden_files_are_ignored(make_client):
    ref, inp = sample_pair()
    client = make_client()
    data = _zip({"contracts/a.md": inp.read_bytes(), "contracts/b.md": ref.read_bytes(),
                 "__MACOSX/contracts/._a.md": b"\x00\x05\x16\x07", "contracts/.DS_Store": b"\x00\x00"})
    response = client.post("/compare", data={"config": "default"},
                           files={"reference": (ref.name, ref.read_bytes()), "input": ("batch.zip", data)})
    jobs = wait_for_batch(client, response.headers["location"])
    assert [j["input_name"] for j in jobs] == ["a.md", "b.md"] and all(j["state"] == "done" for j in jobs)


def test_bad_zips_are_refused_with_a_clear_message_and_start_nothing(make_client):
    ref, _ = sample_pair()
    client = make_client(max_upload_bytes=100_000)
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("big.md", b"a " * 1_500_000)
    cases = [
        (b"PK\x03\x04 not really a zip", "is not a readable zip file"),
        (bomb.getvalue(), "unpacks to 3.0 MB"),
        (_zip({"a.md": b"\x00\x01 binary"}), "binary"),
        (_zip({"dir/": b""}), "holds no documents"),
    ]
    for data, message in cases:
        response = client.post("/compare", data={"config": "default"},
                               files={"reference": (ref.name, ref.read_bytes()), "input": ("x.zip", data)})
        assert response.status_code == 400 and message in response.text, response.text[-500:]
    assert client.app.conflictkit.runner.live == {}


def test_a_running_step_says_how_long_it_has_left():
    from conflictkit.web.jobs import Job

    job = Job(id="j", reference_name="r", input_name="i", state="running")
    job.advance("embed", 0, 118)
    assert job.eta() is None and job.progress_text() == "embed 0/118"  # nothing counted yet: no guess
    job.step_started -= 10  # ten seconds into the step, a quarter done
    job.advance("embed", 30, 120)
    assert 25 <= job.eta() <= 35 and job.progress_text().startswith("embed 30/120 · about 3")
    assert job.to_dict()["eta"] == pytest.approx(job.eta(), abs=1)
    job.advance("judge", 1, 50)  # a new step restarts the clock
    assert job.eta() < 5
    job.advance("saving", 0, 0)
    assert job.eta() is None and job.progress_text() == "saving"
