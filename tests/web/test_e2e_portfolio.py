"""End to end in Chromium: a review made in report.html imported by the app; a failed comparison says why;
a batch's page is a portfolio with its heat map; the upload page checks the configuration before sending
a file and takes dropped files."""

from __future__ import annotations

import json
import re
import time

import pytest

from conflictkit.testing import browser
from tests.web.conftest import CONFIG, sample_pair
from tests.web.test_e2e import app_page, shot, upload_samples

pytestmark = [pytest.mark.browser, pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


@pytest.fixture(scope="module")
def chromium():
    with browser.chromium() as b:
        yield b


def _static_review(chromium, tmp_path, fast_config) -> tuple[str, dict]:
    """report.html of the samples, reviewed offline (F0006 accepted, F0024 dismissed with a note), exported."""
    from conflictkit.engine import Engine
    from conflictkit.report.writer import write_outputs
    from conflictkit.stages import Rendering

    reference, input = sample_pair()
    result = Engine(fast_config).compare(str(reference), str(input))
    write_outputs(result, tmp_path / "out", ("json", "md", "html"), "all", Rendering.of_result(result))
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    blocked = browser.block_network(context)
    page = context.new_page()
    page.goto((tmp_path / "out" / "report.html").as_uri())
    page.locator('li.finding[data-fid="F0006"]').click()
    page.keyboard.press("a")
    page.locator('li.finding[data-fid="F0024"]').click()
    page.keyboard.press("d")
    page.keyboard.press("n")
    page.keyboard.type("Acceptable: consent is still needed.")
    page.wait_for_function("() => document.querySelector('li[data-fid=\"F0024\"] .saved').textContent === 'saved'")
    with page.expect_download() as download:
        page.click("#ck-export")
    path = tmp_path / "review.json"
    download.value.save_as(path)
    assert blocked == []
    context.close()
    return str(path), json.loads(path.read_text())


def test_a_review_made_in_report_html_is_imported_by_the_app(chromium, servers, tmp_path, fast_config):
    exported, data = _static_review(chromium, tmp_path, fast_config)
    assert {f["id"]: f["review"]["status"] for f in data["report"]["findings"] if f["review"]["status"]} == \
        {"F0006": "accepted", "F0024": "dismissed"}
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"))
    context, page, errors = app_page(chromium)
    url = upload_samples(page, server)
    page.set_input_files("#ck-import", exported)
    page.wait_for_function("() => /imported/.test(document.getElementById('ck-import-result').textContent)")
    assert page.locator("#ck-import-result").inner_text() == "imported 2 decisions"
    assert page.locator('li.finding[data-fid="F0006"]').get_attribute("data-status") == "accepted"
    assert page.locator("#ck-reviewed").inner_text() == "2 of 24 reviewed"
    page.goto(url)  # stored by the server
    assert page.locator('li.finding[data-fid="F0024"]').get_attribute("data-status") == "dismissed"
    assert page.locator('li.finding[data-fid="F0024"] textarea').input_value() == "Acceptable: consent is still needed."
    # a review of other documents is refused, saying so
    other = json.loads(json.dumps(data))
    other["report"]["input"]["sha256"] = "0" * 64
    (tmp_path / "other.json").write_text(json.dumps(other))
    page.set_input_files("#ck-import", str(tmp_path / "other.json"))
    page.wait_for_function("() => /not imported/.test(document.getElementById('ck-import-result').textContent)")
    assert "another input document" in page.locator("#ck-import-result").inner_text()
    shot(page, "7-imported-review")
    context.close()
    assert errors == []


def test_a_failed_comparison_says_why_and_stops_saying_comparing(chromium, servers, tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text("version: 1\npipeline: {embedder: {use: hashing}}\nlimits: {max_clauses: 5}\n")
    server = servers("--config", str(config), "--db", str(tmp_path / "reviews.sqlite"))
    page = chromium.new_page()
    reference, input = sample_pair()
    page.goto(server.url + "/")
    page.set_input_files('input[name="reference"]', str(reference))
    page.set_input_files('input[name="input"]', str(input))
    page.click('button[type="submit"]')
    page.wait_for_url("**/jobs/*")
    page.wait_for_function("() => !document.getElementById('error').hidden")
    assert "over the limit of 5" in page.locator("#error").inner_text()
    assert page.locator("header.top h1").inner_text() == "Comparison failed"
    assert page.title() == "Comparison failed · conflictkit"
    page.close()


def test_a_batch_page_is_a_portfolio_with_a_heat_map(chromium, servers, tmp_path):
    reference, input = sample_pair()
    same = tmp_path / "unchanged.md"
    same.write_text(reference.read_text(encoding="utf-8"), encoding="utf-8")
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"))
    context, page, errors = app_page(chromium)
    page.goto(server.url + "/")
    page.set_input_files('input[name="reference"]', str(reference))
    page.set_input_files('input[name="input"]', [str(same), str(input)])
    page.click('button[type="submit"]')
    page.wait_for_url("**/batches/*")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the page draws itself again as each document finishes
        try:
            if page.evaluate("() => document.querySelector('[data-batch]').dataset.finished") == "2":
                break
        except Exception:  # a reload in progress
            pass
        page.wait_for_timeout(200)
    page.wait_for_load_state()
    rows = page.locator("table.heat tbody tr").evaluate_all("els => els.map(e => e.dataset.input)")
    assert rows == [input.name, same.name]  # riskiest first
    cell = page.locator(f'table.heat tr[data-input="{input.name}"] td.cell.s-high a').first
    assert cell.is_visible()
    assert page.locator("table.heat td.cell.s-high").first.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(176, 0, 32)"
    href = cell.get_attribute("href")
    assert re.fullmatch(r"/comparisons/[0-9a-f]{16}#subject=\w+", href)
    shot(page, "8-batch-portfolio")
    cell.click()
    page.wait_for_url("**/comparisons/*")
    subject = href.rsplit("=", 1)[1]
    assert page.locator("#ck-subject").input_value() == subject
    shown = page.locator("#ck-findings li.finding:visible").evaluate_all("els => els.map(e => e.dataset.subject)")
    assert shown and set(shown) == {subject}
    context.close()
    assert errors == []


def test_the_upload_page_checks_the_configuration_before_any_file_is_sent_and_takes_dropped_files(chromium, servers, tmp_path):
    presets = tmp_path / "presets"
    presets.mkdir()
    # a long name and a long reason must still fit: a select is as wide as its widest option
    (presets / "needs-a-plugin.yaml").write_text("version: 1\npipeline:\n  judge: {use: not-installed-here}\n")
    (presets / f"{'a-preset-with-a-very-long-name-' * 4}.yaml").write_text(
        "version: 1\npipeline:\n  judge: {use: " + "another-judge-not-installed-here-" * 4 + "}\n")
    server = servers("--config", CONFIG, "--db", str(tmp_path / "reviews.sqlite"), env={"CONFLICTKIT_CONFIGS": str(presets)})
    page = chromium.new_page(viewport={"width": 900, "height": 900})
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" else None)
    page.goto(server.url + "/")
    # every option fits the page, and what an unavailable preset needs is one line
    fits = page.locator('select[name="config"]').evaluate("s => s.getBoundingClientRect().right <= document.documentElement.clientWidth")
    assert fits
    page.locator("details.unavailable summary").click()
    needs = page.locator("details.unavailable li").filter(has_text="needs-a-plugin").inner_text()
    assert "not-installed-here" in needs and "\n" not in needs and len(needs) < 140
    reference, input = sample_pair()
    # a dropped file goes into its field
    page.evaluate("""([name, text]) => {
        const zone = document.querySelector('input[name="reference"]').closest('label.drop');
        const data = new DataTransfer();
        data.items.add(new File([text], name, {type: "text/markdown"}));
        zone.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
    }""", [reference.name, reference.read_text(encoding="utf-8")])
    assert page.evaluate("() => document.querySelector('input[name=\"reference\"]').files[0].name") == reference.name
    page.set_input_files('input[name="input"]', str(input))
    # a configuration that cannot run here is refused before the upload
    page.evaluate("""() => { const s = document.querySelector('select[name="config"]');
        const o = document.createElement('option'); o.value = 'preset:needs-a-plugin'; s.appendChild(o); s.value = o.value; }""")
    page.click('button[type="submit"]')
    page.locator('[role="alert"]').wait_for()
    assert "cannot run on this server" in page.locator('[role="alert"]').inner_text()
    assert posted == []  # no file was sent
    page.select_option('select[name="config"]', "default")
    page.click('button[type="submit"]')
    page.wait_for_url("**/comparisons/*", timeout=120_000)
    assert any(url.endswith("/compare") for url in posted)
    page.close()
