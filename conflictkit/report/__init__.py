"""Reports: building report.json / pairs.json / params.json and rendering them (text, Markdown, HTML)."""

REPORT_SCHEMA = "conflictkit.report/1"
PAIRS_SCHEMA = "conflictkit.pairs/1"
PARAMS_SCHEMA = "conflictkit.params/1"
