"""Smaller screenshot files, same pixels: a PNG re-deflated before the recorder stores it.

Chromium's fast screenshots (browser/capture.py, `optimizeForSpeed`) filter every row with PNG's
"Up" filter and deflate at a fast setting: cheap for the browser, 1.5-2.5 times the bytes. Pages are
mostly flat colour, which deflate compresses best unfiltered, so a stored picture is decoded back to
its pixel rows (Up undone a whole row at a time, the row as one big integer) and deflated again,
unfiltered, at level 6: about a third fewer bytes for 20-30 ms of CPU on a 1280x800 picture, run off
the event loop.

Lossless by construction: only the IDAT stream changes; the header, every other chunk and every pixel
stay. A picture this does not fully understand (not 8-bit RGB or RGBA, interlaced, a row filtered
other than None or Up, anything malformed) is stored exactly as it came, as is a result that would
not be smaller.
"""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 6: 4}  # colour type -> bytes per pixel at bit depth 8 (RGB, RGBA)
_NONE, _UP = 0, 2
#: Most bytes a picture may inflate to (a 4K RGBA viewport is 33 MB); larger ones are kept as they are.
MAX_RAW = 64 * 1024 * 1024
LEVEL = 6


class _Unusual(Exception):
    """The picture is not one this module re-deflates."""


def compact_png(data: bytes) -> bytes:
    """`data` with the same pixels in fewer bytes, or `data` itself."""
    try:
        smaller = _recompressed(data)
    except (_Unusual, zlib.error, struct.error, ValueError):
        return data
    return smaller if len(smaller) < len(data) else data


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    if not data.startswith(SIGNATURE):
        raise _Unusual("not a PNG")
    chunks, at = [], len(SIGNATURE)
    while at < len(data):
        (size,) = struct.unpack_from(">I", data, at)
        tag, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + size]
        if len(body) != size or at + 12 + size > len(data):
            raise _Unusual("cut short")
        chunks.append((tag, body))
        at += 12 + size
        if tag == b"IEND":
            break
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        raise _Unusual("no header or end")
    return chunks


def _recompressed(data: bytes) -> bytes:
    chunks = _chunks(data)
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or colour not in _CHANNELS or interlace != 0 or width == 0 or height == 0:
        raise _Unusual("not 8-bit RGB(A), or interlaced")
    stride = width * _CHANNELS[colour]
    if (stride + 1) * height > MAX_RAW:
        raise _Unusual("too large")
    inflater = zlib.decompressobj()
    rows = inflater.decompress(b"".join(body for tag, body in chunks if tag == b"IDAT"), MAX_RAW + 1)
    if len(rows) != (stride + 1) * height or not inflater.eof:
        raise _Unusual("pixel data of the wrong size")
    plain = _unfiltered(rows, stride, height)
    deflater = zlib.compressobj(LEVEL, zlib.DEFLATED, 15, 9)
    idat = deflater.compress(plain) + deflater.flush()
    out = [SIGNATURE]
    wrote_idat = False
    for tag, body in chunks:
        if tag == b"IDAT":
            if not wrote_idat:
                out.append(_chunk(b"IDAT", idat))
                wrote_idat = True
            continue
        out.append(_chunk(tag, body))
    return b"".join(out)


def _unfiltered(rows: bytes, stride: int, height: int) -> bytes:
    """Rows filtered None or Up, as rows filtered None. Up adds the byte above, modulo 256: done for a
    whole row at once on integers, the top bit of each byte added apart so no carry crosses bytes."""
    high = int.from_bytes(b"\x80" * stride, "big")
    low = int.from_bytes(b"\x7f" * stride, "big")
    out = bytearray()
    above = 0
    for r in range(height):
        start = r * (stride + 1)
        kind = rows[start]
        row = int.from_bytes(rows[start + 1 : start + 1 + stride], "big")
        if kind == _UP:
            row = ((row & low) + (above & low)) ^ ((row ^ above) & high)
        elif kind != _NONE:
            raise _Unusual(f"row {r} uses filter {kind}")
        above = row
        out.append(_NONE)
        out += row.to_bytes(stride, "big")
    return bytes(out)


def _chunk(tag: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
