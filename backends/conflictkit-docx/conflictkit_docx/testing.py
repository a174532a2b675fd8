"""Building Word documents from raw OOXML in tests: numbering, tables, tracked changes, comments,
footnotes, headers and footers, exactly as Word writes them (no template, no Word needed)."""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'

# A legal outline: "1." / "1.1" / "(a)" / "(i)" on levels 0-3 of abstract list 0 (numId 1).
LEGAL_LEVELS = (("decimal", "%1."), ("decimal", "%1.%2"), ("lowerLetter", "(%3)"), ("lowerRoman", "(%4)"))


def run(text: str, bold: bool = False) -> str:
    """A ``w:r`` holding ``text`` (tabs and line breaks as Word writes them)."""
    props = "<w:rPr><w:b/></w:rPr>" if bold else ""
    body = "".join(
        "<w:tab/>" if piece == "\t" else "<w:br/>" if piece == "\n" else f'<w:t xml:space="preserve">{escape(piece)}</w:t>'
        for piece in re.split(r"(\t|\n)", text) if piece
    )
    return f"<w:r>{props}{body}</w:r>"


def ins(text: str, rid: int = 1) -> str:
    return f'<w:ins w:id="{rid}" w:author="Counterparty" w:date="2027-01-01T00:00:00Z">{run(text)}</w:ins>'


def delete(text: str, rid: int = 2) -> str:
    return (f'<w:del w:id="{rid}" w:author="Counterparty" w:date="2027-01-01T00:00:00Z"><w:r>'
            f'<w:delText xml:space="preserve">{escape(text)}</w:delText></w:r></w:del>')


