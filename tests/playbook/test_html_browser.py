"""The review's HTML page in a real browser, network cut: the playbook column filters by verdict and selects quotes."""

from __future__ import annotations

import pytest

from conflictkit.testing import browser
from tests.playbook.conftest import TEMPLATE

pytestmark = [pytest.mark.browser, pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))]


def test_the_playbook_column_filters_by_verdict_and_selects_both_quotes(review_text, tmp_path):
    from conflictkit.playbook.html import render_review_html

    result = review_text(TEMPLATE.replace("Either party may terminate", "Provider may terminate"))
    file = tmp_path / "review.html"
    file.write_text(render_review_html(result.review, result.rendered.text, result.input.document.original), encoding="utf-8")
    with browser.chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1400, "height": 900})
        blocked = browser.block_network(context)
        page = context.new_page()
        page.goto(file.as_uri())
        entries = page.locator("#ck-findings li.finding")
        assert entries.count() == len(result.review["positions"]) + len(result.review["uncovered"])
        page.locator('.toolbar input[name="kind"][value="standard"]').uncheck()
        visible = [e.get_attribute("data-kind") for e in entries.all() if e.is_visible()]
        assert "standard" not in visible and "not-acceptable" in visible
        page.locator('li.finding[data-fid="cure"]').click()
        assert page.locator('li.finding[data-fid="cure"] .redline').is_visible()
        active = page.locator("mark.active")
        assert active.count() >= 2  # the playbook's text and the draft's clause
        texts = " ".join(" ".join(active.all_inner_texts()).split())
        assert "Provider may terminate" in texts and "Either party may terminate" in texts
        assert blocked == []
        context.close()
