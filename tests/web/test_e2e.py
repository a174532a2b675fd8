"""End to end in Chromium: upload the samples to a real ``conflictkit serve``, review a finding,
restart the server and find the decision kept; export the review and open it offline."""

from __future__ import annotations

import pytest

from conflictkit.testing import browser
from tests.web.conftest import CONFIG, ROOT, sample_pair

pytestmark = [pytest.mark.browser, pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]

ARTIFACTS = ROOT / "test-artifacts" / "web"
IN_VIEW = """e => { const r = e.getBoundingClientRect(), d = e.closest('.doc').getBoundingClientRect();
                    return r.height > 0 && r.top >= d.top - 1 && r.bottom <= d.bottom + 1; }"""


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.fixture(scope="module")
def chromium():
    with browser.chromium() as b:
        yield b


def test_upload_review_restart_and_export(chromium, servers, tmp_path):
    db = tmp_path / "reviews.sqlite"
    server = servers("--config", CONFIG, "--db", str(db))
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/")
    reference, input = sample_pair()
    page.set_input_files('input[name="reference"]', str(reference))
    page.set_input_files('input[name="input"]', str(input))
    page.click('button[type="submit"]')
    page.wait_for_url("**/comparisons/*", timeout=120_000)
    shot(page, "1-results")
    results_url = page.url

    findings = page.locator("#ck-findings li.finding")
    assert findings.count() > 0
    deviation = page.locator('#ck-findings li.finding[data-kind="deviation"]').last
    index, fid = deviation.get_attribute("data-i"), deviation.get_attribute("data-fid")
    deviation.click()
    for side in ("reference", "input"):
        mark = page.locator(f'#doc-{side} mark[data-f~="{index}"]').first
        mark.wait_for(state="visible")
        assert "active" in mark.get_attribute("class")
        page.wait_for_function(f"""() => ({IN_VIEW})(document.querySelector('#doc-{side} mark[data-f~="{index}"]'))""")
    assert deviation.locator(".redline").is_visible()
    shot(page, "2-selected")

    dismissed = findings.first
    dismissed_fid = dismissed.get_attribute("data-fid")
    dismissed.click()
    dismissed.locator('button[data-action="dismissed"]').click()
    page.wait_for_function(f"() => document.querySelector('li[data-fid=\"{dismissed_fid}\"] .saved').textContent === 'saved'")
    dismissed.locator("textarea").fill("Vendor standard; accepted risk.")  # saved as typed: no button
    page.wait_for_function(f"() => document.querySelector('li[data-fid=\"{dismissed_fid}\"] textarea').dataset.saved"
                           " === 'Vendor standard; accepted risk.'")
    assert dismissed.get_attribute("data-status") == "dismissed"
    shot(page, "3-dismissed")

    server.stop()
    restarted = servers("--config", CONFIG, "--db", str(db))
    page.goto(restarted.url + "/")
    page.click(f'a[href="{results_url.split(server.url, 1)[1]}"]')  # listed, reopens
    kept = page.locator(f'#ck-findings li.finding[data-fid="{dismissed_fid}"]')
    assert kept.get_attribute("data-status") == "dismissed"
    assert kept.locator(".status").text_content() == "dismissed"
    assert kept.locator("textarea").input_value() == "Vendor standard; accepted risk."
    assert page.locator(f'#ck-findings li.finding[data-fid="{fid}"]').get_attribute("data-status") == ""
    shot(page, "4-after-restart")

    with page.expect_download() as download:
        page.click('a[href$="/export.html"]')
    exported = tmp_path / "review.html"
    download.value.save_as(exported)
    offline = chromium.new_context(viewport={"width": 1400, "height": 900})
    blocked = browser.block_network(offline)
    review = offline.new_page()
    review.goto(exported.as_uri())
    assert review.locator("#ck-findings li.finding").count() == findings.count()
    assert review.locator(f'li.finding[data-fid="{dismissed_fid}"] textarea').input_value() == "Vendor standard; accepted risk."
    assert review.locator(f'li.finding[data-fid="{dismissed_fid}"]').get_attribute("data-status") == "dismissed"
    assert blocked == []
    shot(review, "5-exported-review")
    offline.close()
    context.close()
    assert errors == []


