"""The portfolio: inputs by risk, a heat map of inputs x clause subjects, each input's findings by severity."""

from __future__ import annotations

import re

import pytest

from conflictkit.batch.portfolio import PortfolioRow, by_risk, render_portfolio, subject_columns
from conflictkit.testing import browser

LABELS = {"liability": "liability and indemnity", "payment": "payment and fees", "notices": "notices", "other": "other terms"}


def finding(fid: str, severity: str, subject: str | None, kind: str = "deviation") -> dict:
    return {"id": fid, "kind": kind, "severity": severity, "subject": subject, "title": f"{fid} title", "p_conflict": 0.9}


ROWS = [
    PortfolioRow("calm.md", href="calm/report.html", findings=[finding("F0001", "low", None)]),
    PortfolioRow("risky.md", href="risky/report.html", findings=[
        finding("F0002", "high", "liability"), finding("F0001", "medium", "liability"), finding("F0003", "low", "payment")]),
    PortfolioRow("broken.md", status="failed", detail="broken.md is empty"),
    PortfolioRow("waiting.md", status="pending"),
    PortfolioRow("busy.md", href="busy/report.html", findings=[finding(f"F000{n}", "medium", "payment") for n in range(1, 5)]),
]


def test_inputs_riskiest_first_then_those_running_then_those_that_failed():
    assert [r.name for r in by_risk(ROWS)] == ["risky.md", "busy.md", "calm.md", "waiting.md", "broken.md"]


def test_columns_are_the_subjects_found_in_the_table_order_other_last():
    assert subject_columns(ROWS, LABELS) == [("liability", "liability and indemnity"), ("payment", "payment and fees"),
                                             ("other", "other terms")]


def test_each_cell_counts_an_input_findings_in_a_subject_coloured_by_the_worst_and_links_to_them():
    page = render_portfolio(ROWS, LABELS)
    row = re.search(r'<tr class="ok" data-input="risky.md">(.*?)</tr>', page).group(1)
    cells = re.findall(r'<td class="cell ([^"]*)"[^>]*>(.*?)</td>', row)
    assert cells[0][0] == "s-high" and '>2</a>' in cells[0][1] and 'href="risky/report.html#subject=liability"' in cells[0][1]
    assert cells[1][0] == "s-low" and 'href="risky/report.html#subject=payment"' in cells[1][1]
    assert cells[2] == ("empty", "")
    assert 'title="risky.md: 2 findings in liability and indemnity (1 high, 1 medium)"' in row
    # each finding links to itself in the report, the input's in the report's order
    listed = re.search(r"<h3>1\. .*?</h3><ol class=\"findings\">(.*?)</ol>", page).group(1)
    assert re.findall(r'href="risky/report.html#(F\d+)"', listed) == ["F0002", "F0001", "F0003"]
    assert "broken.md is empty" in page and '<span class="state failed">failed</span>' in page


def test_names_and_titles_are_escaped():
    evil = PortfolioRow('<img src=x onerror=alert(1)>.md', href='"><script>x</script>',
                        findings=[{**finding("<b>F1</b>", "high", "<i>s</i>"), "title": "<script>t</script>"}])
    page = render_portfolio([evil], {"<i>s</i>": "<u>label</u>"})
    assert "<img" not in page and "<script" not in page and "<b>F1" not in page and "<u>label" not in page


# -- the batch's summary.html in a browser ------------------------------------------------------------------



@pytest.mark.browser
@pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))
def test_summary_html_renders_the_heat_map_and_its_cells_open_the_reports_filtered(portfolio, fast_config, tmp_path):
    from conflictkit.batch import pairs_from_inputs, run_batch
    from conflictkit.batch.engines import LocalEngine
    from conflictkit.config import config_data

    reference, folder = portfolio
    out = tmp_path / "out"
    run_batch(pairs_from_inputs(str(reference), [str(folder)]), config_data(fast_config), out, LocalEngine(workers=1))
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        blocked = browser.block_network(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((out / "summary.html").as_uri())
        heat = page.locator("table.heat")
        assert heat.is_visible()
        assert heat.locator("tbody tr").evaluate_all("els => els.map(e => e.dataset.input)") == \
            ["draft.md", "longer-notice.md", "same.md", "broken.md"]
        assert heat.locator("thead th.subject").first.inner_text().startswith("liability")
        high = heat.locator('tr[data-input="draft.md"] td.cell.s-high').first
        assert high.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(176, 0, 32)"
        href = high.locator("a").get_attribute("href")
        assert re.fullmatch(r"draft-[0-9a-f]+/report\.html#subject=\w+", href)
        high.locator("a").click()
        page.wait_for_load_state()
        subject = href.rsplit("=", 1)[1]
        assert page.locator("#ck-subject").input_value() == subject
        shown = page.locator("#ck-findings li.finding:visible").evaluate_all("els => els.map(e => e.dataset.subject)")
        assert shown and set(shown) == {subject}
        assert errors == [] and blocked == []
        context.close()
