"""Helpers for receipts tests: real PNG bytes (zlib + struct), captures and a small recorded flow."""

from __future__ import annotations

import hashlib
import struct
import zlib

from receipts.interface import Capture
from receipts.recorder import JsonlRecorder

SECRET = "hunter2-Sup3r/S3cret&key"


def png(color: tuple[int, int, int], size: int = 4) -> bytes:
    """A valid size x size RGB PNG of one colour, built with zlib + struct (no imaging library)."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    row = b"\x00" + bytes(color) * size
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * size))
        + chunk(b"IEND", b"")
    )


def dom(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def cap(url: str, dom_text: str, color: tuple[int, int, int] | None = None, title: str = "Page") -> Capture:
    return Capture(url=url, title=title, dom_hash=dom(dom_text), screenshot=png(color) if color else None)


async def record_flow(rec: JsonlRecorder, actions: int = 4) -> None:
    """A small run: navigate, then clicks that each change the DOM, a gate, evidence and the end."""
    await rec.record_gate_decision(gate_id="gate_action", decision="ALLOW", step_id="s1", reason="user ok")
    for i in range(actions):
        await rec.record_action(
            step_id="s1",
            action={"kind": "click", "target": {"role": "button", "name": f"Next {i}"}},
            outcome={"status": "ok"},
            before=cap(f"http://127.0.0.1/p{i}", f"dom{i}", (i * 40 % 256, 10, 10)),
            after=cap(f"http://127.0.0.1/p{i + 1}", f"dom{i + 1}", (10, i * 40 % 256, 10)),
            duration_ms=12.5,
        )
    await rec.record_evidence(url="http://127.0.0.1/source", content="<html>facts</html>", title="Source")
