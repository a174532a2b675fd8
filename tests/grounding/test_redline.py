"""redline: equal/delete/insert runs with offsets in both texts, reversing runs marked."""

from __future__ import annotations

import json

from conflictkit.grounding import redline


def spans(a: str, b: str):
    return [(op.op, op.text, a[op.a_start : op.a_end], b[op.b_start : op.b_end], op.reversing)
            for op in redline(a, b).ops]


def test_replacement_is_delete_then_insert_with_offsets():
    a, b = "Payment is due within thirty (30) days.", "Payment is due within sixty (60) days."
    assert spans(a, b) == [
        ("equal", "Payment is due within", "Payment is due within", "Payment is due within", False),
        ("delete", "thirty", "thirty", "", True),
        ("insert", "sixty", "", "sixty", True),
        ("equal", "(", "(", "(", False),
        ("delete", "30", "30", "", True),
        ("insert", "60", "", "60", True),
        ("equal", ") days.", ") days.", ") days.", False),
    ]


def test_plain_insertion_is_not_reversing():
    ops = redline("prior approval", "prior written approval").ops
    assert [(op.op, op.text, op.reversing) for op in ops] == [
        ("equal", "prior", False), ("insert", "written", False), ("equal", "approval", False)]


def test_typography_only_gives_no_change():
    line = redline("The \u201cParty\u201d may\u00a0not\r\ndisclose", 'The "Party" may not  disclose')
    assert not line.changed
    assert [op.op for op in line.ops] == ["equal"]


def test_markdown_marks_deletions_insertions_and_reversing_runs():
    md = redline("Customer shall not pay *late* fees.", "Customer shall pay late fees.").to_markdown()
    assert md == "Customer shall ~~not~~\u26a0 pay ~~\\*~~ late~~\\*~~ fees."
    assert redline("prior approval", "prior written approval").to_markdown() == "prior {+written+} approval"
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("strikethrough").render(
        redline("See <script>x</script>.", "See ![](http://e.test/t.png).").to_markdown())
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html and "<s>" in html


def test_offsets_with_crlf_and_astral_characters():
    a, b = "\U0001d504 One.\r\nThe fee is 5%.", "\U0001d504 One.\r\nThe fee is 7%."
    deleted = next(op for op in redline(a, b).ops if op.op == "delete")
    assert a[deleted.a_start : deleted.a_end] == "5%" and deleted.kinds == ["number"]


def test_to_dict_is_json():
    data = redline("may not", "may").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [op["op"] for op in data["ops"]] == ["equal", "delete"] and data["ops"][1]["reversing"]
