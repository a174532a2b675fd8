"""The rules segmenter on hand-written contracts covering each numbering style, and on the corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from conflictkit.loaders import document_from_text
from conflictkit.model import Clause, Document
from conflictkit.registry import get_registry
from conflictkit.segmenters.markup import clause_text
from conflictkit.segmenters.rules import RulesSegmenter

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

MARKDOWN = """\
# Master Services Agreement

## 1. Definitions

"Affiliate" means any entity that controls, is controlled by or is under common control with a party.

**"Confidential Information"** shall mean all non-public information disclosed by a party.

## 2. Fees

**2.1 Payment.** Customer shall pay all invoices within thirty (30) days.

**2.2 Taxes.** Customer shall pay:

(a) sales taxes; and

(b) use taxes, except:

(i) taxes on Provider's income; and

(ii) payroll taxes.

(c) withholding taxes.

2.3 Late Payment. Overdue amounts bear interest at *one and a half percent* per month.

## 3. Term

- The term is one year.
- It renews automatically for one year terms.
  - Unless either party objects in writing.

Governing Law
-------------

This Agreement is governed by the laws of the State of [Delaware](https://example.com/de).
"""

PLAIN = """\
MASTER SUPPLY AGREEMENT

ARTICLE I
DEFINITIONS

Section 1.01 "Business Day" means any day other than a Saturday, Sunday or
a day on which banks in New York City are authorized or required to close.

ARTICLE II
PAYMENT

Section 2.01 Fees. The Customer shall pay the fees set out in Schedule A
within thirty (30) days after the date of each invoice, as described in Section
4.2 of the Order Form. Amounts not paid when due bear interest at the rate
of one percent (1%) per month until paid in full.

Section 2.02 Audit. The Supplier may audit the Customer's records:
(a) once in any twelve month period;
(b) on not less than ten (10) days' notice; and
(c) during normal business hours.

§ 3 Notices. All notices under this Agreement must be in writing.

4. Term. This Agreement continues for one year from the Effective Date.

4.1 Renewal. It renews for successive one year terms unless terminated.

a) the first renewal option;
b) the second renewal option.

IN WITNESS WHEREOF, the parties have executed this Agreement as of the Effective Date.

By: ______________________
Name:
Title:
Date:
"""

NESTED_LISTS = """\
# Cloud Service Agreement

1. <span class="header_2" id="1">Service</span>
    1. <span class="header_3" id="1.1">Access and Use.</span>  Customer may access and use the Cloud Service.
    2. <span class="header_3" id="1.2">Support.</span>  Provider gives <span class="kt">Technical Support</span>.
2. <span class="header_2" id="2">Restrictions</span>
    1. <span class="header_3" id="2.1">Restrictions on Customer.</span>
\t\ta. Customer will not reverse engineer the Product.
\t\tb. Customer will not resell the Product.
    1. <span class="header_3" id="2.2">Suspension.</span>  Provider may suspend access for non-payment.
"""


def segment(text: str, **options) -> tuple[Document, list[Clause]]:
    document = document_from_text(text)
    return document, RulesSegmenter(options).segment(document)


def assert_spans(document: Document, clauses: list[Clause]) -> None:
    """Every span is the clause's own text in the original, in order, without overlaps."""
    previous_end = 0
    for i, clause in enumerate(clauses):
        assert clause.id == f"c{i + 1:04d}" and clause.order == i
        start, end = clause.span.start, clause.span.end
        assert previous_end <= start < end <= len(document.original), clause
        original = document.original[start:end]
        assert original == original.strip(), f"{clause.id} span is not trimmed: {original!r}"
        assert clause_text(original) == clause.text, clause.id
        previous_end = end
        if clause.parent is not None:
            assert int(clause.parent[1:]) < int(clause.id[1:])


def by_section(clauses: list[Clause]) -> dict[str, Clause]:
    return {c.section: c for c in clauses if c.section is not None and c.kind != "heading"}


def find(clauses: list[Clause], prefix: str) -> Clause:
    matches = [c for c in clauses if c.text.startswith(prefix)]
    assert len(matches) == 1, (prefix, [c.text for c in clauses])
    return matches[0]


def test_registered_as_rules():
    assert get_registry().get("segmenter", "rules").cls is RulesSegmenter


