"""The HTML report in a real browser with the network cut: it shows every finding, selects, filters,
sorts, prints, and runs no script that came from a document."""

from __future__ import annotations

import json
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


def test_severity_order_by_default_and_the_sort_menu(offline_page, tmp_path, small_report):
    report, ref, inp = small_report
    for finding, severity in zip(report["findings"], ("low", "high", "medium", "high")):
        finding["severity"] = severity
    page = offline_page
    open_report(page, tmp_path, report, ref, inp)
    assert shown(page) == ["F0002", "F0004", "F0003", "F0001"]  # by severity, then document order (the ids')
    in_order = [f["id"] for f in report["findings"]]
    page.select_option("#ck-sort", "document")
    assert shown(page) == in_order
    page.select_option("#ck-severity", "0")
    assert shown(page) == ["F0002", "F0004"]
    page.select_option("#ck-severity", "1")
    assert shown(page) == ["F0002", "F0003", "F0004"]
    page.select_option("#ck-severity", "")
    assert page.locator('li.finding[data-fid="F0002"] .sev').inner_text().lower() == "high"
    by_p = [f["id"] for f in sorted(report["findings"], key=lambda f: -f["p_conflict"])]
    page.select_option("#ck-sort", "p-desc")
    assert shown(page) == by_p
    page.select_option("#ck-sort", "p-asc")
    assert shown(page) == list(reversed(by_p))
    page.select_option("#ck-sort", "kind")
    assert shown(page) == ["F0001", "F0002", "F0003", "F0004"]
    page.select_option("#ck-sort", "severity")
    assert shown(page) == ["F0002", "F0004", "F0003", "F0001"]


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
    # aligned clause by clause: the reference shows a hatched gap as tall as the 60 clauses it lacks
    gap = page.evaluate("() => Math.max(...[...document.querySelectorAll('#doc-reference [data-gap]')].map(e => +e.dataset.gap))")
    assert gap > 500
    scroll = page.evaluate("() => [document.getElementById('doc-reference').scrollTop, document.getElementById('doc-input').scrollTop]")
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


# -- aligned clause by clause, the overview, the review kept by the browser --------------------------------

LEVEL = """() => {
  // For every pair of matching paragraphs in view, how far apart they stand (px).
  const docs = ["reference", "input"].map(side => document.getElementById("doc-" + side));
  const view = docs[1].getBoundingClientRect();
  const theirs = {};
  docs[0].querySelectorAll("span.sync").forEach(s => { theirs[s.dataset.s] = s; });
  const gaps = [];
  docs[1].querySelectorAll("span.sync").forEach(s => {
    const top = s.getBoundingClientRect().top;
    if (theirs[s.dataset.s] && top >= view.top && top <= view.bottom) {
      gaps.push(Math.abs(theirs[s.dataset.s].getBoundingClientRect().top - top));
    }
  });
  return gaps;
}"""


