"""Routing accuracy of the rule planner: confusion matrix and per-mode accuracy.

Run: `.venv/bin/python -m benchmarks.routing [--misses]`. Figures, not pass/fail. Two sets are
measured: the routing corpus (tests/data/routing_corpus.jsonl, the phrasings the rules are tuned
on) and a held-out set (tests/data/routing_heldout.jsonl) the rules are never tuned against, so
the gap between the two says how well the rules generalise to phrasings nobody wrote them for.
"""

from __future__ import annotations

import argparse
from collections import Counter

from planner.context import build_context
from planner.rules import plan_rules
from tests.unit.planner.routing_cases import CORPUS, HELDOUT, Case

MODES = ("A", "B", "C", "D", "CLARIFY")


def route(case: Case) -> str:
    return plan_rules(case.task, build_context(case.task, url=case.url)).mode.value


def report(title: str, cases: list[Case], *, show_misses: bool) -> None:
    """Prints the confusion matrix (rows: expected, columns: routed) and per-mode accuracy."""
    grid: Counter[tuple[str, str]] = Counter()
    misses: list[tuple[Case, str]] = []
    for case in cases:
        got = route(case)
        grid[(case.mode, got)] += 1
        if got != case.mode:
            misses.append((case, got))
    right = sum(grid[(m, m)] for m in MODES)
    print(f"{title}: {len(cases)} tasks, {right} routed right ({100 * right / len(cases):.1f}%)")
    print("  expected \\ routed " + "".join(f"{m:>9}" for m in MODES) + "   accuracy")
    for m in MODES:
        total = sum(grid[(m, g)] for g in MODES)
        acc = f"{100 * grid[(m, m)] / total:6.1f}%" if total else "     -"
        print(f"  {m:<18}" + "".join(f"{grid[(m, g)]:>9}" for g in MODES) + f"   {acc} of {total}")
    if show_misses:
        for case, got in misses:
            print(f"  MISS {case.mode}->{got}: {case.task}" + (f"  [tab {case.url}]" if case.url else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", action="store_true", help="list every task routed wrong")
    args = parser.parse_args()
    report("routing corpus (tuned on)", CORPUS, show_misses=args.misses)
    print()
    report("held-out set (never tuned on)", HELDOUT, show_misses=args.misses)


if __name__ == "__main__":
    main()