def test_markdown_headings_sections_and_kinds():
    document, clauses = segment(MARKDOWN)
    assert_spans(document, clauses)
    title = clauses[0]
    assert (title.kind, title.text, title.parent) == ("heading", "Master Services Agreement", None)
    fees = find(clauses, "Fees")
    assert (fees.kind, fees.section, fees.parent) == ("heading", "2", title.id)
    affiliate = find(clauses, '"Affiliate" means')
    assert affiliate.kind == "definition" and affiliate.heading == "Definitions"
    assert find(clauses, '"Confidential Information" shall mean').kind == "definition"
    payment = find(clauses, "Payment.")
    assert (payment.section, payment.heading, payment.parent) == ("2.1", "Payment", fees.id)
    assert payment.text == "Payment. Customer shall pay all invoices within thirty (30) days."
    late = find(clauses, "Late Payment.")
    assert (late.section, late.heading, late.parent) == ("2.3", "Late Payment", fees.id)
    assert "one and a half percent" in late.text and "*" not in late.text
    law = find(clauses, "This Agreement is governed")
    assert law.heading == "Governing Law" and "[" not in law.text and "Delaware" in law.text
    assert find(clauses, "Governing Law").kind == "heading"


def test_lettered_and_roman_items_nest_and_children_are_cut_out():
    _, clauses = segment(MARKDOWN)
    taxes = find(clauses, "Taxes.")
    assert taxes.text == "Taxes. Customer shall pay:"  # its children are not in its text
    sections = by_section(clauses)
    assert sections["2.2(a)"].text == "sales taxes; and"
    assert sections["2.2(a)"].parent == taxes.id
    assert sections["2.2(b)"].parent == taxes.id
    assert sections["2.2(b)(i)"].parent == sections["2.2(b)"].id
    assert sections["2.2(b)(ii)"].text == "payroll taxes."
    assert sections["2.2(c)"].parent == taxes.id  # "(c)" closes the roman list and continues the letters
    assert all(c.heading == "Taxes" for c in clauses if (c.section or "").startswith("2.2("))


def test_bullets_nest_by_indentation():
    _, clauses = segment(MARKDOWN)
    one_year = find(clauses, "The term is one year.")
    renews = find(clauses, "It renews automatically")
    unless = find(clauses, "Unless either party objects")
    term = find(clauses, "Term")
    assert one_year.parent == renews.parent == term.id
    assert unless.parent == renews.id
    assert one_year.section == "3" and one_year.heading == "Term"


def test_plain_text_articles_sections_and_signatures():
    document, clauses = segment(PLAIN)
    assert_spans(document, clauses)
    assert clauses[0].kind == "heading" and clauses[0].text == "MASTER SUPPLY AGREEMENT"
    article_one = find(clauses, "DEFINITIONS")
    assert (article_one.kind, article_one.section) == ("heading", "Article I")
    business_day = find(clauses, '"Business Day" means')
    assert business_day.kind == "definition" and business_day.section == "Section 1.01"
    assert business_day.parent == article_one.id
    fees = find(clauses, "Fees.")
    assert fees.section == "Section 2.01" and fees.heading == "Fees"
    assert fees.parent == find(clauses, "PAYMENT").id
    # the hard-wrapped paragraph is one clause, and "4.2 of the Order Form" did not start a clause
    assert fees.text.endswith("until paid in full.") and "Section 4.2 of the Order Form" in fees.text
    audit = find(clauses, "Audit.")
    assert [by_section(clauses)[f"Section 2.02({x})"].parent for x in "abc"] == [audit.id] * 3
    notices = find(clauses, "Notices.")
    assert notices.section == "§ 3" and notices.heading == "Notices"
    term = find(clauses, "Term. This Agreement continues")
    renewal = find(clauses, "Renewal.")
    assert term.section == "4" and renewal.section == "4.1" and renewal.parent == term.id
    option = find(clauses, "the first renewal option;")
    assert option.section == "4.1(a)" and option.parent == renewal.id
    signatures = [c for c in clauses if c.kind == "signature"]
    assert [c.text[:8] for c in signatures] == ["IN WITNE", "By: ____", "Name:", "Title:", "Date:"]


def test_crlf_nbsp_and_curly_quotes_keep_spans_exact():
    fancy = MARKDOWN.replace("\n", "\r\n").replace('"Affiliate"', "\u201cAffiliate\u201d")
    fancy = fancy.replace("all invoices within", "all\u00a0invoices  within")
    fancy = fancy.replace("Customer shall pay:", "Customer\tshall pay:")
    document, clauses = segment(fancy)
    assert_spans(document, clauses)
    _, plain = segment(MARKDOWN)
    assert [(c.text, c.kind, c.section, c.heading) for c in clauses] == [
        (c.text, c.kind, c.section, c.heading) for c in plain
    ]
    affiliate = find(clauses, '"Affiliate" means')
    assert document.original[affiliate.span.start] == "\u201c"


