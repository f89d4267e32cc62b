"""UI responsiveness: event-loop stalls during full runs through the window, and launch-to-window time.

A 10 ms heartbeat QTimer ticks on the qasync loop while the window plans and runs example task C
(research, then a gated form fill, approved through the gate dialog's Approve button) several times
on fake tools that each wait a few ms as I/O would. The longest gap between ticks, minus the 10 ms
period, is the longest stall: the goal is none over 50 ms. Launch time runs from process start
(before any import) to the first Show event of the main window.
Offscreen; no browser yet (a real-browser version follows once the browser tools are wired).
The run store lives in TMPDIR: with TMPDIR=/dev/shm (no disk syncs) the figure isolates the UI and
the loop from the SQLite commits the conductor makes on the loop thread.
Run: QT_QPA_PLATFORM=offscreen .venv/bin/python -m benchmarks.ui_responsiveness [--runs 10] [--io-ms 20]
"""

from __future__ import annotations

import time

LAUNCHED = time.perf_counter()

import argparse  # noqa: E402
import asyncio  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from executor.models import EvidenceItem, RunBundleV1  # noqa: E402
from executor.run.service import AgentCore  # noqa: E402
from executor.store.checkpoint_store import CheckpointStore  # noqa: E402
from executor.tools.boundary import ToolContext, ToolOutput  # noqa: E402
from ui.controller import RunController  # noqa: E402
from ui.event_loop import new_event_loop  # noqa: E402
from ui.examples import EXAMPLE_TASKS  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402

PERIOD_MS = 10
RESEARCH = {"retrieve", "fetch_data", "web_search", "open_url"}
IMPORTED = time.perf_counter()


@dataclass
class SlowTool:
    """Waits like network or browser I/O, then returns a result (with a source when researching)."""

    io_s: float
    evidence: bool = False

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        await asyncio.sleep(self.io_s)
        sources = [EvidenceItem(source_url=f"http://127.0.0.1/{ctx.step.step_id}", snippet="a fact")]
        return ToolOutput(outputs={"ok": True}, evidence=sources if self.evidence else [])


@dataclass
class Heartbeat:
    ticks: list[float] = field(default_factory=list)
    #: (time, signal name) of controller signals, to say what the longest stall followed.
    marks: list[tuple[float, str]] = field(default_factory=list)

    def tick(self) -> None:
        self.ticks.append(time.perf_counter())

    def mark(self, name: str) -> None:
        self.marks.append((time.perf_counter(), name))

    def gaps_ms(self) -> list[float]:
        return [(b - a) * 1000 for a, b in zip(self.ticks, self.ticks[1:], strict=False)]

    def around_longest(self) -> str:
        """The signals seen during the longest gap (or the last one before it)."""
        gaps = self.gaps_ms()
        i = gaps.index(max(gaps))
        start, end = self.ticks[i], self.ticks[i + 1]
        inside = [name for at, name in self.marks if start <= at <= end]
        before = [name for at, name in self.marks if at < start][-1:]
        return ", ".join(inside) if inside else f"after {before[0] if before else 'start'}"


class FirstShow(QObject):
    """Notes when the main window is first shown."""

    def __init__(self) -> None:
        super().__init__()
        self.shown_at: float | None = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.shown_at is None and event.type() == QEvent.Type.Show and isinstance(watched, MainWindow):
            self.shown_at = time.perf_counter()
        return False


async def one_run(window: MainWindow) -> RunBundleV1:
    done: asyncio.Future[RunBundleV1] = asyncio.get_running_loop().create_future()

    def finished(bundle: RunBundleV1) -> None:
        if not done.done():
            done.set_result(bundle)

    def approve_when_asked(_request: object) -> None:
        dialog = window.gate_dialog
        if dialog is not None:
            QTimer.singleShot(0, dialog.approve_button.click)  # a person clicking Approve

    window.controller.run_finished.connect(finished)
    window.controller.gate_requested.connect(approve_when_asked)
    try:
        window.task_panel.run_button.click()
        bundle = await done
        await window.controller.wait_idle()  # Run is enabled again only once the task has ended
        return bundle
    finally:
        window.controller.run_finished.disconnect(finished)
        window.controller.gate_requested.disconnect(approve_when_asked)


async def main(runs: int, io_ms: float, first_show: FirstShow) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        keys = ("retrieve", "fetch_data", "compute", "act", "web_search", "open_url", "summarize")
        tools = {k: SlowTool(io_ms / 1000, evidence=k in RESEARCH) for k in keys}
        store = CheckpointStore(Path(tmp) / "db.sqlite3")
        core = AgentCore(
            store=store,
            tools=tools,
            runs_dir=Path(tmp) / "runs",
            rate_overrides={k: (1e9, 10**6) for k in tools},
        )
        window = MainWindow(RunController(core), {"safe_mode": True, "planner": "rules", "runs_dir": tmp})
        window.show()
        await asyncio.sleep(0)
        window.task_panel.use_example(EXAMPLE_TASKS[2])
        beat = Heartbeat()
        timer = QTimer()
        timer.setInterval(PERIOD_MS)
        timer.timeout.connect(beat.tick)
        c = window.controller
        for name in (
            "plan_ready",
            "run_opened",
            "step_begun",
            "step_recorded",
            "gate_requested",
            "gate_closed",
            "run_finished",
            "busy_changed",
        ):
            getattr(c, name).connect(lambda *_, n=name: beat.mark(n))
        timer.start()
        started = time.perf_counter()
        statuses = [(await one_run(window)).run_status.value for _ in range(runs)]
        elapsed = time.perf_counter() - started
        timer.stop()
        window.close()
        await window.aclose()
        store.close()
    gaps = sorted(beat.gaps_ms())
    stall = max(gaps) - PERIOD_MS
    shown = (first_show.shown_at or LAUNCHED) - LAUNCHED
    print(
        f"runs: {runs} x example C through the window, {io_ms:g} ms per tool call; statuses {set(statuses)}"
    )
    print(f"wall time {elapsed:.2f} s; heartbeat ticks {len(beat.ticks)} (period {PERIOD_MS} ms)")
    print(
        f"gap between ticks: median {statistics.median(gaps):.1f} ms, "
        f"p99 {gaps[int(len(gaps) * 0.99) - 1]:.1f} ms, max {max(gaps):.1f} ms"
    )
    verdict = "OK" if stall < 50 else "OVER"
    during = beat.around_longest()
    print(f"longest event-loop stall: {stall:.1f} ms (goal: < 50 ms) -> {verdict}; during: {during}")
    print(
        f"launch to first window shown: {shown * 1000:.0f} ms (imports {(IMPORTED - LAUNCHED) * 1000:.0f} ms)"
    )


