"""What a PDF would cost to read, measured before PDFium reads it: the bytes its streams unpack to.

PDFium inflates a page's content streams, fonts and object streams in full when it loads a page, and
has no ceiling of its own: a 300 KB file whose one content stream inflates to 3 GB (a Flate bomb) takes
that much memory. So every Flate stream of the file is inflated here first, a chunk at a time and
thrown away, and the file is refused once their total passes ``limits.max_unpacked_bytes``, at a cost
of a few megabytes whatever the file claims.

Every stream counts, images too: PDFium reads a page's contents whatever their dictionary says, so a
stream's dictionary (``/Subtype /Image``, no ``/Filter``) cannot be trusted to say which ones it will
inflate. Streams are found by their ``stream`` keyword, not through the cross-reference table, so a
broken table hides none; data that does not inflate as zlib (JPEG, another filter first, encryption)
is left to PDFium.
"""

from __future__ import annotations

import re
import zlib

from conflictkit.errors import LimitError
from conflictkit.loaders import size_text

_STREAM = re.compile(rb"(?<!end)stream(?:\r\n|\n|\r)")
_CHUNK = 1 << 20  # compressed bytes fed, and inflated bytes taken, at a time


def unpacked_bytes(data: bytes, limit: int) -> int:
    """The total the zlib streams of ``data`` inflate to, counted up to just past ``limit``."""
    total = 0
    for match in _STREAM.finditer(data):
        total += _inflated_size(data, match.end(), limit - total + 1)
        if total > limit:
            break
    return total


def check_unpacked(data: bytes, name: str, limit: int) -> None:
    """Refuse ``data`` in one line when its streams unpack to more than ``limit`` bytes."""
    if unpacked_bytes(data, limit) > limit:
        raise LimitError(f"{name} has streams that unpack to more than the limit of {size_text(limit)} (a Flate bomb?); "
                         "it was not read: export it again, or raise limits.max_unpacked_bytes in the config")


def _inflated_size(data: bytes, start: int, cap: int) -> int:
    """How many bytes the zlib stream at ``data[start:]`` inflates to, counting no further than ``cap``."""
    inflater = zlib.decompressobj()
    size, position = 0, start
    try:
        while position < len(data) and not inflater.eof and size < cap:
            size += len(inflater.decompress(data[position:position + _CHUNK], _CHUNK))
            position += _CHUNK
            while inflater.unconsumed_tail and not inflater.eof and size < cap:  # the chunk inflates to more than one
                size += len(inflater.decompress(inflater.unconsumed_tail, _CHUNK))
    except zlib.error:
        pass  # not plain Flate data here (encrypted, another filter first): PDFium's to judge
    return size
