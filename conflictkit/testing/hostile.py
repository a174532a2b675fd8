"""Hostile inputs, generated: what a loader, a segmenter or a judge must survive within its limits.

Files are built by code, never committed: a deflate bomb of any size in a second or two, plain text
that is one endless line, one paragraph of a whole contract, or tens of thousands of numbered
one-liners. The format plugins build their own on these (``conflictkit_pdf.testing``,
``conflictkit_docx.testing``); plugin authors can test their loaders against the same.
"""

from __future__ import annotations

import random
import struct
import zlib

_BLOCK = 1 << 20

# Sentences of the kind contracts are made of, recombined at random: text that reads like a contract
# to every stage (modal verbs, numbers, parties) without being anyone's contract.
_SUBJECTS = ("The Supplier", "The Customer", "Each party", "The Licensee", "Neither party", "The Provider")
_VERBS = ("shall deliver", "shall pay", "may terminate", "shall not disclose", "must notify", "shall indemnify")
_OBJECTS = ("the Goods", "each invoice", "this Agreement", "the Confidential Information", "the other party", "all claims")
_TAILS = ("within {n} days of receipt", "by written notice of {n} days", "except as required by law",
          "at its own cost", "in accordance with Schedule {n}", "for a period of {n} months")


def deflate_bomb(unpacked: int, raw: bool = False, unit: bytes = b"q Q\n") -> tuple[bytes, int]:
    """A deflate stream that inflates to ``unpacked`` bytes (rounded up to a MiB) of ``unit`` repeated,
    and the checksum of what it inflates to: Adler-32 with the zlib wrapper, CRC-32 without (``raw``,
    as zip members are stored). A 2 GB bomb is about 2 MB, built in a second or two.

    One MiB is compressed once and its compressed form repeated: each copy ends in a full flush,
    which resets the compressor, so every copy after the first is the same bytes.
    """
    block = (unit * (_BLOCK // len(unit) + 1))[:_BLOCK]
    copies = max(1, -(-unpacked // _BLOCK))
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15 if raw else 15)
    first = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    ending = compressor.flush()  # the empty final block (and, with the wrapper, a checksum of three copies: replaced)
    checksum = 0 if raw else 1
    for _ in range(copies):
        checksum = zlib.crc32(block, checksum) if raw else zlib.adler32(block, checksum)
    if raw:
        return first + repeated * (copies - 1) + ending, checksum
    return first + repeated * (copies - 1) + ending[:-4] + checksum.to_bytes(4, "big"), checksum


def zip_archive(members: dict[str, bytes], bombs: dict[str, int] | None = None, declared: int | None = None) -> bytes:
    """A zip of ``members`` (deflated), plus a deflate bomb for each name in ``bombs`` (name: bytes it
    inflates to). ``declared`` makes each bomb's headers claim that size instead: a reader that trusts
    the header is told a small part and handed a large one."""
    entries = [(name, zlib.compress(data, 9)[2:-4], zlib.crc32(data), len(data), len(data)) for name, data in members.items()]
    for name, unpacked in (bombs or {}).items():
        stream, crc = deflate_bomb(unpacked, raw=True)
        size = -(-unpacked // _BLOCK) * _BLOCK
        entries.append((name, stream, crc, size, size if declared is None else declared))
    out, central = bytearray(), bytearray()
    for name, stream, crc, _, claimed in entries:
        encoded = name.encode()
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0, crc, len(stream), claimed,
                               len(encoded), 0, 0, 0, 0, 0, len(out)) + encoded
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(stream), claimed, len(encoded), 0)
        out += encoded + stream
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(out), 0)
    return bytes(out + central + end)


def contract_sentences(count: int, seed: int = 0) -> list[str]:
    """``count`` contract-like sentences, the same for the same seed."""
    rng = random.Random(seed)
    return [f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} "
            f"{rng.choice(_TAILS).format(n=rng.randint(2, 90))}." for _ in range(count)]


def one_line(size: int, seed: int = 0) -> str:
    """A document that is one line of ``size`` characters: sentences with no line break anywhere."""
    sentences = contract_sentences(size // 40 + 1, seed)
    return " ".join(sentences)[:size]


def one_paragraph(size: int, width: int = 78, seed: int = 0) -> str:
    """A contract with no blank line and no numbering, wrapped at ``width``: one paragraph of ``size`` characters."""
    import textwrap

    return textwrap.fill(one_line(size, seed), width) + "\n"


def numbered_one_liners(count: int, changed_every: int = 0) -> str:
    """``count`` numbered clauses of one line each ("1. The Supplier shall ..."); with ``changed_every``,
    every n-th clause's period doubled, so two calls make a lightly edited pair."""
    lines = []
    for number in range(1, count + 1):
        days = number % 90 + 1
        if changed_every and number % changed_every == 0:
            days *= 2
        lines.append(f"{number}. The Supplier shall deliver item {number} within {days} days.\n")
    return "".join(lines)
