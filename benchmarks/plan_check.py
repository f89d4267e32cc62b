"""Plan check: what checking a plan whole before its run starts (executor/run/plan_check.py) adds to
reading it, for plans of growing size.

Each step is an ACT with a start URL and two listed actions (a fill, a click), the shape whose every
action is parsed by the check. Prints, per size: median ms to read the plan (model_validate_json),
median ms to check it, and the ratio check/read.
Run: .venv/bin/python -m benchmarks.plan_check [--sizes 100 1000 10000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from functools import partial

from executor.act import act_runners
from executor.run.plan_check import check_plan
from executor.tools.registry import RunnerRegistry
from planner.models import ExecutionPlan


def _plan_text(n: int) -> str:
    actions = [
        {"kind": "fill", "target": {"label": "Name"}, "value": "Ada"},
        {"kind": "click", "target": {"text": "Go"}},
    ]
    steps = [
        {"step_id": f"s{i}", "type": "ACT", "inputs": {"url": "http://127.0.0.1:9/", "actions": actions}}
        for i in range(n)
    ]
    return json.dumps({"mode": "B", "plan_status": "READY", "steps": steps})


def _median_ms(call: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10_000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    registry = RunnerRegistry(act_runners())
    print(f"{'steps':>7} {'read ms':>9} {'check ms':>9} {'check/read':>10}")
    for n in args.sizes:
        text = _plan_text(n)
        plan = ExecutionPlan.model_validate_json(text)
        read = _median_ms(partial(ExecutionPlan.model_validate_json, text), args.repeats)
        check = _median_ms(partial(check_plan, plan, registry), args.repeats)
        print(f"{n:>7} {read:>9.1f} {check:>9.1f} {check / read:>10.2f}")


if __name__ == "__main__":
    main()
