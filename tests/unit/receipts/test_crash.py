"""A writer process killed mid-run leaves every record it wrote readable and verifiable."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from receipts.recorder import JsonlRecorder
from receipts.verify import verify

ROOT = Path(__file__).resolve().parents[3]

WRITER = """
import asyncio, sys
from receipts.recorder import JsonlRecorder
from tests.unit.receipts._helpers import cap

async def main(run_dir: str) -> None:
    rec = await JsonlRecorder.open(run_dir)
    i = 0
    while True:  # until killed
        i += 1
        await rec.record_action(
            action={"kind": "click", "target": {"text": f"Item {i}"}}, outcome={"status": "ok"},
            before=cap(f"http://h/{i}", f"b{i}", (i % 256, 0, 0)),
            after=cap(f"http://h/{i}", f"a{i}", (0, i % 256, 0)),
        )
        await rec.record_note("x" * 4000)  # long lines widen the window for a kill mid-write
        print(rec.seq, flush=True)

asyncio.run(main(sys.argv[1]))
"""


async def _finish(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir)
    await rec.finish("FAILED", reason="writer crashed")


def test_sigkill_mid_run_leaves_a_verifiable_prefix(tmp_path: Path) -> None:
    run_dir = tmp_path / "run_crash"
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(run_dir)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    acknowledged = 0
    for line in child.stdout:
        acknowledged = int(line)
        if acknowledged >= 40:
            break
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL

    report = verify(run_dir)
    assert report.ok, report.summary()
    assert report.records_checked >= acknowledged  # every record reported written is there
    assert report.first_bad is None

    # The run can be continued: a cut tail is moved aside and the chain goes on.
    asyncio.run(_finish(run_dir))
    after = verify(run_dir)
    assert after.ok and after.truncated is None and after.finished
    assert after.records_checked >= report.records_checked + 1