def app_page(chromium):
    """A fresh context and page in it, and the list its page errors go to."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def upload_samples(page, server) -> str:
    page.goto(server.url + "/")
    reference, input = sample_pair()
    page.set_input_files('input[name="reference"]', str(reference))
    page.set_input_files('input[name="input"]', str(input))
    page.click('button[type="submit"]')
    page.wait_for_url("**/comparisons/*", timeout=120_000)
    return page.url


def test_keyboard_review_and_notes_saved_as_typed_survive_a_reload(chromium, servers, tmp_path):
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"))
    context, page, errors = app_page(chromium)
    url = upload_samples(page, server)
    reference, input = sample_pair()
    assert page.title() == f"{reference.name} -> {input.name} · conflictkit"
    total = page.locator("#ck-findings li.finding").count()
    assert page.locator("#ck-reviewed").inner_text() == f"0 of {total} reviewed"

    page.locator("body").press("j")  # the first finding
    first = page.locator("li.finding.selected")
    first_fid = first.get_attribute("data-fid")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelector('li.finding.selected').dataset.status === 'accepted'")
    page.keyboard.press("j")
    second_fid = page.locator("li.finding.selected").get_attribute("data-fid")
    assert second_fid != first_fid
    page.keyboard.press("d")
    page.wait_for_function("() => document.querySelector('li.finding.selected').dataset.status === 'dismissed'")
    assert page.locator("#ck-reviewed").inner_text() == f"2 of {total} reviewed"
    page.keyboard.press("k")
    page.keyboard.press("u")  # clear the first again
    page.wait_for_function(f"() => document.querySelector('li[data-fid=\"{first_fid}\"]').dataset.status === ''")
    assert page.locator("#ck-reviewed").inner_text() == f"1 of {total} reviewed"

    page.keyboard.press("n")  # into the selected finding's note; typed, never submitted
    assert page.evaluate("document.activeElement.tagName") == "TEXTAREA"
    page.keyboard.type("Check with legal before signing.")
    page.wait_for_function(f"() => document.querySelector('li[data-fid=\"{first_fid}\"] textarea').dataset.saved"
                           " === 'Check with legal before signing.'")
    page.reload()
    note = page.locator(f'li.finding[data-fid="{first_fid}"] textarea')
    assert note.input_value() == "Check with legal before signing."
    assert page.locator(f'li.finding[data-fid="{second_fid}"]').get_attribute("data-status") == "dismissed"
    assert page.locator("#ck-reviewed").inner_text() == f"1 of {total} reviewed"
    page.select_option("#ck-status", "dismissed")
    assert page.locator("#ck-findings li.finding:visible").evaluate_all("els => els.map(e => e.dataset.fid)") == [second_fid]
    assert url == page.url.split("#")[0]
    context.close()
    assert errors == []


def test_rename_and_delete_past_comparisons(chromium, servers, tmp_path):
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"))
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    first = upload_samples(page, server).rsplit("/", 1)[1]
    second = upload_samples(page, server).rsplit("/", 1)[1]
    page.goto(server.url + "/")
    assert page.locator("table.past tbody tr").count() == 2
    page.once("dialog", lambda dialog: dialog.accept("MSA round 2 <b>x</b>"))
    page.locator(f'tr[data-cid="{first}"] button[data-manage="rename"]').click()
    page.wait_for_function(f"() => document.querySelector('tr[data-cid=\"{first}\"] a.title').textContent === 'MSA round 2 <b>x</b>'")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f'tr[data-cid="{second}"] button[data-manage="delete"]').click()
    page.wait_for_function("() => document.querySelectorAll('table.past tbody tr').length === 1")
    page.reload()  # both changes were stored
    assert page.locator("table.past a.title").all_inner_texts() == ["MSA round 2 <b>x</b>"]
    assert page.locator("table.past b").count() == 0
    assert page.goto(f"{server.url}/comparisons/{second}").status == 404
    page.goto(f"{server.url}/comparisons/{first}")
    assert page.title() == "MSA round 2 <b>x</b> · conflictkit"
    context.close()


def test_bad_files_are_explained_in_the_page(chromium, servers, tmp_path):
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"))
    page = chromium.new_page()
    reference, _ = sample_pair()
    cases = [
        ({"name": "empty.md", "mimeType": "text/markdown", "buffer": b""}, "empty.md is empty"),
        # a broken PDF: the pdf plugin says so, or a core-only install names the plugin to install
        ({"name": "scan.pdf", "mimeType": "application/pdf", "buffer": b"%PDF-1.4\n\x00\x01binary"},
         ("scan.pdf is not a readable PDF", "needs the conflictkit-pdf plugin")),
        ({"name": "photo.png", "mimeType": "image/png", "buffer": b"\x89PNG\r\n\x1a\n\x00\x00"}, "photo.png looks like a PNG image"),
    ]
    for bad, message in cases:
        page.goto(server.url + "/")
        page.set_input_files('input[name="reference"]', str(reference))
        page.set_input_files('input[name="input"]', files=[bad])
        page.click('button[type="submit"]')
        alert = page.locator('[role="alert"]')
        alert.wait_for()
        assert any(m in alert.inner_text() for m in (message if isinstance(message, tuple) else (message,)))
    shot(page, "6-bad-file")
    page.close()