#: The real `waypost gui` path in a fresh process, from its entry point (app/entry.py) to the main
#: window's first Paint event; the window is closed at once (the session then loads and winds down).
_FIRST_PAINT = """
import time
T0 = time.perf_counter()
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])

class Hook(QObject):
    done = False
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and type(obj).__name__ == WINDOW and not self.done:
            self.done = True
            print(f"FIRST_PAINT_MS {(time.perf_counter() - T0) * 1000:.0f}", flush=True)
            print(f"FIRST_PAINT_CPU_MS {time.process_time() * 1000:.0f}", flush=True)
            print(f"FIRST_PAINT_EPOCH {time.time():.4f}", flush=True)
            QTimer.singleShot(0, obj.close)
        return False

hook = Hook()
app.installEventFilter(hook)
"""
_WAYPOST = (
    """WINDOW = "MainWindow"
"""
    + _FIRST_PAINT
    + """
sys.argv = ["waypost", "gui", "--runs-dir", sys.argv[1]]
from app.entry import main
main()
"""
)
#: A bare PySide6 window on the same machine in the same run: the floor the window is measured against.
_BARE = (
    """WINDOW = "QMainWindow"
"""
    + _FIRST_PAINT
    + """
from PySide6.QtWidgets import QLabel, QMainWindow
window = QMainWindow()
window.setCentralWidget(QLabel("bare"))
window.resize(1280, 800)
window.show()
app.exec()
"""
)


@dataclass
class FirstPaint:
    """One launch: from the interpreter's first line, from spawning the process, and CPU time used."""

    after_start_ms: float
    after_spawn_ms: float
    cpu_ms: float


def first_paints(launches: int = 3, script: str = _WAYPOST) -> list[FirstPaint]:
    """Launch-to-first-paint of the real window (`waypost gui`), once per fresh process."""
    import subprocess

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "WAYPOST_CONFIG_DIR": tempfile.mkdtemp()}
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    figures = []
    for _ in range(launches):
        with tempfile.TemporaryDirectory() as runs:
            spawned = time.time()
            done = subprocess.run(
                [sys.executable, "-c", script, runs],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
        found = dict(x.split(" ", 1) for x in done.stdout.splitlines() if x.startswith("FIRST_PAINT"))
        if "FIRST_PAINT_MS" not in found:
            raise RuntimeError(f"no first paint: {done.stderr[-500:]}")
        figures.append(
            FirstPaint(
                after_start_ms=float(found["FIRST_PAINT_MS"]),
                after_spawn_ms=(float(found["FIRST_PAINT_EPOCH"]) - spawned) * 1000,
                cpu_ms=float(found["FIRST_PAINT_CPU_MS"]),
            )
        )
    return figures


def describe_first_paints(paints: list[FirstPaint], bare: list[FirstPaint] | None = None) -> str:
    def med(values: list[float]) -> str:
        return f"median {statistics.median(values):.0f} ms {[round(v) for v in values]}"

    cpu = statistics.median(p.cpu_ms for p in paints)
    lines = [
        f"real window (`waypost gui`), launch to first paint over {len(paints)} launches:",
        f"  from the first line:   {med([p.after_start_ms for p in paints])}",
        f"  from process spawn:    {med([p.after_spawn_ms for p in paints])}",
        f"  CPU time until paint:  {med([p.cpu_ms for p in paints])} (goal: < 400 ms; "
        f"{'OK' if cpu < 400 else 'OVER'})",
    ]
    if bare:
        floor = statistics.median(p.cpu_ms for p in bare)
        lines += [
            f"bare PySide6 window, same run, {len(bare)} launches:",
            f"  from the first line:   {med([p.after_start_ms for p in bare])}",
            f"  CPU time until paint:  {med([p.cpu_ms for p in bare])}",
            f"window CPU to first paint: {cpu / floor:.2f}x the bare window's (+{cpu - floor:.0f} ms)",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--io-ms", type=float, default=20.0)
    parser.add_argument(
        "--first-paint", type=int, default=0, help="only: N launches of the real window and of a bare one"
    )
    args = parser.parse_args()
    if args.first_paint:
        window, bare = [], []
        for _ in range(args.first_paint):  # interleaved, so both meet the same load
            window += first_paints(1)
            bare += first_paints(1, _BARE)
        print(describe_first_paints(window, bare))
        sys.exit(0)
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    hook = FirstShow()
    app.installEventFilter(hook)
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(main(args.runs, args.io_ms, hook))
