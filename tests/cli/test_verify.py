"""``conflictkit verify``: exit 0 when all grounded, 3 when any is not, 2 for bad input (one line)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conflictkit.cli import main

DOC = "1. Fees.\r\nCustomer shall not pay late fees.\r\n2. Notices. Notices must be in writing.\r\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["verify", *args])
    out, err = capsys.readouterr()
    return info.value.code, out, err


@pytest.fixture
def files(tmp_path):
    def make(extractions, document: str | bytes = DOC) -> tuple[str, str]:
        doc = tmp_path / "doc.md"
        doc.write_bytes(document if isinstance(document, bytes) else document.encode("utf-8"))
        ext = tmp_path / "extractions.json"
        ext.write_text(extractions if isinstance(extractions, str) else json.dumps(extractions), encoding="utf-8")
        return str(doc), str(ext)
    return make


def cite(part: str, label: str = "x") -> dict:
    start = DOC.index(part)
    return {"label": label, "quote": part, "start": start, "end": start + len(part)}


def test_all_grounded_exits_0_with_a_table(capsys, files):
    code, out, err = run(capsys, *files([cite("Customer shall not pay late fees.", "fees"),
                                          {"label": "notices", "quote": "Notices must be\nin writing."}]))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["LABEL", "STATUS", "START", "END", "DETAIL"]
    assert lines[1].split()[:4] == ["fees", "grounded", str(DOC.index("Customer")), str(DOC.index("Customer") + 33)]
    assert lines[1].index("grounded") == lines[2].index("grounded")  # aligned columns
    assert lines[-1] == "2 extractions: 2 grounded"


def test_any_not_grounded_exits_3_and_json_lists_every_result(capsys, files):
    wrong = cite("Notices must be in writing.", "moved")
    wrong["start"] += 1
    wrong["end"] += 1
    extractions = [cite("Customer shall not pay late fees.", "ok"), wrong,
                   {"label": "flipped", "quote": "Customer shall pay late fees."}]
    code, out, err = run(capsys, *files(extractions), "--format", "json")
    assert (code, err) == (3, "")
    data = json.loads(out)
    assert [r["status"] for r in data["results"]] == ["grounded", "offset_mismatch", "not_found"]
    assert [r["label"] for r in data["results"]] == ["ok", "moved", "flipped"]
    assert data["counts"] == {"grounded": 1, "offset_mismatch": 1, "not_found": 1, "ambiguous": 0}
    assert data["results"][2]["near_miss"]["changes"][0]["a_text"] == "not"


def test_ambiguous_exits_3(capsys, files):
    code, out, _ = run(capsys, *files([{"label": "n", "quote": "Notices"}]))
    assert code == 3 and "ambiguous" in out


def test_labels_default_to_the_item_number(capsys, files):
    code, out, _ = run(capsys, *files([{"quote": "Fees."}]), "--format", "json")
    assert code == 0 and json.loads(out)["results"][0]["label"] == "#1"


def test_empty_list_exits_0(capsys, files):
    code, out, _ = run(capsys, *files([]))
    assert code == 0 and out.splitlines()[-1] == "0 extractions: none"


BAD_EXTRACTIONS = [
    ('[{"quote": "Fees."},\n {"quote": }]', "not valid JSON: Expecting value at line 2, column 12"),
    ('{"quote": "Fees."}', "expected a JSON list"),
    ('["Fees."]', "item 1: expected an object, got a string"),
    ('[{"label": "a"}]', "item 1 ('a'): no quote"),
    ('[{"quote": 7}]', "quote must be a string, got a number"),
    ('[{"quote": "Fees.", "start": 1.5, "end": 3}]', "start must be an integer or null"),
    ('[{"quote": "Fees.", "start": true, "end": 3}]', "start must be an integer or null"),
    ('[{"quote": "Fees.", "begin": 3}]', "unknown key(s) 'begin'"),
    ('[{"quote": "Fees.", "label": 3}]', "label must be a string"),
    ('[{"quote": "Fees.", "start": 3}]', "only start was given"),
    ('[{"quote": "Fees.", "start": 3, "end": 999}]', "outside the document"),
    ('[{"quote": "Fees.", "start": 9, "end": 3}]', "must be less than end"),
    ('[{"quote": " "}]', "quote is empty"),
    ('[{"quote": "' + "x " * 100 + '"}]', "longer than the document"),
    ('[{"quote": "Fees."}, {"quote": ""}, {"quote": 1}]', "2 problems: item 2: the quote is empty: give the text to look for; item 3: quote must be a string"),
    ("", "not valid JSON"),
]


@pytest.mark.parametrize(("extractions", "message"), BAD_EXTRACTIONS)
def test_bad_extractions_exit_2_with_one_line_and_no_output(capsys, files, extractions, message):
    code, out, err = run(capsys, *files(extractions))
    assert (code, out) == (2, "")
    assert err.startswith("conflictkit: error: ") and err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize(("document", "message"), [
    (b"PK\x03\x04\x00\x00binary", "looks like a zip archive"),
    (b"terms\x00\x01\x02", "looks like binary data"),
    ("Caf\xe9 terms".encode("latin-1"), "is not valid UTF-8 (byte 0xe9 at offset 3)"),
    ("", "is empty"),
    (" \r\n\u00a0\n", "is empty"),
])
def test_bad_document_exits_2(capsys, files, document, message):
    code, out, err = run(capsys, *files([{"quote": "terms"}], document=document))
    assert (code, out) == (2, "") and message in err and err.count("\n") == 1


def test_missing_files_exit_2(capsys, files, tmp_path):
    doc, ext = files([{"quote": "Fees."}])
    for args, message in [((str(tmp_path / "nope.md"), ext), "nope.md: no such file"),
                          ((doc, str(tmp_path / "nope.json")), "nope.json: no such file"),
                          ((str(tmp_path), ext), "is a directory"), ((doc, str(tmp_path)), "not a file")]:
        code, out, err = run(capsys, *args)
        assert (code, out) == (2, "") and message in err


def test_offsets_count_from_after_a_byte_order_mark(capsys, files):
    doc, ext = files([cite("Customer shall not pay late fees.")], document="\ufeff".encode() + DOC.encode())
    code, out, _ = run(capsys, doc, ext)
    assert code == 0, out


def test_unknown_format_is_a_usage_error(capsys, files):
    code, out, _ = run(capsys, *files([{"quote": "Fees."}]), "--format", "xml")
    assert code == 2 and out == ""


def test_exit_codes_from_a_real_process(files):
    doc, ext = files([{"label": "flipped", "quote": "Customer shall pay late fees."}])
    proc = subprocess.run([sys.executable, "-m", "conflictkit", "verify", doc, ext, "--format", "json"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (proc.returncode, proc.stderr) == (3, "")
    assert json.loads(proc.stdout)["results"][0]["status"] == "not_found"
    bad = subprocess.run([sys.executable, "-m", "conflictkit", "verify", doc, doc], capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and "not valid JSON" in bad.stderr


def test_labels_and_quotes_cannot_drive_the_terminal(capsys, files):
    hostile = cite("Customer shall not pay late fees.", "fees\x1b]0;owned\x07\x1b[2J\x9b31m")
    code, out, _ = run(capsys, *files([hostile, {"label": "q\x1b[31m", "quote": "nowhere \x1b[2J to be found"}]))
    assert code == 3
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "\\x1b]0;owned" in out
    code, out, _ = run(capsys, *files([hostile]), "--format", "json")
    assert "\x1b" not in out and "\x9b" not in out
    assert json.loads(out)["results"][0]["label"] == hostile["label"]  # JSON keeps the value exact
