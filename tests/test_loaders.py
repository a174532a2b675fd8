import os

import pytest

from conflictkit.errors import InputError
from conflictkit.loaders import document_from_bytes, read_document


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_reads_utf8_with_crlf_kept(tmp_path):
    path = write(tmp_path, "a.md", "1. Fees\r\nCustomer shall pay \u201cFees\u201d.\r\n".encode())
    doc = read_document(path)
    assert doc.original == "1. Fees\r\nCustomer shall pay \u201cFees\u201d.\r\n"
    assert doc.normalized == '1. Fees\nCustomer shall pay "Fees".\n'
    assert len(doc.sha256) == 64


def test_bom_is_dropped(tmp_path):
    doc = read_document(write(tmp_path, "a.txt", b"\xef\xbb\xbfHello world"))
    assert doc.original == "Hello world"


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b"", "empty"),
        (b"  \n\t \r\n", "empty"),
        (b"%PDF-1.7 ....", "PDF"),
        (b"PK\x03\x04rest", "zip archive"),
        (b"\x00\x01\x02\x03binary", "binary"),
        (b"\xff\xfeH\x00i\x00", "UTF-16"),
        ("1. Customer shall pay.\n".encode("utf-32"), r"is UTF-32 text; convert it to UTF-8 \(e.g. iconv -f UTF-32"),  # BOM FF FE 00 00
        ("1. Customer shall pay.\n".encode("utf-32-be"), "is UTF-32 text"),  # no byte-order mark
        ("1. Customer shall pay.\n".encode("utf-16-le"), "is UTF-16 text"),  # no byte-order mark
        (b"\x00" * 4096, "binary data"),  # NULs alone are no text in any encoding
        ("Caf\u00e9 clause".encode("latin-1"), "not valid UTF-8 \\(byte 0xe9 at offset 3\\)"),
    ],
)
def test_bad_documents(tmp_path, data, fragment):
    with pytest.raises(InputError, match=fragment):
        read_document(write(tmp_path, "bad.txt", data))


def test_missing_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_document(tmp_path / "absent.md")
    with pytest.raises(InputError, match="is a directory"):
        read_document(tmp_path)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable(tmp_path):
    path = write(tmp_path, "a.md", b"text")
    path.chmod(0)
    with pytest.raises(InputError, match="permission denied"):
        read_document(path)


def test_size_limit(tmp_path):
    path = write(tmp_path, "big.md", b"word " * 1000)
    with pytest.raises(InputError, match="over the"):
        read_document(path, 100)
    with pytest.raises(InputError, match="over the"):
        document_from_bytes(b"x" * 200, "upload", 100)


def test_nul_byte_after_the_first_8_kib_is_refused(tmp_path):
    path = write(tmp_path, "late.md", b"The Customer shall pay. " * 400 + b"\x00" + b"more text")
    with pytest.raises(InputError, match="binary data"):
        read_document(path)


def test_word_and_pdf_without_their_plugins_name_the_install_command():
    from conflictkit.errors import MissingDependencyError
    from conflictkit.formats.text import MarkdownLoader, TextLoader
    from conflictkit.loaders import loader_for

    core = [TextLoader, MarkdownLoader]
    with pytest.raises(MissingDependencyError, match="pip install ./backends/conflictkit-docx"):
        loader_for("contract.docx", b"PK\x03\x04....", core)
    with pytest.raises(MissingDependencyError, match="pip install ./backends/conflictkit-pdf"):
        loader_for("contract.pdf", b"%PDF-1.7", core)
    with pytest.raises(MissingDependencyError, match="conflictkit-pdf"):
        loader_for("download", b"%PDF-1.7", core)  # no extension: the content says PDF
    with pytest.raises(MissingDependencyError, match="conflictkit-docx"):
        loader_for("download", b"PK\x03\x04...word/document.xml...", core)
    with pytest.raises(InputError, match="looks like a zip archive"):  # a zip that is no Word file: say what it is
        document_from_bytes(b"PK\x03\x04...xl/workbook.xml...", "download")
    assert loader_for("notes.txt", b"plain", core) is TextLoader
    assert loader_for("notes", b"plain", core) is TextLoader


def test_text_documents_carry_a_source_record(tmp_path):
    doc = read_document(write(tmp_path, "a.md", b"# Title\n\nThe Customer shall pay.\n"))
    assert doc.source.format == "markdown" and doc.source.loader == "markdown"
    assert doc.data is None  # the text is the file: nothing else to keep


def test_source_locate_spans_pages_and_unions_boxes():
    from conflictkit.model import DocumentSource, SourceBlock

    source = DocumentSource(format="pdf", loader="pdf", blocks=[
        SourceBlock(start=0, end=10, location={"page": 1, "bbox": [10, 700, 200, 712]}),
        SourceBlock(start=11, end=20, location={"page": 1, "bbox": [10, 686, 180, 698]}),
        SourceBlock(start=21, end=30, role="footer", location={"page": 2, "bbox": [10, 20, 100, 30]}),
    ])
    assert source.locate(2, 15) == {"page": 1, "bbox": [10, 686, 200, 712]}
    assert source.locate(12, 25)["pages"] == [1, 2]
    assert source.locate(40, 50) is None
    assert source.role_at(22, 28) == "footer" and source.role_at(5, 25) == "body"


@pytest.mark.parametrize("size, limit, expected", [
    (5000, 100, "is 5 KB, over the 100 bytes limit"),
    (200, 100, "is 200 bytes, over the 100 bytes limit"),
    (25_300_000, 20_000_000, "is 25.3 MB, over the 20 MB limit"),
    (20_000_001, 20_000_000, "is 20,000,001 bytes, over the 20,000,000-byte limit"),
])
def test_size_limit_message_reads_right_at_any_scale(tmp_path, size, limit, expected):
    """A byte-sized limit used to read "0.0 MB, over the 0 MB limit"."""
    with pytest.raises(InputError) as err:
        document_from_bytes(b"x" * size, "upload", limit)
    assert expected in str(err.value)