@dataclass
class DocxBuilder:
    """Collects body XML and the other parts; :meth:`build` returns the .docx bytes."""

    body: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    headers: list[str] = field(default_factory=list)
    footers: list[str] = field(default_factory=list)
    extra_numbering: list[str] = field(default_factory=list)
    macro: bool = False

    def paragraph(self, content: str | list[str], style: str | None = None, num: tuple[int, int] | None = None) -> DocxBuilder:
        """A paragraph of runs (strings are plain runs; pass ins()/delete()/run() XML for the rest)."""
        pieces = [content] if isinstance(content, str) else content
        xml = "".join(p if p.startswith("<") else run(p) for p in pieces)
        props = ""
        if style:
            props += f'<w:pStyle w:val="{style}"/>'
        if num:
            props += f'<w:numPr><w:ilvl w:val="{num[1]}"/><w:numId w:val="{num[0]}"/></w:numPr>'
        self.body.append(f"<w:p>{'<w:pPr>' + props + '</w:pPr>' if props else ''}{xml}</w:p>")
        return self

    def raw(self, xml: str) -> DocxBuilder:
        self.body.append(xml)
        return self

    def table(self, rows: list[list[str]]) -> DocxBuilder:
        cells = "".join("<w:tr>" + "".join(f"<w:tc><w:p>{run(c)}</w:p></w:tc>" for c in row) + "</w:tr>" for row in rows)
        self.body.append(f"<w:tbl>{cells}</w:tbl>")
        return self

    def footnote(self, text: str) -> DocxBuilder:
        """A footnote, referenced from the end of the last body paragraph."""
        fid = len(self.footnotes) + 1
        self.footnotes.append(f'<w:footnote w:id="{fid}"><w:p>{run(text)}</w:p></w:footnote>')
        reference = f'<w:r><w:footnoteReference w:id="{fid}"/></w:r>'
        self.body[-1] = self.body[-1][: -len("</w:p>")] + reference + "</w:p>"
        return self

    def comment(self, text: str) -> DocxBuilder:
        """A comment anchored on the whole last body paragraph."""
        cid = len(self.comments)
        self.comments.append(f'<w:comment w:id="{cid}" w:author="Reviewer"><w:p>{run(text)}</w:p></w:comment>')
        last = self.body[-1]
        start = last.index(">", last.index("<w:p")) + 1
        if "</w:pPr>" in last:
            start = last.index("</w:pPr>") + len("</w:pPr>")
        self.body[-1] = (last[:start] + f'<w:commentRangeStart w:id="{cid}"/>' + last[start:-len("</w:p>")]
                         + f'<w:commentRangeEnd w:id="{cid}"/><w:r><w:commentReference w:id="{cid}"/></w:r></w:p>')
        return self

    def build(self) -> bytes:
        buffer = io.BytesIO()
        sect = "".join(f'<w:headerReference w:type="default" r:id="rIdH{i}"/>' for i in range(len(self.headers)))
        sect += "".join(f'<w:footerReference w:type="default" r:id="rIdF{i}"/>' for i in range(len(self.footers)))
        document = (f'{_HEAD}<w:document xmlns:w="{_W}" xmlns:r="{_R}"><w:body>{"".join(self.body)}'
                    f'<w:sectPr>{sect}</w:sectPr></w:body></w:document>')
        rels = [("rIdS", "styles", "styles.xml"), ("rIdN", "numbering", "numbering.xml")]
        rels += [(f"rIdH{i}", "header", f"header{i}.xml") for i in range(len(self.headers))]
        rels += [(f"rIdF{i}", "footer", f"footer{i}.xml") for i in range(len(self.footers))]
        if self.footnotes:
            rels.append(("rIdFn", "footnotes", "footnotes.xml"))
        if self.comments:
            rels.append(("rIdC", "comments", "comments.xml"))
        overrides = {
            "/word/document.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
            if not self.macro else "application/vnd.ms-word.document.macroEnabled.main+xml",
            "/word/styles.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
            "/word/numbering.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
        }
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", _content_types(overrides, self))
            z.writestr("_rels/.rels", f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                       f'<Relationship Id="rId1" Type="{_R}/officeDocument" Target="word/document.xml"/></Relationships>')
            z.writestr("word/_rels/document.xml.rels",
                       f'{_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                       + "".join(f'<Relationship Id="{i}" Type="{_R}/{t}" Target="{target}"/>' for i, t, target in rels)
                       + "</Relationships>")
            z.writestr("word/document.xml", document)
            z.writestr("word/styles.xml", _STYLES)
            z.writestr("word/numbering.xml", _numbering(self.extra_numbering))
            for i, text in enumerate(self.headers):
                z.writestr(f"word/header{i}.xml", f'{_HEAD}<w:hdr xmlns:w="{_W}"><w:p>{run(text)}</w:p></w:hdr>')
            for i, text in enumerate(self.footers):
                z.writestr(f"word/footer{i}.xml", f'{_HEAD}<w:ftr xmlns:w="{_W}"><w:p>{run(text)}</w:p></w:ftr>')
            if self.footnotes:
                z.writestr("word/footnotes.xml", f'{_HEAD}<w:footnotes xmlns:w="{_W}">'
                           '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
                           + "".join(self.footnotes) + "</w:footnotes>")
            if self.comments:
                z.writestr("word/comments.xml", f'{_HEAD}<w:comments xmlns:w="{_W}">{"".join(self.comments)}</w:comments>')
            if self.macro:
                z.writestr("word/vbaProject.bin", b"\x00" * 64)
        return buffer.getvalue()


def _content_types(overrides: dict[str, str], builder: DocxBuilder) -> str:
    parts = dict(overrides)
    base = "application/vnd.openxmlformats-officedocument.wordprocessingml"
    for i in range(len(builder.headers)):
        parts[f"/word/header{i}.xml"] = f"{base}.header+xml"
    for i in range(len(builder.footers)):
        parts[f"/word/footer{i}.xml"] = f"{base}.footer+xml"
    if builder.footnotes:
        parts["/word/footnotes.xml"] = f"{base}.footnotes+xml"
    if builder.comments:
        parts["/word/comments.xml"] = f"{base}.comments+xml"
    return (f'{_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            + "".join(f'<Override PartName="{k}" ContentType="{v}"/>' for k, v in parts.items()) + "</Types>")


_STYLES = (f'{_HEAD}<w:styles xmlns:w="{_W}">'
           '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
           + "".join(f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/>'
                     '<w:basedOn w:val="Normal"/></w:style>' for n in range(1, 7))
           + '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>')


def _numbering(extra: list[str]) -> str:
    levels = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl>'
        for i, (fmt, text) in enumerate(LEGAL_LEVELS)
    )
    return (f'{_HEAD}<w:numbering xmlns:w="{_W}"><w:abstractNum w:abstractNumId="0">{levels}</w:abstractNum>'
            + "".join(extra) + '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>')