def test_nested_markdown_lists_with_html_compose_sections():
    document, clauses = segment(NESTED_LISTS)
    assert_spans(document, clauses)
    assert [(c.section, c.kind) for c in clauses[1:]] == [
        ("1", "heading"), ("1.1", "clause"), ("1.2", "clause"), ("2", "heading"), ("2.1", "heading"),
        ("2.1(a)", "clause"), ("2.1(b)", "clause"), ("2.2", "clause"),
    ]
    support = find(clauses, "Support.")
    assert support.text == "Support. Provider gives Technical Support."  # tags gone, words kept
    assert support.heading == "Support" and support.parent == find(clauses, "Service").id
    assert find(clauses, "Customer will not resell").parent == find(clauses, "Restrictions on Customer").id


def test_lazy_markdown_numbering_renders_in_order():
    _, clauses = segment("1. First thing here.\n1. Second thing here.\n1. Third thing here.\n")
    assert [c.section for c in clauses] == ["1", "2", "3"]


def test_letter_i_after_h_is_a_letter_and_roman_lists_continue():
    text = "\n".join(f"({x}) item {x} text;" for x in "abcdefghij") + "\n"
    _, clauses = segment(text)
    assert [c.section for c in clauses] == [f"({x})" for x in "abcdefghij"]
    assert {c.parent for c in clauses} == {None}
    _, roman = segment("Lead-in text of the clause:\n\n(i) one;\n(ii) two;\n(iii) three;\n(iv) four; and\n(v) five.\n")
    assert [c.section for c in roman[1:]] == ["(i)", "(ii)", "(iii)", "(iv)", "(v)"]
    assert {c.parent for c in roman[1:]} == {roman[0].id}  # a paragraph ending in a colon leads the list


def test_hard_wrapped_paragraph_joins_and_long_paragraph_stays_whole():
    words = ("The Licensee shall not, without the prior written consent of the Licensor, "
             "assign or transfer this Agreement or any rights under it. ") * 40
    wrapped, line = [], ""
    for word in words.split():
        if len(line) + len(word) + 1 > 72:
            wrapped.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    wrapped.append(line)
    document, clauses = segment("    " + "\n    ".join(wrapped) + "\n")
    assert len(clauses) == 1 and clauses[0].text == " ".join(words.split())
    assert_spans(document, clauses)


def test_bold_titles_without_numbers_and_title_only_items():
    text = "**Payment.** Customer shall pay on time.\n\n**5. Data**.\n\n**5.1. Use**. Provider uses data.\n"
    _, clauses = segment(text)
    assert (clauses[0].heading, clauses[0].section, clauses[0].kind) == ("Payment", None, "clause")
    assert (clauses[1].kind, clauses[1].section, clauses[1].heading) == ("heading", "5", "Data")
    assert (clauses[2].section, clauses[2].parent) == ("5.1", clauses[1].id)
    assert clauses[2].text == "Use. Provider uses data."


def test_label_alone_on_its_line_numbers_the_next_paragraph():
    _, clauses = segment("Section 5.\n\nThe Supplier shall deliver the goods.\n\nSection 6. Other terms apply.\n")
    assert [(c.section, c.text) for c in clauses] == [
        ("Section 5", "The Supplier shall deliver the goods."), ("Section 6", "Other terms apply."),
    ]


def test_page_numbers_do_not_break_lists():
    text = "1. Scope. The scope is:\n\n(a) first;\n\n12\n\n(b) second.\n"
    _, clauses = segment(text)
    assert [(c.section, c.kind) for c in clauses] == [("1", "clause"), ("1(a)", "clause"), ("1(a)", "boilerplate"),
                                                      ("1(b)", "clause")]
    assert clauses[3].parent == clauses[0].id


def test_definitions_in_several_forms():
    text = (
        '"Affiliate" of a party means an entity controlling it.\n\n'
        "[[Trade Secrets]] means information qualifying as a trade secret.\n\n"
        'When we say "Services", we mean our websites and apps.\n\n'
        "\u201cProduct\u201d has the meaning given in the Order Form.\n\n"
        '"Customer" is responsible for its Users.\n\n'
        "Customer means well but shall pay.\n"
    )
    _, clauses = segment(text)
    assert [c.kind for c in clauses] == ["definition"] * 4 + ["clause", "definition"]
    assert clauses[1].text == "Trade Secrets means information qualifying as a trade secret."


