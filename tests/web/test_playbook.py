"""A playbook uploaded as the reference: a review job, its playbook column, decisions and exports."""

from __future__ import annotations

import json
import subprocess
import sys

from conflictkit.testing.schemas import assert_valid
from tests.web.conftest import ROOT, SAMPLES, wait_for_job
from tests.web.test_app import upload


def standalone_playbook() -> bytes:
    """The sample playbook with every text written out, as a user uploads it."""
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "playbook", "show", SAMPLES / "playbook-saas.yaml",
                           "--format", "yaml", "--config", "fast"], capture_output=True, check=True, cwd=ROOT)
    return proc.stdout


def test_upload_a_playbook_review_decide_and_export(make_client):
    client = make_client()
    draft = (SAMPLES / "input-vendor-draft.md").read_bytes()
    response = upload(client, ("playbook.yaml", standalone_playbook()), ("vendor.md", draft))
    assert response.status_code == 303, response.text
    state = wait_for_job(client, response.headers["location"])
    assert state["state"] == "done", state["error"]
    cid = state["comparison"]
    stored = client.app.conflictkit.reviews.get(cid)
    assert_valid(stored.report)
    assert stored.reference_text.startswith("# SaaS subscription, customer side")
    page = client.get(f"/comparisons/{cid}").text
    positions, uncovered = stored.report["positions"], stored.report["uncovered"]
    assert page.count('<li class="finding') == len(positions) + len(uncovered)
    assert 'name="kind" value="not-acceptable" checked> not acceptable (' in page and "playbook order" in page
    assert 'data-kind="fallback"' in page and "Two months is the longest we wait for a cure." in page
    assert "playbook review: 5 not acceptable, 2 missing, 4 fallback" in client.get("/").text

    url = f"/api/comparisons/{cid}/decisions/governing-law"
    assert client.post(url, json={"status": "accepted", "note": "agreed on a call"}).json()["status"] == "accepted"
    assert client.post(f"/api/comparisons/{cid}/decisions/F0001", json={"status": "accepted"}).status_code == 404
    exported = json.loads(client.get(f"/comparisons/{cid}/export.json").text)
    law = next(p for p in exported["report"]["positions"] if p["id"] == "governing-law")
    assert law["review"]["status"] == "accepted" and law["review"]["note"] == "agreed on a call"
    markdown = client.get(f"/comparisons/{cid}/export.md").text
    assert markdown.startswith("# conflictkit playbook review") and "| governing-law | not acceptable | accepted | agreed on a call |" in markdown
    html = client.get(f"/comparisons/{cid}/export.html").text
    assert 'data-fid="governing-law" data-status="accepted"' in html


def test_a_playbook_that_cites_its_template_is_refused_at_upload(make_client):
    client = make_client()
    response = upload(client, ("playbook.yaml", (SAMPLES / "playbook-saas.yaml").read_bytes()), ("vendor.md", b"1. Pay in 30 days.\n"))
    assert response.status_code == 400 and "cannot be read here" in response.text and "--format yaml" in response.text
    broken = upload(client, ("playbook.yaml", b"title: [unclosed"), ("vendor.md", b"1. Pay in 30 days.\n"))
    assert broken.status_code == 400 and "is not valid YAML" in broken.text
    assert client.app.conflictkit.reviews.list() == []
