"""A Word package opened for writing: its parts as they are, the main document, styles, numbering and
comments as XML, and :meth:`WordFile.save` writing it back with every other part untouched.

report.docx is written with lxml directly rather than through python-docx: loading python-docx
alone costs a tenth of a second, and its comment API a few milliseconds a paragraph, which matters
when a redline must add little to a comparison (``benchmarks/results/redline.md``).
"""

from __future__ import annotations

import importlib.util
import io
import zipfile
from pathlib import Path, PurePosixPath

from lxml import etree

from conflictkit_docx.package import _CT, _PKG_REL, DocxPackage, w
from conflictkit_docx.typeset import el, make_run

_COMMENTS_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments"
_COMMENTS_CONTENT = "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=False)


class WordFile:
    """The parts of a .docx file, with its main document (and the parts a redline changes) parsed."""

    def __init__(self, data: bytes, name: str = "document.docx") -> None:
        package = DocxPackage(data, name)  # every safety check of the loader: zip bombs, macros, encryption
        self.parts: dict[str, bytes] = {info.filename: package.zip.read(info) for info in package.zip.infolist()}
        self.main = package.main
        self.document = etree.fromstring(self.parts[self.main], _PARSER)
        self.styles = _first(package, self.main, "styles")
        self.numbering = _first(package, self.main, "numbering")
        comments = package.related(self.main, "comments")
        self.comments_part = comments[0] if comments else None
        self.comments = package.xml(self.comments_part) if self.comments_part else None
        self._style_ids = _style_ids(self.styles)

    @classmethod
    def blank(cls) -> WordFile:
        """An empty document with Word's default styles (python-docx's template, read without importing python-docx)."""
        spec = importlib.util.find_spec("docx")
        folder = Path(next(iter(spec.submodule_search_locations)))  # type: ignore[union-attr]
        word = cls((folder / "templates" / "default.docx").read_bytes(), "template.docx")
        for p in list(word.body.iter(w("p"))):
            p.getparent().remove(p)
        return word

    @property
    def body(self):
        return self.document.find(w("body"))

    def style_id(self, name: str) -> str | None:
        """The id of the paragraph style called ``name`` ("heading 1", any case), None when the document has none."""
        return self._style_ids.get(name.lower())

    def style_name(self, style_id: str) -> str:
        return next((name for name, sid in self._style_ids.items() if sid == style_id), "")

    def add_comment(self, lines: list[str], author: str, initials: str, date: str) -> str:
        """A new comment (one paragraph per line) in the comments part, created when the document has none; its id."""
        if self.comments is None:
            self.comments = etree.Element(w("comments"), nsmap={"w": w("")[1:-1]})
            self.comments_part = str(PurePosixPath(self.main).parent / "comments.xml")
            self._add_comments_part()
        ids = [int(c.get(w("id"))) for c in self.comments.iter(w("comment")) if (c.get(w("id")) or "").lstrip("-").isdigit()]
        cid = str(max(ids, default=-1) + 1)
        comment = el("comment", id=cid, author=author, date=date, initials=initials)
        for k, line in enumerate(lines or [""]):
            p = el("p")
            if k == 0:
                mark = el("r")
                mark.append(el("annotationRef"))
                p.append(mark)
            p.append(make_run(line))
            comment.append(p)
        self.comments.append(comment)
        return cid

    def _add_comments_part(self) -> None:
        folder = PurePosixPath(self.main).parent
        rels_name = str(folder / "_rels" / (PurePosixPath(self.main).name + ".rels"))
        rels = etree.fromstring(self.parts[rels_name], _PARSER) if rels_name in self.parts else \
            etree.Element(f"{{{_PKG_REL}}}Relationships", nsmap={None: _PKG_REL})
        taken = {r.get("Id") for r in rels}
        rid = next(f"rIdCk{n}" for n in range(1, 10_000) if f"rIdCk{n}" not in taken)
        etree.SubElement(rels, f"{{{_PKG_REL}}}Relationship", Id=rid, Type=_COMMENTS_TYPE,
                         Target=str(PurePosixPath(self.comments_part).relative_to(folder)))
        self.parts[rels_name] = etree.tostring(rels, xml_declaration=True, encoding="UTF-8", standalone=True)
        types = etree.fromstring(self.parts["[Content_Types].xml"], _PARSER)
        etree.SubElement(types, f"{{{_CT}}}Override", PartName="/" + self.comments_part, ContentType=_COMMENTS_CONTENT)
        self.parts["[Content_Types].xml"] = etree.tostring(types, xml_declaration=True, encoding="UTF-8", standalone=True)

    def save(self) -> bytes:
        """The package as .docx bytes: the changed parts serialized, every other part as it was."""
        changed = {self.main: self.document}
        if self.comments is not None:
            changed[self.comments_part] = self.comments
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as out:
            for name, content in self.parts.items():
                if name not in changed:
                    out.writestr(name, content)
            for name, root in changed.items():
                out.writestr(name, etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True))
        return buffer.getvalue()


def _first(package: DocxPackage, main: str, kind: str):
    return next((root for part in package.related(main, kind) if (root := package.xml(part)) is not None), None)


def _style_ids(styles) -> dict[str, str]:
    out: dict[str, str] = {}
    if styles is None:
        return out
    for style in styles.iter(w("style")):
        name = style.find(w("name"))
        if name is not None and style.get(w("styleId")):
            out.setdefault((name.get(w("val")) or "").lower(), style.get(w("styleId")))
    return out