def assert_level_while_scrolling(page, steps: int = 12) -> int:
    """Scroll the input from top to bottom (and the reference back up); matching paragraphs in view stay within 40 px."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    checked = 0
    for side in ("input", "reference"):
        height = page.locator(f"#doc-{side}").evaluate("d => d.scrollHeight - d.clientHeight")
        for k in range(steps + 1):
            top = height * (k if side == "input" else steps - k) / steps
            page.locator(f"#doc-{side}").evaluate(f"d => {{ d.scrollTop = {top}; }}")
            # the other pane follows on the scroll event, a frame or two later (more on a loaded machine)
            try:
                page.wait_for_function(f"() => {{ const g = ({LEVEL})(); return g.length && Math.max(...g) <= 40; }}", timeout=2000)
            except PlaywrightTimeout:
                pass  # the assertions below say how far apart they stayed
            gaps = page.evaluate(LEVEL)
            assert gaps, f"no matching paragraphs in view at {side} {top:.0f}px"
            assert max(gaps) <= 40, (side, top, max(gaps))
            checked += len(gaps)
    return checked


def write_compared(tmp_path, reference, input, config) -> Path:
    from conflictkit.engine import Engine
    from conflictkit.report.writer import write_outputs
    from conflictkit.stages import Rendering

    result = Engine(config).compare(str(reference), str(input))
    out = tmp_path / "out"
    write_outputs(result, out, ("json", "md", "html"), "all", Rendering.of_result(result))
    return out / "report.html"


def test_the_samples_stay_level_clause_by_clause_while_scrolling(offline_page, tmp_path, fast_config):
    from tests.conftest import INPUT, REFERENCE

    page = offline_page
    page.goto(write_compared(tmp_path, REFERENCE, INPUT, fast_config).as_uri())
    assert assert_level_while_scrolling(page) > 100
    heights = page.evaluate("() => ['reference', 'input'].map(s => document.getElementById('doc-' + s).scrollHeight)")
    assert abs(heights[0] - heights[1]) <= 1  # both documents end together
    # the added clause 2.7 has a gap of its height in the reference, drawn hatched
    assert page.locator("#doc-reference .ck-gap").count() > 0
    assert "repeating-linear-gradient" in page.locator("#doc-reference .ck-gap").first.evaluate("e => getComputedStyle(e).backgroundImage")
    page.set_viewport_size({"width": 1100, "height": 800})  # a resize lays the documents out again
    page.wait_for_timeout(400)
    assert assert_level_while_scrolling(page, steps=6) > 50
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-aligned.png"))


@pytest.mark.corpus
def test_the_common_paper_csa_versions_stay_level_while_scrolling(offline_page, tmp_path, fast_config):
    from tests.conftest import CORPUS

    csa = CORPUS / "commonpaper" / "csa"
    if not csa.is_dir():
        pytest.skip("the Common Paper corpus is not in ../shared/corpus")
    page = offline_page
    page.goto(write_compared(tmp_path, csa / "CSA_v1.0.md", csa / "CSA_v2.1.md", fast_config).as_uri())
    assert assert_level_while_scrolling(page, steps=20) > 100


def test_the_overview_marks_every_finding_by_kind_and_severity(offline_page, tmp_path, fast_config):
    from tests.conftest import INPUT, REFERENCE

    page = offline_page
    page.goto(write_compared(tmp_path, REFERENCE, INPUT, fast_config).as_uri())
    marks = page.locator(".overview button.ov")
    assert marks.count() == page.locator("li.finding").count() == 24
    assert page.locator(".overview button.ov.k-missing.s-high").count() == 3
    tops = marks.evaluate_all("els => els.map(e => parseFloat(e.style.top))")
    assert all(0 <= t <= 100 for t in tops) and len(set(tops)) > 15
    widths = {c: page.locator(f".overview button.ov.s-{c}").first.evaluate("e => e.getBoundingClientRect().width")
              for c in ("high", "medium", "low")}
    assert widths["high"] > widths["medium"] > widths["low"]
    mark = page.locator('.overview button.ov[title^="F0020"]')
    mark.click()
    assert page.locator("li.finding.selected").get_attribute("data-fid") == "F0020"
    assert page.locator(".overview .ov-view").evaluate("e => e.getBoundingClientRect().height") > 5
    page.select_option("#ck-severity", "0")
    assert page.locator(".overview button.ov:visible").count() == page.locator("li.finding:visible").count() == 10


def test_links_open_a_finding_by_id_or_one_clause_subject(offline_page, tmp_path, fast_config):
    from tests.conftest import INPUT, REFERENCE

    page = offline_page
    file = write_compared(tmp_path, REFERENCE, INPUT, fast_config)
    page.goto(file.as_uri() + "#F0019")
    assert page.locator("li.finding.selected").get_attribute("data-fid") == "F0019"
    page.goto("about:blank")
    page.goto(file.as_uri() + "#subject=payment")
    assert page.locator("#ck-subject").input_value() == "payment"
    assert set(shown(page)) == {"F0005", "F0006", "F0007"}
    assert page.locator("li.finding.selected").get_attribute("data-fid") == "F0006"


def test_report_html_review_is_kept_by_the_browser_survives_a_reload_and_exports(chromium, tmp_path, small_report):
    report, ref, inp = small_report
    context = chromium.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    blocked = browser.block_network(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    file = open_report(page, tmp_path, report, ref, inp)
    total = len(report["findings"])
    assert page.locator("#ck-reviewed").inner_text() == f"0 of {total} reviewed"
    page.locator("body").press("j")
    page.keyboard.press("a")
    page.wait_for_function("() => document.querySelector('li.finding.selected').dataset.status === 'accepted'")
    first = page.locator("li.finding.selected").get_attribute("data-fid")
    page.keyboard.press("j")
    second = page.locator("li.finding.selected").get_attribute("data-fid")
    page.locator("li.finding.selected button[data-action='dismissed']").click()
    page.keyboard.press("n")
    page.keyboard.type("Vendor standard wording.")
    page.wait_for_function("() => document.querySelector('li.finding.selected .saved').textContent === 'saved'")
    page.keyboard.press("Escape")
    assert page.locator("#ck-reviewed").inner_text() == f"2 of {total} reviewed"
    page.reload()
    assert page.locator("#ck-reviewed").inner_text() == f"2 of {total} reviewed"
    assert page.locator(f'li.finding[data-fid="{first}"]').get_attribute("data-status") == "accepted"
    assert page.locator(f'li.finding[data-fid="{second}"] textarea').input_value() == "Vendor standard wording."
    page.select_option("#ck-status", "dismissed")
    assert shown(page) == [second]
    with page.expect_download() as download:
        page.click("#ck-export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["schema"] == "conflictkit.review/1"
    assert exported["report"]["input"]["sha256"] == report["input"]["sha256"]
    reviews = {f["id"]: f["review"] for f in exported["report"]["findings"]}
    assert reviews[first]["status"] == "accepted" and reviews[second] == {**reviews[second], "status": "dismissed",
                                                                          "note": "Vendor standard wording."}
    # another report (other findings) has a review of its own
    other = json.loads(json.dumps(report))
    other["findings"] = other["findings"][:2]
    open_report(page, tmp_path, other, ref, inp, name="other.html")
    assert page.locator("#ck-reviewed").inner_text() == "0 of 2 reviewed"
    assert errors == [] and blocked == []
    context.close()