def test_cover_page_fields_tables_and_front_matter():
    text = (
        "---\ntitle: Order Form\nversion: 2\n---\n\n# Order Form\n\n"
        "Effective Date: ____________\nCustomer: Acme Corp.\n\nEmployer\n: {employer_name}\n\n"
        "| Term | Value |\n|:--|:--|\n| Fees | $100 per month |\n| Signature | |\n"
    )
    document, clauses = segment(text)
    assert_spans(document, clauses)
    assert "title: Order Form" not in " ".join(c.text for c in clauses)  # front matter is file metadata
    texts = [c.text for c in clauses]
    assert texts[1:] == ["Effective Date: ____________", "Customer: Acme Corp.", "Employer: {employer_name}",
                         "Term | Value", "Fees | $100 per month", "Signature"]
    assert clauses[-1].kind == "signature"


def test_options_validate_and_change_output():
    with pytest.raises(ValidationError):
        RulesSegmenter({"no_such_option": 1})
    _, merged = segment(MARKDOWN, split_list_items=False)
    taxes = find(merged, "Taxes.")
    assert "sales taxes" in taxes.text and "payroll taxes" in taxes.text and "withholding taxes" in taxes.text
    _, long_only = segment(MARKDOWN, min_chars=40)
    assert all(len(c.text) >= 40 for c in long_only)


def test_empty_and_markup_only_documents():
    assert segment("\n\n   \n")[1] == []
    assert segment("---\n\n***\n\n<br>\n")[1] == []


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".md", ".txt") and p.name != "MANIFEST.md")


@pytest.mark.corpus
@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_corpus_spans_and_clause_counts():
    files = _corpus_files()
    assert len(files) > 100
    for path in files:
        text = path.read_text(encoding="utf-8-sig")
        document, clauses = segment(text)
        assert_spans(document, clauses)
        words = len(text.split())
        if words > 300:  # hard-wrapped or not, a clause is neither a line nor the whole document
            lines = text.count("\n") + 1
            assert 3 <= len(clauses) <= max(words / 8, 10), path.name
            assert len(clauses) < lines, path.name
        if path.suffix == ".md" and "\n## " in text:
            assert any(c.kind == "heading" for c in clauses), path.name


def test_label_like_tokens_inside_wrapped_sentences_do_not_split_them():
    text = (
        "The Licensee may, subject to the payment of all fees then due, (i) use the Software and\n"
        "(ii) copy it for backup purposes, and shall pay the Licensor an amount equal to USD\n"
        "1.5 million within thirty days, as set out in Section 4 of the Order Form and in\n"
        "Section 4 of this Agreement.\n"
    )
    _, clauses = segment(text)
    assert len(clauses) == 1 and clauses[0].text.endswith("Section 4 of this Agreement.")


def test_closed_lines_and_short_lines_do_start_items():
    _, clauses = segment("The Customer shall:\n(a) pay the fees;\n(b) keep records; and\n(c) allow audits.\n")
    assert [c.section for c in clauses] == [None, "(a)", "(b)", "(c)"]
    assert {c.parent for c in clauses[1:]} == {clauses[0].id}


def test_run_in_titles_in_sentence_case_and_titled_definitions():
    text = ("1. Return or destruction. The Recipient shall return all materials.\n\n"
            '2. Confidential Information. "Confidential Information" means any non-public information.\n\n'
            "3. the parties agree. Nothing here is a title.\n")
    _, clauses = segment(text)
    assert [c.heading for c in clauses] == ["Return or destruction", "Confidential Information", None]
    assert [c.kind for c in clauses] == ["clause", "definition", "clause"]


def test_bold_lines_and_table_headers_are_headings_but_list_items_are_not():
    text = ("**Company template, version 3.2**\n\n| Field | Value |\n|---|---|\n| Fees | $10 |\n\n"
            "Compatible licences:\n\n- GNU General Public License v3\n- Mozilla Public License 2.0\n")
    _, clauses = segment(text)
    assert [c.kind for c in clauses] == ["heading", "heading", "clause", "clause", "clause", "clause"]
    assert clauses[2].heading == "Company template, version 3.2"


