"""Reading documents: file -> :class:`~conflictkit.model.Document`, with one clear error per bad input.

The original text is the file's bytes decoded as UTF-8 (a leading byte-order mark is dropped) with
line endings kept as they are: every offset conflictkit reports indexes this text.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from conflictkit.errors import InputError
from conflictkit.model import Document
from conflictkit.normalize import normalize

DEFAULT_MAX_BYTES = 20_000_000

# Formats that are not text: named so the message can say what to do instead.
_BINARY_SIGNATURES: dict[bytes, str] = {
    b"%PDF": "a PDF",
    b"PK\x03\x04": "a zip archive (a .docx, .xlsx or .odt?)",
    b"\xd0\xcf\x11\xe0": "a legacy Office file (.doc)",
    b"{\\rtf": "an RTF file",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
}


def _describe_binary(data: bytes) -> str | None:
    for signature, kind in _BINARY_SIGNATURES.items():
        if data.startswith(signature):
            return kind
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 text"
    sample = data[:8192]
    if b"\x00" in sample:
        return "binary data"
    controls = sum(1 for b in sample if b < 32 and b not in (9, 10, 12, 13))
    if sample and controls / len(sample) > 0.1:
        return "binary data"
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


def document_from_text(text: str, path: str = "<text>", data: bytes | None = None) -> Document:
    """Build a Document from text already decoded (tests, uploads, the web app)."""
    normalized = normalize(text)
    digest = hashlib.sha256(data if data is not None else text.encode("utf-8")).hexdigest()
    return Document(path=path, original=text, normalized=normalized.text, offsets=normalized.offsets, sha256=digest)


def document_from_bytes(data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """Decode and check a document's bytes; raise InputError saying what is wrong and what to do."""
    if len(data) > max_bytes:
        raise InputError(too_big_message(name, len(data), max_bytes))
    kind = _describe_binary(data)
    if kind == "UTF-16 text":
        raise InputError(f"{name} is UTF-16 text; convert it to UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)")
    if kind is not None:
        raise InputError(f"{name} looks like {kind}, not a text document; convert it to Markdown or plain text (.md, .txt)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{name} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "convert it to UTF-8 (e.g. iconv -f WINDOWS-1252 -t UTF-8)"
        ) from None
    if not text.strip():
        raise InputError(f"{name} is empty (no text to compare)")
    return document_from_text(text, name, data)


def read_document(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    """Read a Markdown or plain-text document from disk."""
    file = Path(path)
    if not file.exists():
        raise InputError(f"{path}: no such file")
    if file.is_dir():
        raise InputError(f"{path} is a directory; give a document file (.md or .txt)")
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
    return document_from_bytes(data, str(path), max_bytes)
