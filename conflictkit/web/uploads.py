"""Uploaded files -> documents: one file each, or a .zip of many (a batch against one reference).

Names are for display only (the last path component); nothing is ever written to disk. A zip is
checked before it is read: member count, declared sizes (a zip bomb is refused), no encryption.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import PurePosixPath

from conflictkit.config import Limits
from conflictkit.errors import InputError
from conflictkit.loaders import document_from_bytes
from conflictkit.model import Document

MAX_NAME = 200
MAX_BATCH = 200  # documents in one batch upload
ZIP_EXPANSION = 10  # a zip may unpack to at most this many times the upload limit


def display_name(filename: str, fallback: str) -> str:
    return PurePosixPath(filename.replace("\\", "/")).name[:MAX_NAME] or fallback


def documents_from_upload(filename: str, data: bytes, limits: Limits, max_bytes: int) -> list[Document]:
    """The documents of one uploaded file: itself, or every document inside a .zip, read within ``limits``."""
    name = display_name(filename, "upload")
    if not name.lower().endswith(".zip"):
        return [document_from_bytes(data, name, limits)]
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if _is_document(m)]
    except zipfile.BadZipFile:
        raise InputError(f"{name} is not a readable zip file; upload the documents themselves or a valid .zip") from None
    if not members:
        raise InputError(f"{name} holds no documents")
    if len(members) > MAX_BATCH:
        raise InputError(f"{name} holds {len(members)} documents; upload at most {MAX_BATCH} at a time")
    if sum(m.file_size for m in members) > ZIP_EXPANSION * max_bytes:
        raise InputError(f"{name} unpacks to {sum(m.file_size for m in members) / 1e6:.1f} MB, too much for one upload; split it")
    documents = []
    for member in members:
        if member.flag_bits & 0x1:
            raise InputError(f"{name}: {member.filename} is encrypted; upload an unencrypted zip")
        with archive.open(member) as handle:
            content = handle.read(limits.max_document_bytes + 1)  # the declared size can lie: never read past the limit
        documents.append(document_from_bytes(content, display_name(member.filename, "document"), limits))
    return documents


def _is_document(member: zipfile.ZipInfo) -> bool:
    parts = PurePosixPath(member.filename).parts
    return not member.is_dir() and not any(p.startswith(".") or p == "__MACOSX" for p in parts)


def stored_bytes(document: Document) -> bytes:
    """What a job keeps of an uploaded document: the file's own bytes where the loader kept them
    (DOCX, PDF), else its text."""
    return document.data if document.data is not None else document.original.encode("utf-8")
