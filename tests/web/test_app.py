"""The web app in-process: upload, background comparison, results, decisions, exports, bad input."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conflictkit.testing.reports import make_report
from conflictkit.testing.schemas import assert_valid
from tests.web.conftest import sample_pair, wait_for_job


def upload(client, reference: tuple, input: tuple, config: str = "default"):
    return client.post("/compare", files={"reference": reference, "input": input}, data={"config": config})


def run_samples(client) -> str:
    ref, inp = sample_pair()
    response = upload(client, (ref.name, ref.read_bytes()), (inp.name, inp.read_bytes()))
    assert response.status_code == 303 and response.headers["location"].startswith("/jobs/")
    state = wait_for_job(client, response.headers["location"])
    assert state["state"] == "done", state["error"]
    assert_valid(client.app.conflictkit.reviews.get(state["comparison"]).report)
    return state["comparison"]


def test_upload_compare_and_review_the_samples(make_client):
    client = make_client()
    cid = run_samples(client)
    page = client.get(f"/comparisons/{cid}")
    assert page.status_code == 200
    stored = json.loads(client.get(f"/comparisons/{cid}/export.json").text)
    findings = stored["report"]["findings"]
    assert findings and page.text.count('<li class="finding') == len(findings)
    assert f'href="/comparisons/{cid}"' in client.get("/").text  # listed with past comparisons

    fid = findings[0]["id"]
    url = f"/api/comparisons/{cid}/decisions/{fid}"
    assert client.post(url, json={"status": "dismissed"}).json()["status"] == "dismissed"
    assert client.post(url, json={"note": "vendor's standard wording"}).json() == {
        "status": "dismissed", "note": "vendor's standard wording", "updated": pytest.approx(0, abs=1e10)}
    review = json.loads(client.get(f"/comparisons/{cid}/export.json").text)
    assert review["report"]["findings"][0]["review"]["status"] == "dismissed"
    assert review["report"]["findings"][0]["review"]["note"] == "vendor's standard wording"
    assert f"| {fid} | {findings[0]['severity']} | {findings[0]['kind']} |" in client.get(f"/comparisons/{cid}/export.md").text
    assert "dismissed" in client.get(f"/comparisons/{cid}/export.md").text
    exported = client.get(f"/comparisons/{cid}/export.html")
    assert exported.headers["content-disposition"] == f'attachment; filename="review-{cid}.html"'
    assert f'data-fid="{fid}" data-status="dismissed"' in exported.text
    assert client.post(url, json={"status": None}).json()["status"] is None  # cleared, note kept


def test_a_restarted_app_reopens_comparisons_and_decisions_without_recomputing(make_client, tmp_path):
    first = make_client()
    cid = run_samples(first)
    fid = json.loads(first.get(f"/comparisons/{cid}/export.json").text)["report"]["findings"][1]["id"]
    first.post(f"/api/comparisons/{cid}/decisions/{fid}", json={"status": "accepted"})
    second = make_client()  # a new app on the same database
    page = second.get(f"/comparisons/{cid}")
    assert f'data-fid="{fid}" data-status="accepted"' in page.text
    assert not any(worker.running for worker in second.app.conflictkit.runner.workers)  # nothing was computed to show it


def test_bad_uploads_get_a_clear_message_and_the_app_keeps_serving(make_client):
    client = make_client()
    good = ("ref.md", b"1. Payment. Customer shall pay within 30 days.\n")
    cases = [
        (("empty.md", b""), "empty.md is empty"),
        (("blank.md", b"  \n\n"), "blank.md is empty"),
        # a broken PDF: the pdf plugin says so, or a core-only install names the plugin to install
        (("contract.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), ("contract.pdf is not a readable PDF", "needs the conflictkit-pdf plugin")),
        (("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), "looks like a PNG image"),
        (("latin1.txt", "Caf\u00e9 clause".encode("latin-1")), "latin1.txt is not valid UTF-8"),
        (("utf16.txt", "clause".encode("utf-16")), "UTF-16"),
    ]
    for bad, message in cases:
        response = upload(client, good, bad)
        assert response.status_code == 400
        alternatives = message if isinstance(message, tuple) else (message,)
        assert any(m in response.text for m in alternatives) and 'role="alert"' in response.text
    missing = client.post("/compare", files={"reference": good}, data={"config": "default"})
    assert missing.status_code == 400 and "choose the input document to upload" in missing.text
    unknown = upload(client, good, good, config="../../etc/passwd")
    assert unknown.status_code == 400 and "unknown configuration" in unknown.text
    assert client.get("/").status_code == 200
    assert client.app.conflictkit.reviews.list() == []  # nothing half-saved


def test_a_failed_comparison_shows_its_error_and_saves_nothing(make_client, tmp_path):
    pytest.importorskip("conflictkit_isaacus", reason="the isaacus backend plugin is not installed")
    # A judge whose API is unreachable: the comparison fails after it has started.
    config = tmp_path / "unreachable.yaml"
    config.write_text(
        "version: 1\npipeline:\n  embedder: {use: hashing}\n  retriever: {use: cosine}\n"
        "  judge: {use: isaacus, options: {api_key: test-key, base_url: 'http://127.0.0.1:9/v1', max_retries: 0, timeout: 5}}\n"
    )
    client = make_client(config_path=str(config))
    ref, inp = sample_pair()
    response = upload(client, (ref.name, ref.read_bytes()), (inp.name, inp.read_bytes()))
    state = wait_for_job(client, response.headers["location"])
    assert state["state"] == "failed" and "Isaacus API /rerankings: cannot reach http://127.0.0.1:9/v1" in state["error"]
    page = client.get(response.headers["location"])
    assert "cannot reach http://127.0.0.1:9/v1" in page.text and "Comparison failed" in page.text
    with sqlite3.connect(client.app.conflictkit.settings.db_path) as conn:
        assert conn.execute("SELECT count(*) FROM comparisons").fetchone() == (0,)
    assert client.get("/").status_code == 200


def test_decision_api_refuses_bad_requests(make_client, reviews):
    ref, inp = "1. A shall pay.\n", "1. A may pay.\n"
    cid = reviews.add("r.md", "i.md", ref, inp, make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", [])]), "")
    client = make_client()
    url = f"/api/comparisons/{cid}/decisions/F0001"
    assert client.post(url, json={"status": "maybe"}).status_code == 400
    assert client.post(url, json={"note": 7}).status_code == 400
    assert client.post(url, json={"note": "x" * 5000}).status_code == 400
    assert client.post(url, json=["dismissed"]).status_code == 400
    assert client.post(url, content=b"{not json", headers={"content-type": "application/json"}).status_code == 400
    assert client.post(url, content=b'{"status": "dismissed"}', headers={"content-type": "text/plain"}).status_code == 415
    assert client.post(f"/api/comparisons/{cid}/decisions/F9999", json={"status": "accepted"}).status_code == 404
    assert client.post("/api/comparisons/0123456789abcdef/decisions/F0001", json={"status": "accepted"}).status_code == 404
    assert reviews.decisions(cid) == {}


def test_unknown_ids_are_404(make_client):
    client = make_client()
    assert client.get("/comparisons/0123456789abcdef").status_code == 404
    assert client.get("/jobs/nope").status_code == 404
    assert client.get("/api/jobs/nope").status_code == 404
    assert client.get("/comparisons/0123456789abcdef/export.json").status_code == 404


def test_a_move_and_a_split_show_as_one_finding_each(make_client):
    from tests.align.agreement import AGREEMENT, moved_and_split

    client = make_client()
    response = upload(client, ("reference.md", AGREEMENT.encode()), ("input.md", moved_and_split().encode()))
    state = wait_for_job(client, response.headers["location"])
    assert state["state"] == "done", state["error"]
    cid = state["comparison"]
    findings = json.loads(client.get(f"/comparisons/{cid}/export.json").text)["report"]["findings"]
    assert sorted(f["kind"] for f in findings) == ["deviation", "moved"]
    page = client.get(f"/comparisons/{cid}").text
    assert page.count('<li class="finding') == 2 and page.count('class="finding k-moved"') == 1
    split = next(i for i, f in enumerate(findings) if f["kind"] == "deviation")
    assert page.count(f'id="input-f{split}"') == 1 and "(+1 more clause)" in page


def test_word_pdf_and_html_uploads_are_read_and_their_text_shown(make_client):
    docx_testing = pytest.importorskip("conflictkit_docx.testing")
    from conflictkit.testing.formats import markdown_to_html

    ref, inp = sample_pair()
    client = make_client()
    home = client.get("/").text
    assert 'accept=".docx,' in home or ".docx" in home.split('accept="')[1].split('"')[0]
    word = docx_testing.markdown_to_docx(inp.read_text(encoding="utf-8"))
    page = markdown_to_html(ref.read_text(encoding="utf-8"))
    response = upload(client, ("reference.html", page.encode()), ("draft.docx", word))
    state = wait_for_job(client, response.headers["location"])
    assert state["state"] == "done", state["error"]
    stored = json.loads(client.get(f"/comparisons/{state['comparison']}/export.json").text)
    assert stored["report"]["input"]["source"]["format"] == "docx"
    assert stored["report"]["reference"]["source"]["format"] == "html"
    shown = client.get(f"/comparisons/{state['comparison']}").text
    assert "1.1 &quot;Affiliate&quot; means" in shown or "1.1 \"Affiliate\" means" in shown  # the extracted text, numbering included
    assert "document.write" not in shown and "w:t" not in shown


def test_the_form_offers_only_presets_that_can_run_here(make_client, tmp_path, monkeypatch):
    from conflictkit.web.app import list_presets, preset_availability

    presets = tmp_path / "presets"
    presets.mkdir()
    (presets / "needs-a-plugin.yaml").write_text("version: 1\npipeline:\n  judge: {use: not-installed-here}\n")
    monkeypatch.setenv("CONFLICTKIT_CONFIGS", str(presets))
    availability = preset_availability(list_presets())
    assert availability["fast"] is None
    assert "not-installed-here" in availability["needs-a-plugin"]
    client = make_client(presets=[n for n, why in availability.items() if why is None],
                         unavailable={n: why for n, why in availability.items() if why})
    home = client.get("/").text
    assert '<option value="preset:fast">fast</option>' in home
    assert 'value="preset:needs-a-plugin"' not in home  # not offered...
    assert '<option disabled title="' in home and "needs-a-plugin: " in home  # ...but shown, with why
    # ... in one short line (the whole reason in the tooltip), and listed under the form
    import re as _re
    option = _re.search(r'<option disabled title="[^"]*">(needs-a-plugin: [^<]*)</option>', home).group(1)
    assert "not-installed-here" in option and len(option) <= 130 and "available:" not in option
    assert '<details class="unavailable">' in home and "<b>needs-a-plugin</b>" in home
    # the upload page asks before sending a file
    assert client.get("/api/config-check?key=preset:fast").json() == {"ok": True}
    refused_early = client.get("/api/config-check?key=preset:needs-a-plugin").json()
    assert refused_early["ok"] is False and "cannot run on this server" in refused_early["error"]
    assert client.get("/api/config-check?key=nonsense").json()["ok"] is False
    ref, inp = sample_pair()
    refused = upload(client, (ref.name, ref.read_bytes()), (inp.name, inp.read_bytes()), config="preset:needs-a-plugin")
    assert refused.status_code == 400 and "cannot run on this server" in refused.text
    assert client.app.conflictkit.runner.live == {}  # refused before any job started


def test_rename_and_delete_api(make_client, reviews):
    ref, inp = "1. A shall pay.\n", "1. A may pay.\n"
    cid = reviews.add("r.md", "i.md", ref, inp, make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", [])]), "")
    reviews.decide(cid, "F0001", "accepted", "ok")
    client = make_client()
    url = f"/api/comparisons/{cid}"
    assert client.post(url, json={"name": "  Round   2  "}).json() == {"id": cid, "name": "Round 2"}
    assert "Round 2" in client.get("/").text and "Round 2 · conflictkit" in client.get(f"/comparisons/{cid}").text
    assert client.post(url, json={"name": "   "}).status_code == 400
    assert client.post(url, json={"name": 3}).status_code == 400
    assert client.post(url, content=b'{"name": "x"}', headers={"content-type": "text/plain"}).status_code == 415
    assert client.post("/api/comparisons/0123456789abcdef", json={"name": "x"}).status_code == 404
    assert client.delete(url).json() == {"deleted": cid}
    assert client.delete(url).status_code == 404
    assert reviews.get(cid) is None and reviews.decisions(cid) == {}
    assert client.get(f"/comparisons/{cid}").status_code == 404


def _review_file(report: dict, decisions: dict) -> dict:
    return {"schema": "conflictkit.review/1", "comparison": {},
            "report": {"reference": dict(report["reference"]), "input": dict(report["input"]),
                       "findings": [{**f, "review": decisions.get(f["id"], {"status": None, "note": ""})}
                                    for f in report["findings"]]}}


def test_a_review_file_is_imported_into_the_comparison_of_the_same_documents(make_client, reviews):
    ref, inp = "1. A shall pay.\n\n2. B may sue.\n", "1. A may pay.\n\n2. B may not sue.\n"
    report = make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", []), ("deviation", "B may sue.", "B may not sue.", [])])
    cid = reviews.add("r.md", "i.md", ref, inp, report, "")
    client = make_client()
    url = f"/api/comparisons/{cid}/review"
    data = _review_file(report, {"F0001": {"status": "accepted", "note": "fine"}, "F0002": {"status": None, "note": "ask"}})
    answer = client.post(url, json=data).json()
    assert answer["imported"] == 2 and answer["message"] == "imported 2 decisions"
    stored = reviews.decisions(cid)
    assert (stored["F0001"]["status"], stored["F0001"]["note"], stored["F0002"]["note"]) == ("accepted", "fine", "ask")
    # a finding with other spans or kind is not this comparison's: skipped, and said
    moved = json.loads(json.dumps(data))
    moved["report"]["findings"][0]["input"]["start"] += 1
    moved["report"]["findings"][1]["kind"] = "added"
    skipped = client.post(url, json=moved).json()
    assert skipped["imported"] == 0 and len(skipped["skipped"]) == 2 and "skipped 2" in skipped["message"]
    other = json.loads(json.dumps(data))
    other["report"]["reference"]["sha256"] = "f" * 64
    refused = client.post(url, json=other)
    assert refused.status_code == 400 and "another reference document" in refused.json()["error"]
    assert client.post(url, json={"schema": "something else"}).status_code == 400
    assert client.post(url, content=b"{", headers={"content-type": "application/json"}).status_code == 400
    assert client.post(url, content=b"{}", headers={"content-type": "text/plain"}).status_code == 415
    bad_status = _review_file(report, {"F0001": {"status": "maybe", "note": ""}})
    assert client.post(url, json=bad_status).json()["imported"] == 0
    assert client.post("/api/comparisons/0123456789abcdef/review", json=data).status_code == 404
