"""Reading documents: file -> :class:`~conflictkit.model.Document`, with one clear error per bad input.

A registered :class:`~conflictkit.stages.Loader` turns the file's bytes into the document text
(for Markdown and plain text, the file's text decoded as UTF-8, a leading byte-order mark dropped,
line endings kept; for HTML, DOCX and PDF, the text extracted from it): every offset conflictkit
reports indexes this text. The loader is picked by the file's extension, else by its content.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from conflictkit.errors import InputError, MissingDependencyError, plugin_install_hint
from conflictkit.model import Clause, Document, DocumentSource
from conflictkit.normalize import normalize
from conflictkit.stages import LoadedText, Loader, Revision

if TYPE_CHECKING:
    from conflictkit.config import Limits

# Formats that are not text: named so the message can say what to do instead.
_BINARY_SIGNATURES: dict[bytes, str] = {
    b"%PDF": "a PDF",
    b"PK\x03\x04": "a zip archive (a .docx, .xlsx or .odt?)",
    b"\xd0\xcf\x11\xe0": "a legacy Office file (.doc) or a password-protected Office file",
    b"{\\rtf": "an RTF file",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
}

# Formats read by plugin packages of this repository: a file of one of them without its plugin
# gets the install command, not a guess at its text.
PLUGIN_FORMATS: dict[str, tuple[str, str]] = {
    ".docx": ("Word documents", "conflictkit-docx"),
    ".docm": ("Word documents", "conflictkit-docx"),
    ".pdf": ("PDF files", "conflictkit-pdf"),
}


def plugin_extension(data: bytes) -> str | None:
    """The extension of a plugin format that ``data`` is in, by content (".pdf", ".docx"), else None."""
    if data.startswith(b"%PDF"):
        return ".pdf"
    if data.startswith(b"PK\x03\x04") and b"word/document.xml" in data:  # a zip's member names are stored in clear
        return ".docx"
    return None


def describe_binary(data: bytes) -> str | None:
    """What a file that is not text looks like ("a PDF", "binary data"...), or None for text.

    The NUL check covers the whole file (a bytes search, cheap); the control-character ratio a
    sample of its start.
    """
    for signature, kind in _BINARY_SIGNATURES.items():
        if data.startswith(signature):
            return kind
    wide = _wide_encoding(data)
    if wide:
        return f"{wide} text"
    if b"\x00" in data:
        return "binary data"
    sample = data[:8192]
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    if sample and controls / len(sample) > 0.1:
        return "binary data"
    return None


def _wide_encoding(data: bytes) -> str | None:
    """"UTF-32" or "UTF-16" for text in those encodings (by byte-order mark, else by where its NULs fall), else None.

    UTF-32's little-endian mark starts like UTF-16's (FF FE), so it is checked first; without a mark,
    mostly-ASCII text has a NUL in three of every four bytes (UTF-32) or in every other byte (UTF-16).
    """
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    sample = data[: 4096 - 4096 % 4]
    if len(sample) < 8 or b"\x00" not in sample:
        return None
    lanes = [sample[offset::4] for offset in range(4)]
    nul_at = [lane.count(0) / len(lane) for lane in lanes]

    def texty(lane: bytes) -> bool:  # the lane holding the characters: printable, not NUL
        return sum(1 for b in lane if b >= 32 or b in (9, 10, 13)) / len(lane) > 0.9

    for lane in range(4):  # three lanes nearly all NUL, the fourth text
        if all(nul_at[o] > 0.9 for o in range(4) if o != lane) and texty(lanes[lane]):
            return "UTF-32"
    for parity in range(2):
        if min(nul_at[1 - parity], nul_at[3 - parity]) > 0.9 and texty(sample[parity::2]):
            return "UTF-16"
    return None


def size_text(n: int) -> str:
    """A byte count as a person reads it: 512 bytes, 12.5 KB, 3.2 MB (decimal units)."""
    if n < 1000:
        return f"{n} byte{'s' if n != 1 else ''}"
    value, unit = (n / 1e6, "MB") if n >= 1_000_000 else (n / 1e3, "KB")
    return f"{value:.1f}".rstrip("0").rstrip(".") + f" {unit}"


def too_big_message(name: str, size: int, limit: int) -> str:
    shown, allowed = size_text(size), size_text(limit)
    if shown == allowed:  # just over: rounded, both would read the same
        shown, allowed = f"{size:,} bytes", f"{limit:,}-byte"
    return f"{name} is {shown}, over the {allowed} limit; split it, or raise limits.max_document_bytes in the config"


def decode_text(data: bytes, name: str) -> str:
    """The UTF-8 text of a text file (BOM dropped), or InputError saying what the file is instead."""
    kind = describe_binary(data)
    if kind in ("UTF-16 text", "UTF-32 text"):
        encoding = kind.split()[0]
        raise InputError(f"{name} is {kind}; convert it to UTF-8 (e.g. iconv -f {encoding} -t UTF-8)")
    if kind is not None:
        raise InputError(f"{name} looks like {kind}, not a text document; "
                         "give it its own extension (.pdf, .docx) or convert it to Markdown or plain text (.md, .txt)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it to UTF-8 (e.g. iconv -f WINDOWS-1252 -t UTF-8)"
        ) from None


def document_from_text(text: str, path: str = "<text>", data: bytes | None = None,
                       source: DocumentSource | None = None) -> Document:
    """Build a Document from text already decoded or extracted (tests, the engine's loaders)."""
    normalized = normalize(text)
    digest = hashlib.sha256(data if data is not None else text.encode("utf-8")).hexdigest()
    return Document(path=path, original=text, normalized=normalized.text, offsets=normalized.offsets, sha256=digest,
                    source=source)


def _loaders() -> list[type[Loader]]:
    from conflictkit.registry import get_registry

    return get_registry().loaders()


def _missing_plugin(name: str, extension: str) -> MissingDependencyError:
    what, package = PLUGIN_FORMATS[extension]
    return MissingDependencyError(
        f"{name}: reading {what} needs the {package} plugin: {plugin_install_hint(package)}"
    )


def accepted_extensions() -> list[str]:
    """Every file extension a registered loader reads (the web app's upload form offers them)."""
    return sorted({extension for cls in _loaders() for extension in cls.extensions})


def loader_for(name: str, data: bytes, loaders: list[type[Loader]] | None = None) -> type[Loader]:
    """The loader of a file: the one claiming its extension, else the first whose sniff matches.

    A known format without its plugin raises the install command; anything else falls back to the
    plain-text loader, which says what the file is when it is not text.
    """
    loaders = _loaders() if loaders is None else loaders
    extension = PurePath(name).suffix.lower()
    for cls in loaders:
        if extension and extension in cls.extensions:
            return cls
    if extension in PLUGIN_FORMATS:
        raise _missing_plugin(name, extension)
    for cls in loaders:
        if cls.sniff(data):
            return cls
    sniffed = plugin_extension(data)
    if sniffed is not None:
        raise _missing_plugin(name, sniffed)
    text_loaders = [cls for cls in loaders if cls.name == "text"]
    if not text_loaders:
        raise InputError(f"{name}: no loader reads this file; check `conflictkit backends`")
    return text_loaders[0]


def _limits(limits: Limits | int | None) -> Limits:
    from conflictkit.config import Limits

    if limits is None:
        return Limits()
    return Limits(max_document_bytes=limits) if isinstance(limits, int) else limits


def document_from_bytes(data: bytes, name: str, limits: Limits | int | None = None,
                        revision: Revision = "accepted") -> Document:
    """Check a document's bytes and read them with its loader; raise InputError saying what is wrong and what to do.

    ``limits`` are the budgets the loader holds (the config's ``limits:``; an int is ``max_document_bytes``).
    """
    limits = _limits(limits)
    if len(data) > limits.max_document_bytes:
        raise InputError(too_big_message(name, len(data), limits.max_document_bytes))
    cls = loader_for(name, data)
    if revision != "accepted" and not cls.reads_revisions:
        raise InputError(f"{name}: --revisions needs a file with tracked changes (.docx); {cls.name} files have none")
    loader = cls()
    loader.use_limits(limits)
    loader.warm_up()
    loaded: LoadedText = loader.load(data, name, revision)
    if not loaded.text.strip():
        raise InputError(f"{name} is empty (no text to compare)")
    document = document_from_text(loaded.text, name, data, loaded.source)
    if loaded.source.format not in ("text", "markdown"):
        document.data = data
    return document


def read_document(path: str | os.PathLike[str], limits: Limits | int | None = None,
                  revision: Revision = "accepted") -> Document:
    """Read a document from disk with the loader of its format (Markdown, text, HTML, and the plugins').

    ``limits`` as for :func:`document_from_bytes`.
    """
    limits = _limits(limits)
    max_bytes = limits.max_document_bytes
    file = Path(path)
    try:
        exists = file.exists()
    except PermissionError:  # a folder on the way that may not be searched
        raise InputError(f"{path}: permission denied; check the permissions of the file and its folders") from None
    if not exists:
        raise InputError(f"{path}: no such file")
    if file.is_dir():
        raise InputError(f"{path} is a directory; give a document file (.md, .txt, .html, .docx, .pdf)")
    if not file.is_file():
        raise InputError(f"{path} is not a regular file")
    try:
        size = file.stat().st_size
        if size > max_bytes:
            raise InputError(too_big_message(str(path), size, max_bytes))
        data = file.read_bytes()
    except PermissionError:
        raise InputError(f"{path}: permission denied; check the file's permissions") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return document_from_bytes(data, str(path), limits, revision)


def flag_non_operative(clauses: list[Clause], document: Document) -> list[Clause]:
    """Flag the clauses that lie in footnotes, running headers or footers of the source file."""
    if document.source is None or all(b.role == "body" for b in document.source.blocks):
        return clauses
    flagged = []
    for clause in clauses:
        role = document.source.role_at(clause.span.start, clause.span.end)
        flagged.append(clause if role == "body" or clause.filtered else clause.model_copy(update={"filtered": role}))
    return flagged
