"""Cold start: `waypost plan --planner rules` in a fresh process, and the window's first paint.

Run: `.venv/bin/python -m benchmarks.cold_start [--launches N]`. Figures, not pass/fail.
Each launch is a new interpreter, so nothing is warm but the OS file cache (the first launch warms
it; medians discount it). Wall time is what a person or a CI job waits; CPU time (user + system of
the child) is printed beside it because on a shared, loaded machine the wall figure mostly measures
the other processes. Goals (docs/architecture.md, "Cold start"): plan under 350 ms, first paint
under 800 ms. Which modules load is checked by tests/unit/test_cold_start_imports.py, not here.
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

PLAN_GOAL_MS = 350.0
TASK = "open http://127.0.0.1:9/pricing and read the price of the Pro plan"


def _children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def plan_launches(launches: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of `waypost plan --planner rules` (through the console script's
    function, app.entry:main), one fresh interpreter each."""
    root = Path(__file__).resolve().parents[1]
    scratch = Path(tempfile.mkdtemp(prefix="waypost-cold-"))
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "WAYPOST_CONFIG_DIR": str(scratch / "config"),
        "WAYPOST_DATA_DIR": str(scratch / "data"),
    }
    command = [sys.executable, "-c", "import sys; from app.entry import main; sys.exit(main())"]
    command += ["plan", TASK, "--planner", "rules", "--runs-dir", str(scratch / "runs")]
    walls, cpus = [], []
    for _ in range(launches):
        cpu0, wall0 = _children_cpu_s(), time.perf_counter()
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
        walls.append((time.perf_counter() - wall0) * 1000)
        cpus.append((_children_cpu_s() - cpu0) * 1000)
        if done.returncode != 0:
            raise RuntimeError(f"waypost plan failed: {done.stderr[-500:]}")
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=7)
    parser.add_argument("--skip-window", action="store_true", help="only the plan command")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"machine: {os.cpu_count()} cores, load average {load:.1f} (wall figures grow with load)")
    walls, cpus = plan_launches(args.launches)
    print(
        f"waypost plan --planner rules, cold, {args.launches} launches (goal: < {PLAN_GOAL_MS:.0f} ms):\n"
        f"  wall: median {statistics.median(walls):.0f} ms {[round(w) for w in walls]}\n"
        f"  CPU:  median {statistics.median(cpus):.0f} ms {[round(c) for c in cpus]}"
    )
    if not args.skip_window:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        print(describe_first_paints(first_paints(args.launches)))


if __name__ == "__main__":
    main()
