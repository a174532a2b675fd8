"""Hostile Word files: numbering that claims a billion items, broken numbers, a 100,000-character
level pattern, 100,000 paragraphs, zip bombs with honest and lying headers; each is read within its
caps or refused in one line."""

from __future__ import annotations

import pytest

from conflictkit.config import Limits
from conflictkit.errors import InputError, LimitError
from conflictkit.loaders import document_from_bytes
from conflictkit_docx.numbering import MAX_LABEL, MAX_VALUE, format_number
from conflictkit_docx.testing import numbering_docx, paragraphs_docx, zip_bomb_docx


def labels(data: bytes, limits: Limits | None = None) -> list[str]:
    text = document_from_bytes(data, "hostile.docx", limits).original
    return [paragraph[:paragraph.index("The Supplier")].strip() for paragraph in text.split("\n\n")]


@pytest.mark.parametrize(("start", "fmt", "first"), [
    ("1000000000", "lowerLetter", "(" + format_number(MAX_VALUE, "lowerLetter")),  # 38 million "z"s, capped
    ("1000000000", "upperRoman", format_number(MAX_VALUE, "upperRoman")),  # a million "M"s, capped
    ("1000000000000", "upperRoman", "I"),  # past a 32-bit number: no start value, the list starts at 1
    ("9" * 5_000, "decimal", "1"),  # past Python's int-from-text limit too
])
def test_numbering_start_values_are_capped(start, fmt, first):
    found = labels(numbering_docx(start, fmt, "(%1)" if fmt == "lowerLetter" else "%1."))
    assert len(found) == 3 and all(len(label) <= MAX_LABEL for label in found)
    assert found[0].startswith(first[:MAX_LABEL])


@pytest.mark.parametrize("ilvl", ["two", "\u00b2", "-1", "9" * 5_000, "12"])
def test_a_level_number_that_is_no_level_numbers_nothing(ilvl):
    assert labels(numbering_docx(ilvl=ilvl)) == ["", "", ""]


def test_a_huge_level_pattern_makes_short_labels():
    found = labels(numbering_docx(text="%1" * 50_000, fmt="lowerLetter", start="32767", paragraphs=200))
    assert len(found) == 200 and {len(label) for label in found} == {MAX_LABEL}


def test_paragraphs_over_the_limit_are_refused_before_the_document_is_parsed():
    with pytest.raises(LimitError, match=r"hostile.docx has at least 100,000 paragraphs, over the limit of 50,000; .*max_paragraphs"):
        document_from_bytes(paragraphs_docx(100_000), "hostile.docx")
    assert document_from_bytes(paragraphs_docx(300), "ok.docx", Limits(max_paragraphs=300)).source.details["paragraphs"] == 300
    with pytest.raises(LimitError, match=r"301 paragraphs, over the limit of 300"):
        document_from_bytes(paragraphs_docx(301), "hostile.docx", Limits(max_paragraphs=300))


def test_zip_bombs_are_refused_from_their_headers_and_lying_headers_are_caught():
    with pytest.raises(InputError, match=r"part word/media/image1.bin inflates \d+-fold .*zip bomb"):
        document_from_bytes(zip_bomb_docx(1_000_000_000), "hostile.docx")
    with pytest.raises(LimitError, match=r"parts that unpack to [\d.]+ KB, over the limit of 100 KB; .*max_unpacked_bytes"):
        document_from_bytes(paragraphs_docx(3_000), "big.docx", Limits(max_unpacked_bytes=100_000))
    # a header that claims 5 KB for a part of 1 GB: no more than 5 KB is inflated before the checksum fails
    with pytest.raises(InputError, match=r"corrupt part word/document.xml: Bad CRC-32"):
        document_from_bytes(zip_bomb_docx(1_000_000_000, part="word/document.xml", declared=5_000), "hostile.docx")