def test_signature_block_ends_where_an_exhibit_starts():
    text = ("IN WITNESS WHEREOF, the parties have signed this Agreement.\n\nACME CORP.\n\nBy: ________\n\n"
            "EXHIBIT A\n\nLICENSED DOMAIN NAMES\n\nexample.com\n")
    _, clauses = segment(text)
    assert [c.kind for c in clauses] == ["signature", "signature", "signature", "heading", "clause"]
    assert clauses[3].section == "Exhibit A"


def test_one_paragraph_per_line_without_blank_lines():
    paragraphs = [
        "The Supplier shall deliver the Goods to the Customer's premises on the dates set out in the Order, "
        "and shall bear all costs of carriage and insurance until delivery is complete.",
        "Risk in the Goods passes to the Customer on delivery, and title passes when the Customer has paid "
        "the price in full, including any interest that has accrued on late payment.",
        "The Customer may reject any Goods that do not conform to the Order within fourteen (14) days after "
        "delivery by giving written notice that describes the defect in reasonable detail.",
    ]
    document, clauses = segment("\n".join(paragraphs) + "\n")
    assert [c.text for c in clauses] == paragraphs
    assert_spans(document, clauses)


def test_hard_wrapped_paragraphs_separated_by_a_short_closed_line_or_first_line_indent():
    text = (
        "The Supplier shall deliver the Goods to the premises of the Customer on the\n"
        "dates set out in the Order.\n"
        "Risk in the Goods passes to the Customer on delivery, and title passes when\n"
        "the Customer has paid the price in full, including any accrued interest.\n"
        "    The Customer may reject Goods that do not conform to the Order within\n"
        "fourteen days after delivery.\n"
    )
    _, clauses = segment(text)
    assert [c.text.split()[:3] for c in clauses] == [["The", "Supplier", "shall"], ["Risk", "in", "the"],
                                                    ["The", "Customer", "may"]]


def test_run_on_pages_are_cut_before_numbered_headings_only():
    filler = "The Licensee shall meet the standards set by the Licensor (a) in writing; and (b) in time. " * 6
    text = (f"ARTICLE 1 LICENSE GRANT 1.1. License. {filler}1.2. Licensor's Use. {filler}"
            f"as described in Section 1.1. Fees are due. ARTICLE 2 COMPLIANCE 2.1. Quality Control. {filler}\n")
    document, clauses = segment(text)
    assert_spans(document, clauses)
    assert [(c.section, c.kind) for c in clauses] == [
        ("Article 1", "heading"), ("1.1", "clause"), ("1.2", "clause"), ("Article 2", "heading"), ("2.1", "clause"),
    ]
    assert "as described in Section 1.1. Fees are due." in clauses[2].text  # a cross-reference is not a heading
    assert clauses[2].text.count("(a) in writing") == 6  # inline enumerations stay in their sentence


_PIECES = ["1. ", "1.1 ", "(a) ", "(iv) ", "a) ", "- ", "* ", "# ", "## ", "**", "__", "Section 4. ", "ARTICLE IV ",
           "§ 2 ", '"Term" means ', "By: ", "____", "| ", " |", "---", "===", "<span class=\"x\">", "</span>",
           "[link](http://x)", "[●]", "{field}", "IN WITNESS WHEREOF", "Payment. ", "shall pay", "THE FEES ",
           "\n", "\n\n", "\r\n", "\u00a0", "\t", "    ", "\u201c", "\u201d", "\u00ad", "\u200b", "é", "12", "x" * 30]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES) | st.text(max_size=8), max_size=60))
def test_any_text_segments_with_exact_spans(pieces):
    document, clauses = segment("".join(pieces))
    assert_spans(document, clauses)
    assert all(c.text for c in clauses)
    parents = {c.id for c in clauses}
    assert all(c.parent is None or c.parent in parents for c in clauses)


def test_uk_style_numbering_roman_caps_headings_and_grid_tables():
    text = (
        "1 DEFINITIONS AND INTERPRETATION\n\n"
        "1.1 In this Agreement, \"Business Day\" means a day other than a Saturday or Sunday.\n\n"
        '1.2 "Services": the services described in Schedule 1.\n\n'
        "II. PAYMENT\n\n"
        "A. The Customer shall pay the Fees.\n\n"
        "+------+-------+\n| Fee  | $10   |\n+======+=======+\n"
    )
    document, clauses = segment(text)
    assert_spans(document, clauses)
    assert [(c.section, c.kind) for c in clauses] == [
        ("1", "heading"), ("1.1", "definition"), ("1.2", "definition"), ("II", "heading"), ("II(A)", "clause"),
        ("II", "clause"),  # a table after a list ends the list
    ]
    assert clauses[1].parent == clauses[0].id and clauses[-1].text == "Fee | $10"