_ATX = re.compile(r"(#{1,6}) +(.*)")
_LEGAL_LABEL = re.compile(r"(\d+)\.(?: +|$)(.*)|(\d+)\.(\d+) +(.*)|\(([a-z])\) +(.*)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _runs(text: str) -> list[str]:
    pieces = []
    for i, part in enumerate(_BOLD.split(text)):
        if part:
            pieces.append(run(part, bold=i % 2 == 1))
    return pieces


def markdown_to_docx(markdown: str) -> bytes:
    """A Word version of a Markdown contract as a lawyer would type it: headings in heading styles,
    "1." / "1.1" / "(a)" labels as automatic numbering wherever they follow on (literal text where
    a document skips or repeats a number), tables as tables, ``**bold**`` as bold runs."""
    builder = DocxBuilder()
    counters = [0, 0, 0]
    table: list[list[str]] = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.strip().splitlines()
        if all(line.strip().startswith("|") for line in lines):
            table = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines
                     if not re.fullmatch(r"[|\s:-]+", line)]
            builder.table(table)
            continue
        text = " ".join(line.strip() for line in lines)
        heading = _ATX.fullmatch(text)
        style = None
        if heading:
            style, text = f"Heading{len(heading.group(1))}", heading.group(2)
        match = _LEGAL_LABEL.fullmatch(text)
        num = None
        if match and match.group(1) and int(match.group(1)) == counters[0] + 1:
            counters[:] = [counters[0] + 1, 0, 0]
            num, text = (1, 0), match.group(2)
        elif match and match.group(3) and int(match.group(3)) == counters[0] and int(match.group(4)) == counters[1] + 1:
            counters[1:] = [counters[1] + 1, 0]
            num, text = (1, 1), match.group(5)
        elif match and match.group(6) and ord(match.group(6)) - ord("a") == counters[2]:
            counters[2] += 1
            num, text = (1, 2), match.group(7)
        builder.paragraph(_runs(text) or [run("")], style=style, num=num)
    return builder.build()


def rendered_to_docx(markdown: str) -> bytes:
    """A Word version of a Markdown document as a reader sees it (tags, entities and markup gone), typed
    the way a lawyer would: headings in heading styles, "1." / "1.1" / "(a)" labels that follow on as
    Word's automatic numbering (literal text where a document skips or repeats a number), bold as bold
    runs, tables as tables. Built from :func:`conflictkit.report.doctext.render_document`."""
    from conflictkit.report.docdiff import units_of
    from conflictkit.report.doctext import render_document
    from conflictkit.segmenters.labels import parse_label

    document = render_document(markdown, "markdown")
    builder = DocxBuilder()
    counters = [0, 0, 0]
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            builder.table([list(r) for r in rows])
            rows.clear()

    def runs_of(start: int, end: int) -> list[str]:
        marks = [(s, e) for s, e, m in document.marks_in(start, end) if m == "bold"]
        cuts = sorted({start, end} | {x for s, e in marks for x in (s, e)})
        out = []
        for a, b in zip(cuts, cuts[1:], strict=False):
            bold = any(s <= a and e >= b for s, e in marks)
            out.append(run(document.text[a:b], bold=bold))
        return out or [run("")]

    for unit in units_of(document):
        if unit.kind == "row":
            rows.append([document.text[a:b] for a, b in unit.cells])
            continue
        flush()
        label = parse_label(document.text[unit.label[0]:unit.label[1]] + " ") if unit.label[1] > unit.label[0] else None
        style = f"Heading{min(unit.level, 6)}" if unit.kind == "heading" else None
        num = None
        if label is not None and label.kind == "decimal" and len(label.parts) == 1 and label.parts[0] == counters[0] + 1:
            counters[:] = [counters[0] + 1, 0, 0]
            num = (1, 0)
        elif (label is not None and label.kind == "decimal" and len(label.parts) == 2 and label.parts[0] == counters[0]
              and label.parts[1] == counters[1] + 1):
            counters[1:] = [counters[1] + 1, 0]
            num = (1, 1)
        elif label is not None and label.kind == "enum" and label.wrap == "()" and label.token.isalpha() \
                and len(label.token) == 1 and ord(label.token) - ord("a") == counters[2]:
            counters[2] += 1
            num = (1, 2)
        body_start = document.leaves[unit.leaves[0]].label_end if num else unit.start
        builder.paragraph(runs_of(body_start, unit.end), style=style, num=num)
    flush()
    return builder.build()


