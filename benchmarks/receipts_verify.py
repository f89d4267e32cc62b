"""Receipts cost figures: record_action latency, verify and report export time for a long run.

Run: .venv/bin/python -m benchmarks.receipts_verify [--actions 500]
Figures, not pass/fail: these machines are noisy, so medians over many actions are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import statistics
import struct
import tempfile
import time
import zlib
from pathlib import Path

from receipts.interface import Capture
from receipts.recorder import JsonlRecorder
from receipts.report import export_report
from receipts.verify import verify


def noisy_png(seed: int, width: int = 160, height: int = 100) -> bytes:
    """A valid PNG of pseudo-random pixels (about 48 KB): compresses like a busy screenshot."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    rows = b"".join(
        b"\x00" + hashlib.shake_128(f"{seed}:{y}".encode()).digest(width * 3) for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 1))
        + chunk(b"IEND", b"")
    )


def dom_hash(state: int) -> str:
    return hashlib.sha256(b"%d" % state).hexdigest()


async def record_run(run_dir: Path, actions: int, *, fsync: bool, reuse: bool) -> list[float]:
    shots = [noisy_png(i) for i in range(8)]
    rec = await JsonlRecorder.open(run_dir, fsync=fsync)
    timings: list[float] = []
    for i in range(actions):
        state = i if reuse else i * 2
        before = Capture(
            f"http://127.0.0.1/{state}", "Page", hashlib.sha256(b"%d" % state).hexdigest(), shots[i % 8]
        )
        after = Capture(
            f"http://127.0.0.1/{i + 1}",
            "Page",
            hashlib.sha256(b"%d" % (i + 1)).hexdigest(),
            shots[(i + 3) % 8],
        )
        start = time.perf_counter()
        await rec.record_action(
            action={"kind": "click", "target": {"role": "button", "name": f"Next {i}"}},
            outcome={"status": "ok"}, before=before, after=after, step_id="s1", duration_ms=60.0,
        )  # fmt: skip
        timings.append((time.perf_counter() - start) * 1000)
    await rec.finish("SUCCESS")
    return timings


async def main(actions: int) -> None:
    print(f"{actions} actions, 2 screenshots of {len(noisy_png(0)) // 1024} KB each offered per action")
    with tempfile.TemporaryDirectory() as tmp:
        for fsync in (True, False):
            for reuse in (False, True):
                run_dir = Path(tmp) / f"run_{int(fsync)}{int(reuse)}"
                timings = await record_run(run_dir, actions, fsync=fsync, reuse=reuse)
                files = len(os.listdir(run_dir / "shots"))
                median, p95 = statistics.median(timings), sorted(timings)[int(len(timings) * 0.95)]
                print(
                    f"record_action fsync={fsync!s:5} reuse={reuse!s:5}: median {median:6.2f} ms"
                    f"  p95 {p95:6.2f} ms  shots written {files}"
                )
        run_dir = Path(tmp) / "run_11"
        start = time.perf_counter()
        report = verify(run_dir)
        verify_ms = (time.perf_counter() - start) * 1000
        checked = f"{report.records_checked} records, {report.files_checked} file refs"
        print(f"verify: {checked} in {verify_ms:.0f} ms")
        start = time.perf_counter()
        out = export_report(run_dir)
        export_ms = (time.perf_counter() - start) * 1000
        print(f"export_report: {out.stat().st_size // 1024} KB in {export_ms:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=300)
    asyncio.run(main(parser.parse_args().actions))
