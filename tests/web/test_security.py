"""Security of ``conflictkit serve``: upload limit, no path traversal, token off loopback, Host and
Origin checks, escaped document text."""

from __future__ import annotations

import re
import subprocess
import sys

import httpx
import pytest

from conflictkit.testing.reports import make_report
from tests.web.conftest import CONFIG, ROOT, sample_pair

SECRET = "s3cret-token-for-tests"


def test_an_upload_over_the_limit_is_413_with_a_message(make_client):
    client = make_client(max_upload_bytes=10_000)
    big = ("big.md", b"1. Clause text.\n" * 2_000)
    response = client.post("/compare", files={"reference": big, "input": ("i.md", b"x")})
    assert response.status_code == 413
    assert "upload too large: the limit is 0.01 MB" in response.text and "--max-upload-mb" in response.text

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"x" * 1_000

    streamed = client.post("/compare", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b"})
    assert streamed.status_code == 413 and "upload too large" in streamed.text
    assert client.get("/").status_code == 200
    assert client.app.conflictkit.reviews.list() == []


def test_a_real_server_answers_413_and_keeps_running(servers, tmp_path):
    server = servers("--config", CONFIG, "--db", str(tmp_path / "r.sqlite"), "--max-upload-mb", "0.05")
    files = {"reference": ("a.md", b"1. A.\n" * 20_000), "input": ("b.md", b"1. B.\n")}
    response = httpx.post(server.url + "/compare", files=files, timeout=30)
    assert response.status_code == 413 and "upload too large: the limit is 0.05 MB" in response.text
    assert httpx.get(server.url + "/", timeout=30).status_code == 200


@pytest.mark.parametrize("path", [
    "/static/../pyproject.toml", "/static/..%2f..%2fpyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%5c..%5cpyproject.toml", "/static/app.py", "/static/", "/static/reviews.sqlite",
    "/comparisons/..%2f..%2fetc%2fpasswd", "/comparisons/../../etc/passwd", "/comparisons/%2e%2e",
    "/comparisons/0123456789abcdef/export.../../pyproject.toml", "/comparisons/0123456789abcdef/export.py",
    "/jobs/..%2f..%2fetc%2fpasswd", "/etc/passwd", "//etc/passwd",
])
def test_no_path_from_a_request_reaches_the_disk(make_client, path):
    client = make_client()
    response = client.get(path)
    assert response.status_code in (400, 404)
    assert "[project]" not in response.text and "root:" not in response.text


def test_uploaded_names_are_display_names_only(make_client, tmp_path):
    client = make_client()
    before = sorted(p.name for p in tmp_path.rglob("*"))
    ref, inp = sample_pair()
    response = client.post("/compare", files={
        "reference": ("../../../../tmp/evil-ref.md", ref.read_bytes()),
        "input": ("..\\..\\evil-input.md", inp.read_bytes()),
    })
    assert response.status_code == 303
    from tests.web.conftest import wait_for_job

    state = wait_for_job(client, response.headers["location"])
    assert (state["reference_name"], state["input_name"]) == ("evil-ref.md", "evil-input.md")
    created = sorted(p.name for p in tmp_path.rglob("*"))
    assert not (ROOT.parent / "tmp" / "evil-ref.md").exists()
    assert {n for n in created if n not in before} <= {"reviews.sqlite-wal", "reviews.sqlite-shm"}


def test_document_text_is_escaped_in_the_results_page(make_client, reviews):
    ref = '1. Notices. <script>window.__xss = 1</script> go to <img src=x onerror="alert(1)"> the address.\n'
    inp = '1. Notices. <script>window.__xss = 2</script> go <b onmouseover="alert(2)">nowhere</b>.\n'
    report = make_report(ref, inp, [("deviation", ref[3:-1], inp[3:-1],
                                     [{"type": "<svg onload=alert(3)>", "reference": "<i>a</i>", "input": '"><img>'}])])
    cid = reviews.add("<script>a</script>.md", '"><img src=x onerror=alert(4)>.md', ref, inp, report, "")
    client = make_client()
    for page in (client.get(f"/comparisons/{cid}").text, client.get("/").text):
        assert not re.search(r"<(img|svg)\b|<i>|<b onmouseover", page, re.I)
        assert len(re.findall(r"<script\b", page)) == 2  # report.js and app.js, nothing else
        assert "&lt;script&gt;" in page
    assert client.get(f"/comparisons/{cid}").headers["content-security-policy"].startswith("default-src 'self'; script-src 'self'")


def test_token_is_required_on_every_request_off_loopback(make_client, reviews):
    ref, inp = "1. A shall pay.\n", "1. A may pay.\n"
    cid = reviews.add("r.md", "i.md", ref, inp, make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", [])]), "")
    client = make_client(base_url="http://192.0.2.10:8000", host="0.0.0.0", token=SECRET)
    for path in ("/", "/static/app.js", f"/comparisons/{cid}", f"/comparisons/{cid}/export.json", "/api/jobs/x"):
        response = client.get(path)
        assert response.status_code == 401 and "access token" in response.text
        assert client.get(path, headers={"authorization": "Bearer wrong"}).status_code == 401
        assert client.get(path, params={"token": "wrong"}).status_code == 401
    assert client.post(f"/api/comparisons/{cid}/decisions/F0001", json={"status": "accepted"}).status_code == 401
    assert reviews.decisions(cid) == {}
    assert client.get("/", headers={"authorization": f"Bearer {SECRET}"}).status_code == 200
    moved = client.get(f"/comparisons/{cid}", params={"token": SECRET})
    assert moved.status_code == 303 and moved.headers["location"] == f"/comparisons/{cid}"
    assert "HttpOnly" in moved.headers["set-cookie"] and "SameSite=Strict" in moved.headers["set-cookie"]
    assert client.get(f"/comparisons/{cid}").status_code == 200  # the cookie now carries the token


def test_a_token_set_on_loopback_is_checked_too(make_client):
    client = make_client(token=SECRET)
    assert client.get("/").status_code == 401
    assert client.get("/", headers={"authorization": f"Bearer {SECRET}"}).status_code == 200


def test_other_host_names_are_refused_on_loopback(make_client):
    client = make_client()
    assert client.get("/", headers={"host": "attacker.example:8000"}).status_code == 400  # DNS rebinding
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        assert client.get("/", headers={"host": host}).status_code == 200


def test_cross_site_posts_are_refused(make_client, reviews):
    ref, inp = "1. A shall pay.\n", "1. A may pay.\n"
    cid = reviews.add("r.md", "i.md", ref, inp, make_report(ref, inp, [("deviation", "A shall pay.", "A may pay.", [])]), "")
    client = make_client()
    url = f"/api/comparisons/{cid}/decisions/F0001"
    refused = client.post(url, json={"status": "accepted"}, headers={"origin": "http://attacker.example"})
    assert refused.status_code == 403
    assert reviews.decisions(cid) == {}
    assert client.post(url, json={"status": "accepted"}, headers={"origin": "http://127.0.0.1:8000"}).status_code == 200


def run_cli(*args: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "conflictkit", "serve", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, cwd=ROOT)


def test_binding_off_loopback_needs_a_token(tmp_path, monkeypatch):
    monkeypatch.delenv("CONFLICTKIT_TOKEN", raising=False)
    result = run_cli("--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "r.sqlite"), "--config", CONFIG)
    assert result.returncode == 2
    assert "conflictkit: error: binding 0.0.0.0 makes the app reachable from other machines; give --token or set CONFLICTKIT_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "r.sqlite").exists()


def test_binding_off_loopback_with_the_env_token_warns_and_checks_it(servers, tmp_path):
    server = servers("--host", "0.0.0.0", "--db", str(tmp_path / "r.sqlite"), "--config", CONFIG,
                     env={"CONFLICTKIT_TOKEN": SECRET})
    assert any("warning: serving on 0.0.0.0, reachable from other machines" in line for line in server.output)
    url = server.url.replace("0.0.0.0", "127.0.0.1")
    assert httpx.get(url + "/", timeout=30).status_code == 401
    assert httpx.get(url + "/", headers={"authorization": f"Bearer {SECRET}"}, timeout=30).status_code == 200


def test_bad_serve_options_are_one_line_errors(tmp_path):
    bad_config = run_cli("--config", str(tmp_path / "nope.yaml"), "--port", "0", "--db", str(tmp_path / "r.sqlite"))
    assert bad_config.returncode == 2 and "nope.yaml does not exist" in bad_config.stderr
    bad_db = run_cli("--config", CONFIG, "--port", "0", "--db", str(tmp_path))
    assert bad_db.returncode == 2 and "Traceback" not in bad_db.stderr
    for result in (bad_config, bad_db):
        assert "Traceback" not in result.stderr


def test_the_bound_loopback_address_is_a_host_it_answers_as(make_client):
    """Bound to 127.0.0.2, every request used to get 400 (the Host check knew only 127.0.0.1)."""
    client = make_client(base_url="http://127.0.0.2:8000", host="127.0.0.2")
    assert client.get("/", headers={"host": "127.0.0.2:8000"}).status_code == 200
    assert client.get("/", headers={"host": "localhost:8000"}).status_code == 200
    refused = client.get("/", headers={"host": "attacker.example:8000"})
    assert refused.status_code == 400 and "127.0.0.2" in refused.text
    assert client.get("/", headers={"host": "[bad"}).status_code == 400


@pytest.mark.parametrize("token", ["  ", ""])
def test_a_blank_token_is_refused(tmp_path, token):
    result = run_cli("--token", token, "--port", "0", "--db", str(tmp_path / "r.sqlite"), "--config", CONFIG)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--token (or CONFLICTKIT_TOKEN) is blank" in result.stderr
