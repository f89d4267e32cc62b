"""Executor overhead: an N-step plan on no-op tools, so everything measured is the executor itself.

Prints steps/s, per-step overhead in wall and CPU time (medians of repeats) and peak traced memory
for several plan sizes, with the SQLite checkpoint store on a real file (every step committed) and
in memory. Every real run has a live secret vault, which makes every stored text pass the secrets
redactor: `--with-vault` keeps an empty one alive (a run with no secrets), `--with-secret` one holding
a secret (a run with a password). The process's loaded code is frozen out of the garbage
collector's sight first, as the app does when it builds its core (`--unfrozen`: not).
Run: .venv/bin/python -m benchmarks.executor_overhead [--steps 10000] [--repeats 3] [--with-secret]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from app.wiring import freeze_loaded_code
from common.secrecy import SecretVault
from executor.models import RunStatus, RuntimeCtxV1
from executor.run.conductor import RunConductor
from executor.store.checkpoint_store import CheckpointStore
from executor.tools.boundary import ToolContext, ToolOutput
from planner.models import ExecutionPlan

UNLIMITED = (1e12, 1_000_000_000)


async def noop(args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
    return ToolOutput()


def make_plan(n: int) -> ExecutionPlan:
    """A chain with side branches: every step depends on the one before, every 10th on two more."""
    steps = []
    for i in range(n):
        deps = [f"s{i - 1}"] if i else []
        if i % 10 == 0 and i >= 20:
            deps.append(f"s{i - 20}")
        steps.append({"step_id": f"s{i}", "type": "COMPUTE", "depends_on": deps})
    return ExecutionPlan.model_validate(
        {"mode": "A", "steps": steps, "budget": {"max_tool_calls": n, "max_time_ms": 3_600_000}}
    )


async def one_run(plan: ExecutionPlan, store: CheckpointStore) -> tuple[float, float]:
    """Wall and CPU seconds of one run (CPU: this process's, what a loaded machine does not inflate)."""
    conductor = RunConductor(tools={"compute": noop}, store=store, rate_overrides={"compute": UNLIMITED})
    t0, cpu0 = time.perf_counter(), time.process_time()
    bundle = await conductor.run(plan, RuntimeCtxV1(safe_mode=False))
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    return elapsed, cpu


def measure(n: int, repeats: int, on_disk: bool) -> tuple[float, float, float]:
    plan = make_plan(n)
    times = []
    peak = 0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            store = CheckpointStore(Path(tmp) / "bench.sqlite3") if on_disk else CheckpointStore.in_memory()
            with store:
                tracemalloc.start()
                times.append(asyncio.run(one_run(plan, store))[0])
                peak = max(peak, tracemalloc.get_traced_memory()[1])
                tracemalloc.stop()
    # tracemalloc slows allocation-heavy code; time a clean run too and report the faster median.
    clean = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            store = CheckpointStore(Path(tmp) / "bench.sqlite3") if on_disk else CheckpointStore.in_memory()
            with store:
                clean.append(asyncio.run(one_run(plan, store)))
    return statistics.median(c[0] for c in clean), statistics.median(c[1] for c in clean), peak / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    vaults = parser.add_mutually_exclusive_group()
    vaults.add_argument("--with-vault", action="store_true", help="an empty secret vault live")
    vaults.add_argument("--with-secret", action="store_true", help="a vault holding one secret live")
    parser.add_argument("--unfrozen", action="store_true", help="skip app/wiring.py's gc.freeze()")
    args = parser.parse_args()
    if args.steps < 4 or args.repeats < 1:
        parser.error("--steps must be at least 4 and --repeats at least 1")
    if not args.unfrozen:
        freeze_loaded_code()  # as the app does once it has built its core
    print(f"loaded code frozen out of the collector's sight: {'no' if args.unfrozen else 'yes'}")
    secrets = {"password": "correct-horse-42"} if args.with_secret else {}
    vault = SecretVault(secrets) if args.with_vault or args.with_secret else None
    print(f"secret vault: {'none' if vault is None else f'{len(secrets)} secret(s)'}")
    sizes = sorted({args.steps // 4, args.steps // 2, args.steps})
    header = ("store", "steps", "median s", "steps/s", "ms/step", "CPU ms/st", "peak MB", "KB/step")
    print(f"{header[0]:<8}" + "".join(f"{h:>10}" for h in header[1:]))
    for on_disk in (True, False):
        for n in sizes:
            median, cpu, peak_mb = measure(n, args.repeats, on_disk)
            label = "file" if on_disk else "memory"
            print(
                f"{label:<8}{n:>10}{median:>10.3f}{n / median:>10.0f}{median / n * 1000:>10.3f}"
                f"{cpu / n * 1000:>10.3f}{peak_mb:>10.1f}{peak_mb * 1000 / n:>10.2f}"
            )
    del vault  # alive until here: its redactor is what every stored text passes


if __name__ == "__main__":
    main()
