"""compact_png: fewer bytes, the same pixels (checked with Qt's own PNG decoder), or the input as is."""

from __future__ import annotations

import struct
import zlib

import pytest
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from receipts.png import compact_png


@pytest.fixture(autouse=True)
def _painting(qapp: QApplication) -> None:
    """QPainter draws text only with an application object."""


def chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def picture(width: int, height: int, channels: int = 3) -> list[bytes]:
    """Rows of a page-like picture drawn by Qt: a white page, a coloured bar, lines of text."""
    image = QImage(width, height, QImage.Format.Format_RGBA8888)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.fillRect(0, 0, width, 24, QColor("#2b5797"))
    painter.setPen(QColor("#222222"))
    for n, y in enumerate(range(40, height - 8, 18)):
        painter.drawText(8, y, f"Line {n}: an order of {n * 3} items, shipped on the {n + 1}th")
    painter.end()
    raw = bytes(image.constBits())
    stride = image.bytesPerLine()
    rows = [raw[y * stride : y * stride + width * 4] for y in range(height)]
    if channels == 4:
        return rows
    return [b"".join(row[x : x + 3] for x in range(0, len(row), 4)) for row in rows]


def encode(rows: list[bytes], filters: list[int], channels: int = 3, level: int = 1) -> bytes:
    """A PNG whose row r is filtered with filters[r] (0 None, 2 Up, 4 Paeth written as Up's bytes)."""
    width = len(rows[0]) // channels
    out = bytearray()
    above = bytes(len(rows[0]))
    for row, kind in zip(rows, filters, strict=True):
        body = bytes((a - b) % 256 for a, b in zip(row, above, strict=True)) if kind in (2, 4) else row
        out += bytes([kind]) + body
        above = row
    colour = {3: 2, 4: 6}[channels]
    header = struct.pack(">IIBBBBB", width, len(rows), 8, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(out), level))
        + (chunk(b"tEXt", b"Software\x00test") + chunk(b"IEND", b""))
    )


def pixels(data: bytes) -> QImage:
    image = QImage.fromData(data)
    assert not image.isNull()
    return image.convertToFormat(QImage.Format.Format_RGBA8888)


@pytest.mark.parametrize("channels", [3, 4])
def test_an_up_filtered_fast_picture_gets_smaller_with_the_same_pixels(channels: int) -> None:
    rows = picture(160, 96, channels)
    fast = encode(rows, [2] * len(rows), channels)  # how Chromium's fast screenshot writes it
    small = compact_png(fast)
    assert len(small) < len(fast)
    assert pixels(small) == pixels(fast) and pixels(small).size() == pixels(fast).size()
    assert b"tEXt" in small  # every other chunk kept
    assert compact_png(small) == small or len(compact_png(small)) < len(small)  # idempotent in effect


def test_rows_filtered_none_and_up_mixed_keep_their_pixels() -> None:
    rows = picture(64, 40)
    mixed = encode(rows, [0 if y % 3 else 2 for y in range(len(rows))])
    assert pixels(compact_png(mixed)) == pixels(mixed)


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-30],  # cut short
        lambda data: b"GIF89a" + data[6:],  # not a PNG
        lambda data: data.replace(b"IDAT", b"IDAX"),  # no pixel data
        lambda data: data[:41] + bytes([data[41] ^ 0xFF]) + data[42:],  # broken deflate stream
    ],
)
def test_anything_malformed_is_stored_as_it_came(damage: object) -> None:
    fast = encode(picture(32, 16), [2] * 16)
    broken = damage(fast)  # type: ignore[operator]
    assert compact_png(broken) is broken


def test_a_filter_it_does_not_undo_leaves_the_picture_as_it_came() -> None:
    rows = picture(32, 16)
    paeth = encode(rows, [2] * 8 + [4] + [2] * 7)
    assert compact_png(paeth) is paeth


def test_interlaced_or_sixteen_bit_pictures_are_left_alone() -> None:
    fast = encode(picture(32, 16), [2] * 16)
    header = bytearray(fast[16:29])
    for offset, value in ((8, 16), (12, 1)):  # bit depth 16; interlace method 1
        changed = bytearray(header)
        changed[offset] = value
        data = fast[:8] + chunk(b"IHDR", bytes(changed)) + fast[33:]
        assert compact_png(data) is data
