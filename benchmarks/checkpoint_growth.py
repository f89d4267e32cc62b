"""Checkpoint growth: what a step save and a checkpoint cost as a run grows to 10,000 steps.

A run that pauses often (a gate per action, a person who walks away) checkpoints many times; if a
checkpoint copies the whole run, its cost and size grow with every step already done. This fills a
real SQLite file with N step runs (one evidence item each), then takes checkpoints and loads them.
Prints, per N: median ms per step save, median ms per checkpoint, bytes the file grew per step save
and per checkpoint, and median ms to load the newest checkpoint (what resume pays), also per step:
flat load ms/step from 100 to 10,000 steps means a load grows linearly with the run.
Run: .venv/bin/python -m benchmarks.checkpoint_growth [--sizes 100 1000 10000] [--checkpoints 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from executor.models import BudgetStateV1, EvidenceItem, ExecMode, PendingUserInput, StepRunV1, StepStatus
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan


def _plan() -> ExecutionPlan:
    return ExecutionPlan.model_validate({"mode": "A", "steps": [{"step_id": "s0", "type": "COMPUTE"}]})


def _step(i: int) -> tuple[StepRunV1, list[EvidenceItem]]:
    run = StepRunV1(step_id=f"s{i}", step_type="COMPUTE", status=StepStatus.SUCCESS,
                    outputs={"value": i, "note": "x" * 200}, actions=[f"compute:{i}"])  # fmt: skip
    item = EvidenceItem(evidence_id=f"ev_{i}", source_url=f"http://127.0.0.1/{i}", snippet="q" * 120)
    return run, [item]


_WIDTHS = (7, 8, 14, 8, 13, 9, 17)


def measure(n: int, checkpoints: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "waypost.sqlite3"
        store = CheckpointStore(path)
        store.start_run(run_id="run_b", plan=_plan(), exec_mode=str(ExecMode.RESEARCH_ONLY))
        budget = BudgetStateV1()
        step_ms: list[float] = []
        size0 = path.stat().st_size
        for i in range(n):
            run, evidence = _step(i)
            t0 = time.perf_counter()
            store.save_step("run_b", run, new_evidence=evidence, budget=budget, last_url=None)
            step_ms.append((time.perf_counter() - t0) * 1e3)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # measure the file, not the WAL
        size1 = path.stat().st_size
        pending = PendingUserInput(kind="CONFIRMATION", message="ok?", gate_id="g", step_id=f"s{n - 1}")
        chk_ms: list[float] = []
        ref = ""
        for _ in range(checkpoints):
            t0 = time.perf_counter()
            ref = store.save_checkpoint("run_b", pending)
            chk_ms.append((time.perf_counter() - t0) * 1e3)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size2 = path.stat().st_size
        load_ms, load_cpu_ms = [], []
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            loaded = store.load(ref)
            load_ms.append((time.perf_counter() - t0) * 1e3)
            load_cpu_ms.append((time.process_time() - c0) * 1e3)
        assert len(loaded.step_runs) == n and len(loaded.evidence) == n
        store.close()
    return {
        "step_ms": statistics.median(step_ms),
        "checkpoint_ms": statistics.median(chk_ms),
        "bytes_per_step": (size1 - size0) / n,
        "bytes_per_checkpoint": (size2 - size1) / checkpoints,
        "load_ms": statistics.median(load_ms),
        "load_cpu_ms": statistics.median(load_cpu_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--checkpoints", type=int, default=20)
    args = parser.parse_args()
    print("load: median wall ms and CPU ms (CPU time is what a busy machine cannot inflate)")
    head = ("steps", "ms/step", "ms/checkpoint", "B/step", "B/checkpoint", "load ms", "load cpu ms/step")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, _WIDTHS, strict=True)))
    first: dict[str, float] | None = None
    for n in args.sizes:
        r = measure(n, args.checkpoints)
        first = first or r
        load_cpu = r["load_cpu_ms"] / n
        cells = (n, f"{r['step_ms']:.3f}", f"{r['checkpoint_ms']:.3f}", f"{r['bytes_per_step']:.0f}",
                 f"{r['bytes_per_checkpoint']:.0f}", f"{r['load_ms']:.2f}", f"{load_cpu:.4f}")  # fmt: skip
        print(" ".join(f"{c:>{w}}" for c, w in zip(cells, _WIDTHS, strict=True)))
    if first is not None and len(args.sizes) > 1:
        ratio = r["checkpoint_ms"] / first["checkpoint_ms"]
        print(f"checkpoint cost at {args.sizes[-1]} steps / at {args.sizes[0]} steps: {ratio:.1f}x")
        per_step = (r["load_cpu_ms"] / args.sizes[-1]) / (first["load_cpu_ms"] / args.sizes[0])
        print(f"load CPU ms/step at {args.sizes[-1]} steps / at {args.sizes[0]} steps: {per_step:.2f}x")


if __name__ == "__main__":
    main()
