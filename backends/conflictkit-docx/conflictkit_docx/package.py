"""Opening a .docx safely: the zip and its parts, with one clear error for every file that is not a
plain Word document (corrupt, something else, macro-enabled, password-protected, a zip bomb)."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import PurePosixPath

from lxml import etree

from conflictkit.config import Limits
from conflictkit.errors import InputError, over_limit
from conflictkit.loaders import describe_binary, size_text

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
NS = {"w": W, "r": R}
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_CT = "http://schemas.openxmlformats.org/package/2006/content-types"
_OFFICE_DOCUMENT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
_MACRO_TYPES = ("macroEnabled", "vbaProject")

MAX_RATIO = 200  # a part that inflates more than this is refused before it is read
_CFB = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_blank_text=False)


def w(tag: str) -> str:
    """The Clark name of a WordprocessingML element or attribute: ``w("p")`` -> ``{...main}p``."""
    return f"{{{W}}}{tag}"


_DECIMAL = re.compile(r"[+-]?[0-9]{1,10}")


def decimal(value: str | None, low: int = -(2**31), high: int = 2**31 - 1) -> int | None:
    """An integer attribute (``w:val``, ``w:ilvl``) when it is one between ``low`` and ``high``, else None.

    A broken or hostile file's "two", "\u00b2" or 5,000-digit number reads as if the attribute were absent.
    """
    if value is None or not _DECIMAL.fullmatch(value.strip()):
        return None
    number = int(value)
    return number if low <= number <= high else None


class DocxPackage:
    """The parts of a Word document as parsed XML, checked before anything is inflated."""

    def __init__(self, data: bytes, name: str, limits: Limits | None = None) -> None:
        self.name = name
        self.limits = limits or Limits()
        self.paragraphs = 0  # w:p elements in the parts read so far, held to limits.max_paragraphs
        _refuse_non_zip(data, name)
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, ValueError, OSError) as exc:
            raise InputError(f"{name} is not a readable Word document (corrupt zip: {exc}); open it in Word and save it again") from None
        self._check_sizes(infos)
        self.names = {info.filename for info in infos}
        content_types = self.xml("[Content_Types].xml")
        if content_types is None:
            raise InputError(f"{name} is a zip archive but not a Word document (no [Content_Types].xml); give a .docx file")
        overrides = " ".join(content_types.xpath("//ct:Override/@ContentType|//ct:Default/@ContentType", namespaces={"ct": _CT}))
        if any(marker in overrides for marker in _MACRO_TYPES) or "word/vbaProject.bin" in self.names:
            raise InputError(f"{name} is a macro-enabled Word document (.docm); conflictkit does not open files with macros: "
                             "save a copy as .docx (Word: File > Save As > Word Document) and compare that")
        self.main = self._main_part()
        if "wordprocessingml" not in overrides:
            raise InputError(f"{name} is an Office file but not a Word document (a spreadsheet or presentation?); give a .docx file")

    def _check_sizes(self, infos: list[zipfile.ZipInfo]) -> None:
        total = sum(info.file_size for info in infos)
        for info in infos:
            if info.flag_bits & 0x1:
                raise InputError(f"{self.name} has encrypted parts; remove the password in Word and save it again")
            if info.file_size > 1_000_000 and info.compress_size and info.file_size / info.compress_size > MAX_RATIO:
                raise InputError(f"{self.name}: part {info.filename} inflates {info.file_size / info.compress_size:.0f}-fold "
                                 f"to {info.file_size / 1e6:.0f} MB (a zip bomb?); refusing to read it")
        if total > self.limits.max_unpacked_bytes:
            raise over_limit(self.name, f"parts that unpack to {size_text(total)}", "max_unpacked_bytes",
                             size_text(self.limits.max_unpacked_bytes), "split it or remove embedded media")

    def _main_part(self) -> str:
        rels = self.xml("_rels/.rels")
        if rels is not None:
            for rel in rels.iter(f"{{{_PKG_REL}}}Relationship"):
                if rel.get("Type") == _OFFICE_DOCUMENT:
                    return rel.get("Target", "").lstrip("/")
        if "word/document.xml" in self.names:
            return "word/document.xml"
        raise InputError(f"{self.name} is a zip archive but not a Word document (no main document part); give a .docx file")

    def xml(self, part: str):
        """The parsed root of ``part``, or None when the package has no such part."""
        if part not in self.names:
            return None
        try:
            with self.zip.open(part) as handle:
                # at most the declared size, which _check_sizes held to the limits (ZipFile.read would inflate up to
                # 2 GB of a part whose header lies before finding out); a part with more fails its CRC check
                raw = handle.read(self.zip.getinfo(part).file_size)
            # Word's own prefix, counted in the bytes before they are parsed (a 100 MB part is refused at ~0 MB)
            self._count_paragraphs(raw.count(b"<w:p>") + raw.count(b"<w:p "), before=True)
            root = etree.fromstring(raw, _PARSER)
        except etree.XMLSyntaxError as exc:
            raise InputError(f"{self.name}: part {part} is not well-formed XML ({exc}); open it in Word and save it again") from None
        except (zipfile.BadZipFile, OSError, EOFError) as exc:
            raise InputError(f"{self.name} is not a readable Word document (corrupt part {part}: {exc})") from None
        self._count_paragraphs(sum(1 for _ in root.iter(w("p"))))  # whatever the prefix
        return root

    def _count_paragraphs(self, count: int, before: bool = False) -> None:
        limit = self.limits.max_paragraphs
        if self.paragraphs + count > limit:
            raise over_limit(self.name, f"{'at least ' if before else ''}{self.paragraphs + count:,} paragraphs",
                             "max_paragraphs", f"{limit:,}")
        if not before:
            self.paragraphs += count

    def related(self, part: str, kind: str) -> list[str]:
        """Parts related to ``part`` by a relationship whose type ends in ``/kind`` (e.g. "footnotes")."""
        folder = PurePosixPath(part).parent
        rels = self.xml(str(folder / "_rels" / (PurePosixPath(part).name + ".rels")))
        if rels is None:
            return []
        targets = []
        for rel in rels.iter(f"{{{_PKG_REL}}}Relationship"):
            if rel.get("Type", "").endswith("/" + kind) and rel.get("TargetMode") != "External":
                target = rel.get("Target", "")
                path = target.lstrip("/") if target.startswith("/") else str(_resolve(folder, target))
                targets.append(path)
        return targets


def _resolve(folder: PurePosixPath, target: str) -> PurePosixPath:
    parts = list(folder.parts)
    for piece in target.split("/"):
        if piece == "..":
            parts = parts[:-1]
        elif piece not in ("", "."):
            parts.append(piece)
    return PurePosixPath(*parts)


def _refuse_non_zip(data: bytes, name: str) -> None:
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return
    if data.startswith(_CFB):
        if b"E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e" in data:
            raise InputError(f"{name} is password-protected (an encrypted Office file); remove the password in Word "
                             "(File > Info > Protect Document) and save it again")
        raise InputError(f"{name} is a legacy Word file (.doc), not .docx; open it in Word or LibreOffice and save it as .docx")
    kind = describe_binary(data)
    what = kind if kind is not None else "a text file"
    raise InputError(f"{name} is not a Word document: it looks like {what}; give a real .docx or rename it to its own extension")
