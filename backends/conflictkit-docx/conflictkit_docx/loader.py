"""The ``docx`` loader: a Word document's text, with numbering, tables, and tracked changes read
as accepted (the default, said in the report) or as rejected (``revision="original"``).

Why raw OOXML (zipfile + lxml, python-docx's own XML library) and not python-docx or docx2python
for reading: neither can read a document with its tracked changes rejected (python-docx shows
inserted and deleted text alike; docx2python keeps only accepted text or mixes both), neither
computes labels from ``numbering.xml`` with continuation across list instances the way Word does,
and neither gives each run's offset in the extracted text, which ``report.docx`` needs to anchor a
comment on the runs of a finding. python-docx writes ``report.docx``.
"""

from __future__ import annotations

from typing import ClassVar

from conflictkit.config import Limits
from conflictkit.errors import InputError
from conflictkit.loaders import plugin_extension
from conflictkit.model import DocumentSource
from conflictkit.stages import LoadedText, Loader, Revision
from conflictkit_docx.numbering import Numbering
from conflictkit_docx.package import DocxPackage, w
from conflictkit_docx.reader import (
    Assembled,
    BodyReader,
    Paragraph,
    Piece,
    assemble,
    read_styles,
)

_NOTE_PARTS = (("footnotes", "footnote", "footnote"), ("endnotes", "endnote", "endnote"))


def count_revisions(root) -> dict[str, int]:
    """Tracked changes in a part: insertions, deletions, moves and formatting changes."""
    def count(*tags: str) -> int:
        return sum(1 for tag in tags for _ in root.iter(w(tag)))

    return {
        "insertions": count("ins"),
        "deletions": count("del"),
        "moves": count("moveTo"),
        "formatting": count("pPrChange", "rPrChange", "tblPrChange", "trPrChange", "tcPrChange", "sectPrChange"),
    }


def _text_boxes(root) -> int:
    """Text boxes in a part; Word writes each twice (mc:Choice and its mc:Fallback): count the first."""
    return sum(1 for box in root.iter(w("txbxContent"))
               if not any(a.tag.endswith("}Fallback") for a in box.iterancestors()))


def read_docx(data: bytes, name: str, revision: Revision = "accepted", body_root=None,
              limits: Limits | None = None) -> tuple[Assembled, dict]:
    """The document text and the facts about it, read within ``limits`` (the defaults when None).
    ``body_root`` reads another copy of document.xml (python-docx's, when ``report.docx`` anchors
    comments on its runs)."""
    package = DocxPackage(data, name, limits)
    main = package.main
    root = package.xml(main) if body_root is None else body_root
    body = root.find(w("body")) if root is not None else None
    if body is None:
        raise InputError(f"{name} is a Word package without a document body; open it in Word and save it again")
    styles = read_styles(next((package.xml(p) for p in package.related(main, "styles")), None))
    numbering = Numbering(next((package.xml(p) for p in package.related(main, "numbering")), None))
    paragraphs = BodyReader(styles, numbering, revision).body(body)
    extra = _margins(package, main, styles, numbering, revision)
    assembled = assemble(paragraphs + extra)
    revisions = count_revisions(root)
    comments = sum(len(list(c.iter(w("comment")))) for p in package.related(main, "comments") if (c := package.xml(p)) is not None)
    details = {
        "paragraphs": sum(1 for b in assembled.blocks if b.role == "body"),
        "tracked_changes": revisions,
        "read_as": "changes accepted" if revision == "accepted" else "changes rejected (original)",
        "comments_dropped": comments,
        # text boxes and embedded documents sit outside the reading order of the body: counted, not read
        "text_boxes_dropped": _text_boxes(root),
        "embedded_documents_dropped": sum(1 for _ in root.iter(w("altChunk"))),
        "non_operative": {role: sum(1 for b in assembled.blocks if b.role == role) for role in ("header", "footer", "footnote", "endnote")},
    }
    return assembled, details


def _margins(package: DocxPackage, main: str, styles, numbering: Numbering, revision: Revision) -> list[Paragraph]:
    """Headers, footers, footnotes and endnotes: kept (non-operative) after the body, each text once."""
    out: list[Paragraph] = []
    seen: set[tuple[str, str]] = set()  # the same header on every section is read once
    for kind in ("header", "footer"):
        for part in package.related(main, kind):
            root = package.xml(part)
            if root is None:
                continue
            for para in BodyReader(styles, numbering, revision).body(root, kind):  # type: ignore[arg-type]
                text = "".join(p.text for p in para.pieces).strip()
                if text and (kind, text) not in seen:
                    seen.add((kind, text))
                    para.pieces.insert(0, Piece(kind.capitalize() + ": "))
                    para.location = {"part": part}
                    out.append(para)
    for part_kind, element, role in _NOTE_PARTS:
        for part in package.related(main, part_kind):
            root = package.xml(part)
            if root is None:
                continue
            for note in root.iter(w(element)):
                if note.get(w("type")) in ("separator", "continuationSeparator", "continuationNotice"):
                    continue
                for i, para in enumerate(BodyReader(styles, numbering, revision).body(note, role)):  # type: ignore[arg-type]
                    if i == 0:
                        para.pieces.insert(0, Piece(f"{role.capitalize()} {note.get(w('id'))}: "))
                    para.location = {"part": part, role: note.get(w("id"))}
                    out.append(para)
    return out


def _notes(name: str, details: dict, revision: Revision) -> list[str]:
    notes = []
    changes = details["tracked_changes"]
    textual = changes["insertions"] + changes["deletions"] + changes["moves"]
    if textual:
        how = ("read with all changes accepted; `conflictkit compare --revisions FILE.docx` compares its original with the revised text"
               if revision == "accepted" else "read with all changes rejected (its original text)")
        counts = ", ".join(f"{changes[key]} {key[:-1] if changes[key] == 1 else key}" for key in ("insertions", "deletions", "moves"))
        notes.append(f"{name} has tracked changes ({counts}): {how}")
    elif changes["formatting"]:
        notes.append(f"{name} has {changes['formatting']} tracked formatting changes (the text is the same either way)")
    dropped = details["text_boxes_dropped"] + details["embedded_documents_dropped"]
    if dropped:
        notes.append(f"{name} has {dropped} text boxes or embedded documents: not read (copy their text into the body to compare it)")
    if details["comments_dropped"]:
        notes.append(f"{name} has {details['comments_dropped']} comments: kept out of the text")
    return notes


class DocxLoader(Loader):
    """Word documents (.docx): numbering labels, headings, tables; tracked changes read, never silently accepted."""

    name = "docx"
    extensions: ClassVar[tuple[str, ...]] = (".docx", ".docm", ".dotx")
    reads_revisions: ClassVar[bool] = True

    @classmethod
    def sniff(cls, data: bytes) -> bool:
        return plugin_extension(data) == ".docx"

    def load(self, data: bytes, name: str, revision: Revision = "accepted") -> LoadedText:
        assembled, details = read_docx(data, name, revision, limits=self.limits)
        source = DocumentSource(format="docx", loader=self.name, blocks=assembled.blocks, details=details,
                                notes=_notes(name, details, revision))
        return LoadedText(text=assembled.text, source=source)
