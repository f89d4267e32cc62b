"""`waypost batch`'s arguments, apart from app/cli_batch.py: the CLI builds every parser at each
call, and this one must not load the batch machinery (docs/architecture.md, "Cold start")."""

from __future__ import annotations

import argparse
from pathlib import Path

from executor.gates.approval import ApprovalPolicy


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    batch = sub.add_parser("batch", help="run a suite of cases (JSON Lines), several at once")
    batch.add_argument(
        "suite",
        nargs="?",
        type=Path,
        help="one case per line: name, task or plan, expect (with --resume: gives tasks' secrets again)",
    )
    batch.add_argument("--resume", metavar="BATCH_ID", help="finish a batch that was stopped")
    batch.add_argument("--workers", type=int, default=1, help="runs at once (default 1)")
    batch.add_argument(
        "--browser",
        action="append",
        default=[],
        metavar="ENDPOINT",
        help="ws(s):// Playwright server or http(s):// CDP endpoint; repeat for several",
    )
    batch.add_argument(
        "--per-browser", type=int, help="runs at once on each endpoint (default: spread evenly)"
    )
    batch.add_argument(
        "--isolation",
        choices=("browser", "context"),
        default="browser",
        help="on an endpoint, a browser of its own per run at once (default), or one browser shared by "
        "the runs, each in its own context: faster, but a browser crash ends every run in it",
    )
    batch.add_argument("--junit", type=Path, help="write JUnit XML here")
    batch.add_argument("--approve", choices=[p.value for p in ApprovalPolicy])
    batch.add_argument("--runs-dir", type=Path, help="where runs, receipts and batches live")
    batch.add_argument("--json", action="store_true", help="print one JSON document on stdout")
