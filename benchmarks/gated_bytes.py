"""Bytes per gated step: what a run folder holds, by folder, after N actions that each asked a person.

One ACT step of N listed clicks on a page whose "Send" button is a form submit (so every click is
judged a submit and asks at the gate desk's door: the look with its marked element, then the
answer), run through ActLoop with a real headless Chromium and a real JsonlRecorder, as a gated run
does. Each click changes the page (a counter), so each action needs an after-picture of its own.
The asker answers at once and records the decision, as the desk does. The folder is then verified
(receipts/verify.py) and measured: bytes and files per top-level folder, divided by N. A file with
several names (a gate picture that is a link to a receipt's shot) is counted once, under the first
folder met in the order printed, as `du` counts it.

    .venv/bin/python -m benchmarks.gated_bytes [--sizes 100 1000 10000] [--keep DIR]

Each size is one run; its wall seconds and this process's CPU per step (the recorder's threads
included, not the browser's) are printed with it. 10,000 steps take about as long as 10,000 gated
clicks in a browser: tens of minutes on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser.driver import PlaywrightDriver
from browser.models import Action, parse_action
from executor.act.guards import LoopLimits
from executor.act.loop import ActLoop, LoopSpec
from executor.act.perform import ActEnv
from executor.act.progress import StepProgress
from executor.gates.desk import ActionGate, Allowed, Cleared
from executor.journal.views import receipts_journal
from executor.models import Approval, GateDecisionV1, GateVerdict
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.recorder import JsonlRecorder
from receipts.report import read_records
from receipts.verify import verify
from tests.support.site import FixtureSite

PAGE = """<!doctype html><html><head><title>Orders</title><style>
body{font:15px sans-serif;margin:24px;color:#222} table{border-collapse:collapse;margin:12px 0}
td,th{border:1px solid #bbb;padding:4px 10px} th{background:#eef} #sent{color:#063;font-weight:bold}
</style></head><body><h1>Order desk</h1><p>Each press of Send sends the note below again.</p>
<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>{rows}</table>
<form id="f" action="/send" method="post"><label>Note <input name="note" value="weekly order"></label>
<button type="submit">Send</button></form><p id="sent">Sent 0 times</p>
<script>let n=0;document.getElementById('f').addEventListener('submit',e=>{e.preventDefault();
n+=1;document.getElementById('sent').textContent='Sent '+n+' times';});</script></body></html>"""
ROWS = "".join(f"<tr><td>Item {i}</td><td>{i % 7 + 1}</td><td>{i * 3.25:.2f}</td></tr>" for i in range(12))
FOLDERS = ("receipts.jsonl", "shots", "snapshots", "gates", "other")


def actions(n: int) -> list[Action]:
    return [parse_action({"kind": "click", "target": {"role": "button", "name": "Send"}}) for _ in range(n)]


def asker(recorder: JsonlRecorder, run_id: str, step_id: str) -> object:
    async def ask(question: ActionGate) -> Cleared:
        gate_id = f"gate_action:{question.risk}:{question.n}"
        await recorder.record_gate_decision(gate_id=gate_id, decision="ALLOW", step_id=step_id,
                                            gate_kind=question.risk)  # fmt: skip
        decision = GateDecisionV1(gate_id=gate_id, decision=GateVerdict.NEED_CONFIRM, reason=question.reason,
                                  step_id=step_id, run_id=run_id, gate_kind=question.risk)  # fmt: skip
        approval = Approval(run_id=run_id, gate_id=gate_id, step_id=step_id, approved=True)
        return Allowed(decision, approval)

    return ask


def by_folder(root: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Bytes and files per top-level folder, each inode once (a linked file under its first folder)."""
    seen: set[tuple[int, int]] = set()
    size: dict[str, int] = defaultdict(int)
    files: dict[str, int] = defaultdict(int)
    paths = sorted(p for p in root.rglob("*") if p.is_file())
    rank = {name: i for i, name in enumerate(FOLDERS)}
    top = {p: p.relative_to(root).parts[0] for p in paths}
    for path in sorted(paths, key=lambda p: (rank.get(top[p], len(FOLDERS)), str(p))):
        folder = top[path] if top[path] in rank else "other"
        files[folder] += 1
        stat = path.stat()
        if (stat.st_dev, stat.st_ino) in seen:
            continue
        seen.add((stat.st_dev, stat.st_ino))
        size[folder] += stat.st_size
    return size, files


async def one_run(driver: PlaywrightDriver, url: str, folder: Path, n: int) -> tuple[float, float]:
    """Wall seconds and this process's CPU seconds (every thread: the recorder's too) for n steps."""
    recorder = await JsonlRecorder.open(folder, fsync=False)
    journal = receipts_journal(folder.name, recorder)
    env = ActEnv(
        driver=driver, recorder=recorder, journal=journal, run_id=folder.name, step_id="s1", run_dir=folder
    )
    limits = LoopLimits(max_actions=n + 2)
    ask = asker(recorder, folder.name, "s1")
    loop = ActLoop(env, LoopSpec(url=url, actions=actions(n)), gate=None, progress=StepProgress(),
                   limits=limits, clear_action=ask)  # type: ignore[arg-type]  # fmt: skip
    started, cpu = time.perf_counter(), time.process_time()
    result = await loop.run()
    await recorder.finish("SUCCESS", final_state=await driver.capture(screenshot=True))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert result.success, result.summary
    records = [r for _, r in read_records(RunFolder(folder))]
    done = sum(isinstance(r, ActionRecord) and r.outcome.status == "ok" for r in records)
    assert done == n + 1, f"{done} actions of {n + 1}"  # the navigation and every click
    report = verify(folder)
    assert report.ok, report.summary()
    return seconds, cpu


async def measure(driver: PlaywrightDriver, url: str, runs: Path, sizes: list[int]) -> None:
    print("bytes per gated step by folder (files per step in brackets); each run verified")
    head = " ".join(f"{f:>15}" for f in FOLDERS)
    print(f"{'steps':>6} {'seconds':>8} {'cpu ms/step':>11} {head} {'total B/step':>13}")
    for n in sizes:
        folder = runs / f"run_{n}"
        seconds, cpu = await one_run(driver, url, folder, n)
        size, files = by_folder(folder)
        cells = " ".join(f"{size[f] / n:>8.0f} ({files[f] / n:>4.2f})" for f in FOLDERS)
        total = sum(size.values()) / n
        print(f"{n:>6} {seconds:>8.1f} {cpu / n * 1000:>11.1f} {cells} {total:>13.0f}", flush=True)


async def main(sizes: list[int], keep: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        site_dir = Path(tmp) / "site"
        site_dir.mkdir()
        (site_dir / "orders.html").write_text(PAGE.replace("{rows}", ROWS), encoding="utf-8")
        with FixtureSite(root=site_dir) as site:
            driver = await PlaywrightDriver.launch()
            try:
                await measure(driver, site.url("/orders.html"), keep or Path(tmp) / "runs", sizes)
            finally:
                await driver.close()
    if keep is not None:
        print(f"run folders kept under {keep}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--keep", type=Path, default=None, help="keep the run folders here")
    args = parser.parse_args()
    asyncio.run(main(args.sizes, args.keep))