def document_tokens(text: str, fmt: str, blocks=None) -> list[str]:
    """The words a reader sees in a document's body, as the engine compares them (typography and spacing are no change)."""
    from conflictkit.grounding.tokens import tokenize
    from conflictkit.report.docdiff import units_of
    from conflictkit.report.doctext import render_document

    document = render_document(text, fmt, blocks)
    return list(tokenize(" ".join(document.text[u.start:u.end] for u in units_of(document))).words)


def round_trip(data: bytes) -> tuple[list[str], list[str]]:
    """The body's words of a Word redline with every tracked change accepted, and with every change rejected."""
    from conflictkit_docx.loader import read_docx

    accepted, _ = read_docx(data, "redline.docx", "accepted")
    rejected, _ = read_docx(data, "redline.docx", "original")
    return (document_tokens(accepted.text, "docx", accepted.blocks), document_tokens(rejected.text, "docx", rejected.blocks))


# -- hostile Word files: what the loader must refuse or read within its limits --


def numbering_docx(start: str = "1", fmt: str = "decimal", text: str = "%1.", ilvl: str = "0", paragraphs: int = 3) -> bytes:
    """``paragraphs`` paragraphs numbered by one list whose level ``ilvl`` (an attribute, so it may be
    "two") starts at ``start`` (any string: "1000000000", 5,000 digits) in format ``fmt`` with pattern ``text``."""
    level = (f'<w:lvl w:ilvl="{escape(ilvl)}"><w:start w:val="{escape(start)}"/><w:numFmt w:val="{escape(fmt)}"/>'
             f'<w:lvlText w:val="{escape(text)}"/></w:lvl>')
    builder = DocxBuilder(extra_numbering=[f'<w:abstractNum w:abstractNumId="7">{level}</w:abstractNum>',
                                           '<w:num w:numId="7"><w:abstractNumId w:val="7"/></w:num>'])
    for n in range(paragraphs):
        builder.paragraph(f"The Supplier shall deliver item {n + 1} within 30 days.", num=(7, ilvl))  # type: ignore[arg-type]
    return builder.build()


def paragraphs_docx(count: int) -> bytes:
    """A document of ``count`` short paragraphs, each a different clause."""
    builder = DocxBuilder()
    for n in range(count):
        builder.paragraph(f"The Supplier shall deliver item {n + 1} within {n % 90 + 1} days.")
    return builder.build()


def zip_bomb_docx(unpacked: int, part: str = "word/media/image1.bin", declared: int | None = None) -> bytes:
    """A one-paragraph document with a ``part`` that inflates to ``unpacked`` bytes (about 1 KB a MB
    compressed); with ``declared``, its zip headers claim that size instead."""
    from conflictkit.testing.hostile import zip_archive

    with zipfile.ZipFile(io.BytesIO(DocxBuilder().paragraph("The Customer shall pay.").build())) as archive:
        members = {name: archive.read(name) for name in archive.namelist() if name != part}
    return zip_archive(members, {part: unpacked}, declared)

