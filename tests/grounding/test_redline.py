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
    md = redline("Customer shall not pay fees [late].", "Customer shall pay fees.").to_markdown()
    assert md == "Customer shall ~~not~~\u26a0 pay fees ~~[late]~~."  # "[late]" is no link: no escape needed
    # emphasis is markup, shown as the reader sees it: not an op
    assert redline("Customer shall pay *late* fees.", "Customer shall pay late fees.").changed is False
    assert redline("prior approval", "prior written approval").to_markdown() == "prior {+written+} approval"
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").enable("strikethrough").render(
        redline("See <script>x</script>.", "See ![](http://e.test/t.png).").to_markdown())
    assert "<script" not in html and "<img" not in html and "<s>" in html  # tags are markup: never compared, never rendered


def test_offsets_with_crlf_and_astral_characters():
    a, b = "\U0001d504 One.\r\nThe fee is 5%.", "\U0001d504 One.\r\nThe fee is 7%."
    deleted = next(op for op in redline(a, b).ops if op.op == "delete")
    assert a[deleted.a_start : deleted.a_end] == "5%" and deleted.kinds == ["number"]


def test_to_dict_is_json():
    data = redline("may not", "may").to_dict()
    assert json.loads(json.dumps(data)) == data
    assert [op["op"] for op in data["ops"]] == ["equal", "delete"] and data["ops"][1]["reversing"]


def test_inline_html_and_entities_are_never_ops_and_offsets_still_slice_the_source():
    a = '<span class="keyterms_link">Customer</span> will pay within thirty&nbsp;(30) days.'
    b = '<span class="coverpage_link">Customer</span> will pay within sixty&nbsp;(60) days.'
    ops = redline(a, b).ops
    changed = [op for op in ops if op.op != "equal"]
    assert sorted((op.op, op.text) for op in changed) == [("delete", "30"), ("delete", "thirty"),
                                                          ("insert", "60"), ("insert", "sixty")]
    assert not any("<" in op.text or "class" in op.text or "&" in op.text for op in ops)
    assert {a[op.a_start:op.a_end] for op in changed if op.op == "delete"} == {"thirty", "30"}
    assert {b[op.b_start:op.b_end] for op in changed if op.op == "insert"} == {"sixty", "60"}
