"""Cold start: `waypost --help`, `waypost plan --planner rules` and the window's first paint, each in
a fresh process, beside the bare interpreter and a bare PySide6 window in the same run.

Run: `.venv/bin/python -m benchmarks.cold_start [--launches N] [--skip-window]`. Figures, not
pass/fail. Each launch is a new interpreter, so nothing is warm but the OS file cache and the
bytecode (kept in a scratch folder by a first, unmeasured launch, as an installed package has it,
whatever PYTHONDONTWRITEBYTECODE says). Wall time is what a person or a CI job waits; CPU time (user +
system of the child) is printed beside it because on a shared, loaded machine the wall figure mostly
measures the other processes. Goals (docs/architecture.md, "Cold start"): `--help` under 150 ms and
plan under 250 ms wall on a quiet machine. Which modules load is checked by
tests/unit/test_cold_start_imports.py, not here.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.ui_responsiveness import describe_first_paints, first_paints

HELP_GOAL_MS = 150.0
PLAN_GOAL_MS = 250.0
TASK = "open http://127.0.0.1:9/pricing and read the price of the Pro plan"
WAYPOST = "import sys; from app.entry import main; sys.exit(main())"  # the console script's function

#: A PySide6 window and nothing else, closed at its first paint: what any Qt window costs here.
BARE_WINDOW = """
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication(sys.argv[:1])

class Hook(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and obj is window:
            QTimer.singleShot(0, app.quit)
        return False

window = QWidget()
hook = Hook()
window.installEventFilter(hook)
window.show()
app.exec()
"""


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def launch_times(code: str, arguments: list[str], launches: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of `python -c code arguments...`, from spawn to exit, one fresh
    interpreter each."""
    root = Path(__file__).resolve().parents[1]
    scratch = Path(tempfile.mkdtemp(prefix="waypost-cold-"))
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "WAYPOST_CONFIG_DIR": str(scratch / "config"),
        "WAYPOST_DATA_DIR": str(scratch / "data"),
    }
    command = [sys.executable, "-c", code, *(a.replace("{scratch}", str(scratch)) for a in arguments)]
    walls, cpus = [], []
    subprocess.run(command, cwd=root, env=env, capture_output=True, timeout=120)  # writes the bytecode
    for _ in range(launches):
        cpu0, wall0 = _children_cpu_s(), time.perf_counter()
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
        walls.append((time.perf_counter() - wall0) * 1000)
        cpus.append((_children_cpu_s() - cpu0) * 1000)
        if done.returncode != 0:
            raise RuntimeError(f"{arguments or code[:40]} failed: {done.stderr[-500:]}")
    return walls, cpus


def describe(name: str, walls: list[float], cpus: list[float]) -> str:
    wall, cpu, each = statistics.median(walls), statistics.median(cpus), [round(w) for w in walls]
    return f"{name:<38} wall median {wall:>5.0f} ms  CPU median {cpu:>5.0f} ms  walls {each}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=7)
    parser.add_argument("--skip-window", action="store_true", help="only the plan command")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode kept, as an installed package has it
    os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="waypost-cold-pycache-")
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} (wall figures grow with load)")
    n = args.launches
    plan = ["plan", TASK, "--planner", "rules", "--runs-dir", "{scratch}/runs"]
    print(f"fresh processes, {n} launches each, spawn to exit:")
    print(describe("python -c pass (the interpreter)", *launch_times("pass", [], n)))
    print(describe(f"waypost --help (goal < {HELP_GOAL_MS:.0f} ms)", *launch_times(WAYPOST, ["--help"], n)))
    print(describe(f"waypost plan --planner rules (< {PLAN_GOAL_MS:.0f})", *launch_times(WAYPOST, plan, n)))
    if not args.skip_window:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        print(describe("a bare PySide6 window, to its paint", *launch_times(BARE_WINDOW, [], n)))
        print(describe_first_paints(first_paints(n + 1)[1:]))  # the first writes the bytecode


if __name__ == "__main__":
    main()
