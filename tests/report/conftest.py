"""Report fixtures built from texts, so the HTML view is tested without running the engine."""

from __future__ import annotations

import pytest

from conflictkit.testing.reports import make_report

REFERENCE = """# Agreement

1. Payment. Customer shall pay each invoice within thirty (30) days of receipt.

2. Liability. Provider shall not be liable for indirect damages.

3. Audit. Customer may audit Provider once per year on prior written notice.
"""

INPUT = """# Agreement

1. Payment. Customer shall pay each invoice within sixty (60) days of receipt.

2. Liability. Provider shall be liable for indirect damages.

4. Publicity. Provider may name Customer in its marketing.
"""

CITES = [
    ("deviation", "Customer shall pay each invoice within thirty (30) days of receipt.",
     "Customer shall pay each invoice within sixty (60) days of receipt.",
     [{"type": "number", "reference": "thirty (30) days", "input": "sixty (60) days", "detail": None}]),
    ("deviation", "Provider shall not be liable for indirect damages.", "Provider shall be liable for indirect damages.",
     [{"type": "negation", "reference": "shall not", "input": "shall", "detail": "negation dropped"}]),
    ("missing", "Customer may audit Provider once per year on prior written notice.", None, []),
    ("added", None, "Provider may name Customer in its marketing.", []),
]

# Clause text that would run script or inject markup if it were not escaped.
XSS_REFERENCE = """1. Notices. <script>window.__xss = 1; alert(1)</script> Notices go to the address above.

2. Fees. Fees are <img src=x onerror="window.__xss = 2"> payable monthly {{ js }} in advance.
"""
XSS_INPUT = """1. Notices. <script>window.__xss = 3</script> Notices go to the address below.

2. Fees. Fees are <b onmouseover="window.__xss = 4">payable</b> yearly {{ js }} in advance.
"""
XSS_CITES = [
    ("deviation", "Notices. <script>window.__xss = 1; alert(1)</script> Notices go to the address above.",
     "Notices. <script>window.__xss = 3</script> Notices go to the address below.",
     [{"type": "<script>window.__xss=5</script>", "reference": "<i>above</i>", "input": "below\" onerror=\"x", "detail": "<img src=x onerror=alert(1)>"}]),
    ("deviation", 'Fees are <img src=x onerror="window.__xss = 2"> payable monthly {{ js }} in advance.',
     'Fees are <b onmouseover="window.__xss = 4">payable</b> yearly {{ js }} in advance.', []),
]


@pytest.fixture
def small_report() -> tuple[dict, str, str]:
    return make_report(REFERENCE, INPUT, CITES), REFERENCE, INPUT


@pytest.fixture
def xss_report() -> tuple[dict, str, str]:
    report = make_report(XSS_REFERENCE, XSS_INPUT, XSS_CITES, reference_name="<script>x</script>.md",
                         input_name='"><img src=x onerror=alert(1)>.md')
    report["findings"][0]["id"] = '<b id="pwn">F1</b>'
    return report, XSS_REFERENCE, XSS_INPUT
