"""The HTML report in a real browser with the network cut: it shows every finding, selects, filters,
sorts, prints, and runs no script that came from a document."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conflictkit.report.html import render_html
from conflictkit.testing import browser

pytestmark = [pytest.mark.browser, pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "report"


@pytest.fixture(scope="module")
def chromium():
    with browser.chromium() as b:
        yield b


@pytest.fixture
def offline_page(chromium):
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    blocked = browser.block_network(context)
    page = context.new_page()
    page.blocked = blocked
    page.dialogs = []
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    yield page
    context.close()


def open_report(page, tmp_path: Path, report: dict, ref: str, inp: str, name: str = "report.html", decisions=None):
    file = tmp_path / name
    file.write_text(render_html(report, ref, inp, decisions), encoding="utf-8")
    page.goto(file.as_uri())
    return file


def test_report_opens_offline_and_shows_every_finding(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    open_report(offline_page, tmp_path, report, ref, inp)
    items = offline_page.locator("#ck-findings li.finding")
    assert items.count() == len(report["findings"])
    for finding in report["findings"]:
        assert offline_page.locator(f'li.finding[data-fid="{finding["id"]}"]').is_visible()
    marked = offline_page.locator("mark.hl").count()
    assert marked >= sum((f["reference"] is not None) + (f["input"] is not None) for f in report["findings"])
    assert offline_page.blocked == []


def test_selecting_a_finding_scrolls_both_documents_and_shows_the_redline(offline_page, tmp_path):
    from conflictkit.testing.reports import make_report

    filler = "".join(f"{n}. Filler clause number {n} of no interest.\n\n" for n in range(1, 200))
    ref = filler + "200. Provider shall not be liable for indirect damages.\n"
    inp = filler + "200. Provider shall be liable for indirect damages.\n"
    report = make_report(ref, inp, [
        ("deviation", "Filler clause number 3 of no interest.", "Filler clause number 3 of no interest.", []),
        ("deviation", "Provider shall not be liable for indirect damages.", "Provider shall be liable for indirect damages.", []),
    ])
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    ref_anchor = page.locator('#doc-reference mark[data-f~="1"]').first
    inp_anchor = page.locator('#doc-input mark[data-f~="1"]').first
    assert not ref_anchor.evaluate("e => { const r = e.getBoundingClientRect(), d = e.closest('.doc').getBoundingClientRect(); return r.top < d.bottom && r.bottom > d.top; }")
    page.locator('li.finding[data-fid="F0002"]').click()
    for anchor in (ref_anchor, inp_anchor):
        assert anchor.evaluate("e => { const r = e.getBoundingClientRect(), d = e.closest('.doc').getBoundingClientRect(); return r.top >= d.top && r.bottom <= d.bottom; }")
        assert "active" in anchor.get_attribute("class")
    assert page.locator('li.finding[data-fid="F0002"] .redline del.rev').inner_text() == "not"
    assert page.locator('li.finding[data-fid="F0002"] .redline').is_visible()
    assert not page.locator('li.finding[data-fid="F0001"] .redline').is_visible()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-selected.png"))


def shown(page) -> list[str]:
    return page.locator("#ck-findings li.finding:visible").evaluate_all("els => els.map(e => e.dataset.fid)")


def test_document_order_by_default_and_the_sort_menu(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    in_order = [f["id"] for f in report["findings"]]  # F0003 (missing) sits where its gap is, after F0002
    assert shown(page) == in_order
    by_p = [f["id"] for f in sorted(report["findings"], key=lambda f: -f["p_conflict"])]
    page.select_option("#ck-sort", "p-desc")
    assert shown(page) == by_p
    page.select_option("#ck-sort", "p-asc")
    assert shown(page) == list(reversed(by_p))
    page.select_option("#ck-sort", "kind")
    assert shown(page) == ["F0001", "F0002", "F0003", "F0004"]
    page.select_option("#ck-sort", "order")
    assert shown(page) == in_order


def test_filters_by_kind_reason_status_and_search(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    page = offline_page
    open_report(page, tmp_path, report, ref, inp, decisions={"F0002": {"status": "dismissed", "note": "vendor standard"}})
    page.uncheck('.toolbar input[value="deviation"]')
    assert shown(page) == ["F0003", "F0004"]
    page.check('.toolbar input[value="deviation"]')
    page.select_option("#ck-reason", "negation")
    assert shown(page) == ["F0002"]
    page.select_option("#ck-reason", "")
    page.select_option("#ck-status", "undecided")
    assert shown(page) == ["F0001", "F0003", "F0004"]
    page.select_option("#ck-status", "dismissed")
    assert shown(page) == ["F0002"]
    page.select_option("#ck-status", "")
    page.fill("#ck-search", "audit")
    assert shown(page) == ["F0003"]
    page.fill("#ck-search", "vendor standard")  # a note is searched too
    assert shown(page) == ["F0002"]
    assert page.locator("#ck-shown").inner_text() == "1 shown"
    page.fill("#ck-search", "")
    assert len(shown(page)) == 4
    assert page.locator("#ck-reviewed").inner_text() == "1 of 4 reviewed"


def test_changed_words_are_highlighted_inside_both_documents(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    deleted = page.locator('#doc-reference mark[data-f~="0"] .w-del').all_inner_texts()
    inserted = page.locator('#doc-input mark[data-f~="0"] .w-ins').all_inner_texts()
    assert deleted == ["thirty", "30"] and inserted == ["sixty", "60"]
    assert page.locator('#doc-reference mark[data-f~="1"] .w-del').inner_text() == "not"
    style = page.locator("#doc-reference .w-del").first.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "line-through" in style
    # Formatted text: the numbered clauses are a list that keeps the documents' own numbers.
    assert page.locator("#doc-input ol li").evaluate_all("els => els.map(e => e.value)") == [1, 2, 4]
    gap = page.locator("#doc-input .gap")
    assert gap.inner_text() == "F0003 missing here: 3"
    gap.click()
    assert page.locator('li.finding[data-fid="F0003"]').get_attribute("class").split().count("selected") == 1


def level_gap(page, index: str) -> float:
    return page.evaluate(f"""() => Math.abs(document.getElementById("reference-f{index}").getBoundingClientRect().top
                                        - document.getElementById("input-f{index}").getBoundingClientRect().top)""")


def test_scrolling_keeps_the_selected_clauses_level_and_keys_move_the_selection(offline_page, tmp_path):
    from conflictkit.testing.reports import make_report

    filler = "".join(f"{n}. Filler clause number {n} of no interest.\n\n" for n in range(1, 120))
    extra = "".join(f"{n}. Inserted boilerplate {n} the reference does not have at all.\n\n" for n in range(300, 360))
    ref = filler + "200. Provider shall not be liable for indirect damages.\n\n" + filler.replace("Filler", "Tail")
    inp = filler + extra + "200. Provider shall be liable for indirect damages.\n\n" + filler.replace("Filler", "Tail")
    report = make_report(ref, inp, [
        ("deviation", "Filler clause number 3 of no interest.", "Filler clause number 3 of no interest.", []),
        ("deviation", "Provider shall not be liable for indirect damages.", "Provider shall be liable for indirect damages.", []),
        ("deviation", "Tail clause number 50 of no interest.", "Tail clause number 50 of no interest.", []),
    ])
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    page.locator('li.finding[data-fid="F0002"]').click()
    assert level_gap(page, "1") < 2  # the input's clause is 60 clauses further down, yet level with the reference's
    scroll = page.evaluate("() => [document.getElementById('doc-reference').scrollTop, document.getElementById('doc-input').scrollTop]")
    assert scroll[1] > scroll[0] + 500
    page.locator("#doc-reference").evaluate("d => { d.scrollTop += 180; }")
    page.wait_for_function("([r, i]) => document.getElementById('doc-input').scrollTop > i + 170", arg=scroll)
    assert level_gap(page, "1") < 2  # scrolled together: still level
    page.locator("#doc-input").evaluate("d => { d.scrollTop -= 90; }")
    page.wait_for_function("([r, i]) => Math.abs(document.getElementById('doc-reference').scrollTop - (r + 90)) < 2", arg=scroll)
    assert level_gap(page, "1") < 2
    page.keyboard.press("j")
    assert page.locator("li.finding.selected").get_attribute("data-fid") == "F0003"
    assert level_gap(page, "2") < 2
    page.keyboard.press("k")
    page.keyboard.press("k")
    assert page.locator("li.finding.selected").get_attribute("data-fid") == "F0001"
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "ck-search"
    page.uncheck("#ck-together")
    page.locator('li.finding[data-fid="F0002"]').click()
    before = page.locator("#doc-input").evaluate("d => d.scrollTop")
    page.locator("#doc-reference").evaluate("d => { d.scrollTop += 100; }")
    page.wait_for_timeout(150)
    assert page.locator("#doc-input").evaluate("d => d.scrollTop") == before


def test_clause_text_never_runs_as_script(offline_page, tmp_path, xss_report):
    report, ref, inp = xss_report
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    for mark in page.locator("mark.hl").all():
        mark.hover()
        mark.click()
    page.locator("li.finding").first.click()
    assert page.evaluate("window.__xss") is None
    assert page.dialogs == []
    assert page.locator(".doc img, .doc script, .doc b, #ck-findings img, #ck-findings b#pwn, header img").count() == 0
    shown = page.locator("#doc-reference").inner_text()
    assert "window.__xss = 1; alert(1) Notices" in shown and "<script" not in shown  # tags are markup: dropped, never run
    assert "onerror" not in shown
    assert '<b id="pwn">F1</b>' in page.locator("#ck-findings").inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-xss.png"))


def test_print_layout_shows_every_redline_and_makes_a_pdf(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    page = offline_page
    open_report(page, tmp_path, report, ref, inp, decisions={"F0001": {"status": "accepted", "note": "ok"}})
    page.emulate_media(media="print")
    assert page.locator(".redline").evaluate_all("els => els.every(e => getComputedStyle(e).display !== 'none')")
    assert page.locator(".toolbar").is_hidden()
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 2  # findings, then documents
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report-print.pdf").write_bytes(pdf)


def test_compare_writes_a_report_html_that_opens_offline_with_every_finding(offline_page, tmp_path):
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "conflictkit", "compare", str(root / "samples" / "reference-saas-agreement.md"),
         str(root / "samples" / "input-vendor-draft.md"), "--config", "fast", "--format", "html", "--out", str(out)],
        capture_output=True, text=True, timeout=300, cwd=root,
    )
    assert done.returncode in (0, 3), done.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["findings"]
    page = offline_page
    page.goto((out / "report.html").as_uri())
    for i, finding in enumerate(report["findings"]):
        assert page.locator(f'li.finding[data-fid="{finding["id"]}"]').count() == 1
        for side in ("reference", "input"):
            anchor = page.locator(f"#{side}-f{i}")
            assert anchor.count() == 1  # the clause's anchor, or the gap marker where a missing/added one would be
            assert anchor.get_attribute("class").split()[0] == ("anchor" if finding[side] else "gap")
    page.locator('li.finding[data-kind="deviation"]').first.click()
    assert page.locator("li.finding.selected .redline").is_visible()
    assert page.locator("#doc-reference h2").count() > 5 and page.locator("#doc-input strong").count() > 20  # formatted
    assert page.title().startswith("conflictkit: ") and " -> " in page.title()
    assert page.blocked == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "compare-report-html.png"))