def test_bold_title_after_the_label():
    _, clauses = segment("1. **Definitions.** Terms have these meanings.\n2. __Fees__: Customer pays monthly.\n")
    assert [(c.section, c.heading) for c in clauses] == [("1", "Definitions"), ("2", "Fees")]
    assert clauses[1].text == "Fees: Customer pays monthly."


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
@pytest.mark.parametrize("old,new", [
    ("commonpaper/csa/CSA_v1.0.md", "commonpaper/csa/CSA_v1.1.md"),
    ("commonpaper/psa/PSA_v1.0.md", "commonpaper/psa/PSA_v1.1.md"),
    ("commonpaper/dpa/DPA_v1.0.md", "commonpaper/dpa/DPA_v1.1.md"),
])
def test_versions_of_an_agreement_keep_their_structure(old, new):
    """Small edits between versions must not reshape the segmentation around them."""
    shapes = []
    for name in (old, new):
        _, clauses = segment((CORPUS / name).read_text(encoding="utf-8"))
        shapes.append([(c.section, c.kind, c.heading) for c in clauses])
    assert shapes[0] == shapes[1]


def test_converted_bullets_are_list_items():
    _, clauses = segment("The Supplier shall:\n\u2022 deliver on time;\n\uf0b7 invoice monthly.\n")
    assert [c.text for c in clauses] == ["The Supplier shall:", "deliver on time;", "invoice monthly."]
    assert clauses[1].parent == clauses[2].parent == clauses[0].id


UK_AGREEMENT = """\
                         DISTRIBUTION AGREEMENT

THIS DISTRIBUTION AGREEMENT (the "Agreement") is made on 1 March 2026

BETWEEN:

(1)  ACME LIMITED, a company incorporated in England (the "Supplier"); and

(2)  BETA GMBH, a company incorporated in Germany (the "Distributor").

BACKGROUND

(A)  The Supplier manufactures the Products.

(B)  The Distributor wishes to distribute the Products in the Territory.

IT IS AGREED as follows:

1    DEFINITIONS AND INTERPRETATION

1.1  In this Agreement:

     "Products" means the products listed in Schedule 1;

     "Territory" means Germany and Austria.

1.2  Clause headings do not affect the interpretation of this Agreement.

2    APPOINTMENT

2.1  The Supplier appoints the Distributor as its exclusive distributor of
     the Products in the Territory, and the Distributor accepts that
     appointment.

2.2  The Supplier shall not:

     (a)  appoint any other person to distribute the Products in the
          Territory; or

     (b)  sell the Products directly to customers in the Territory.

                                 Page 1 of 3

3    TERM

     This Agreement shall continue for three years unless terminated
     earlier under clause 4.

Clause 4  Termination. Either party may terminate on ninety days' notice.

SCHEDULE 1
THE PRODUCTS

Widget A, Widget B.

Signed by ___________________ for and on behalf of ACME LIMITED
"""


def test_uk_agreement_with_recitals_schedule_and_signature():
    document, clauses = segment(UK_AGREEMENT)
    assert_spans(document, clauses)
    parties = [c for c in clauses if c.section in ("(1)", "(2)")]
    assert [c.heading for c in parties] == ["BETWEEN", "BETWEEN"]
    recitals = [c for c in clauses if c.section in ("(A)", "(B)")]
    assert {c.parent for c in recitals} == {find(clauses, "BACKGROUND").id}
    definitions = find(clauses, "DEFINITIONS AND INTERPRETATION")
    assert (definitions.kind, definitions.section, definitions.parent) == ("heading", "1", None)  # not a recital
    lead = find(clauses, "In this Agreement:")
    assert [c.kind for c in clauses if c.parent == lead.id] == ["definition", "definition"]
    appointment = find(clauses, "The Supplier appoints")
    assert appointment.section == "2.1" and appointment.text.endswith("accepts that appointment.")
    assert find(clauses, "sell the Products directly").section == "2.2(b)"
    assert find(clauses, "Page 1 of 3").kind == "boilerplate"
    assert find(clauses, "This Agreement shall continue").heading == "TERM"
    assert find(clauses, "Termination.").section == "Clause 4"
    assert find(clauses, "THE PRODUCTS").section == "Schedule 1"
    assert find(clauses, "Signed by").kind == "signature"
