"""`waypost batch`: a suite of cases, N at once, over the browser endpoints of a grid; JUnit XML and
an index page for CI; `--resume BATCH_ID` finishes a batch that was killed (docs/architecture.md,
"Batches")."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import time
from pathlib import Path

from app import cli_batch_args as batch_args
from app.settings import Settings
from app.wiring import build_core, launch_options
from batch.confirm import OneAtATime
from batch.endpoint_secrets import credentials, with_endpoints
from batch.journal import BatchJournal, BatchJournalError
from batch.junit import write_junit
from batch.pool import EndpointPool
from batch.progress import BatchProgress
from batch.resources import endpoint_resources
from batch.results import BatchSummary
from batch.runner import BatchOptions, BatchRunner
from batch.stopped import EXIT_INTERRUPTED, stopped_document, stopped_sentence
from batch.suite import SuiteError, read_suite
from batch.suite_secrets import with_secrets
from browser.grid import EndpointError, GridClient, check_endpoints
from common.secrecy import live_secrets, scrub
from executor.gates.approval import ApprovalPolicy
from receipts.keys import install_key

EXIT_BAD_INPUT = 2

# The parser lives apart so `waypost plan` can build it without loading the batch machinery.
add_parser = batch_args.add_parser


def _bad(message: str) -> int:
    print(scrub(f"waypost: {message}"), file=sys.stderr)
    return EXIT_BAD_INPUT


async def _new_journal(
    args: argparse.Namespace, endpoints: list[str], runs_dir: Path, settings: Settings
) -> BatchJournal:
    if args.suite is None:
        raise SuiteError("give a SUITE file, or --resume BATCH_ID")
    if args.workers < 1 or (args.per_browser is not None and args.per_browser < 1):
        raise SuiteError("--workers and --per-browser take a number of at least 1")
    if args.isolation == "context" and not endpoints:
        raise SuiteError(
            "--isolation context shares an endpoint's browser between runs: give --browser ENDPOINT "
            "(without one, each run launches a Chromium of its own)"
        )
    cases = read_suite(args.suite)
    await check_endpoints(endpoints)  # before the batch exists: a typo leaves nothing behind
    per = args.per_browser or math.ceil(args.workers / max(1, len(endpoints)))
    return BatchJournal.create(
        runs_dir,
        cases,
        workers=args.workers,
        endpoints=endpoints,
        per_endpoint=per,
        approve=ApprovalPolicy(args.approve) if args.approve else settings.approve,
        isolation=args.isolation,
        junit=str(args.junit.resolve()) if args.junit else None,
    )


def _asker(policy: ApprovalPolicy) -> OneAtATime | None:
    """`ask` prompts only where a person can answer; with no terminal a gated case pauses."""
    if policy is not ApprovalPolicy.ASK or not sys.stdin.isatty():
        return None
    from app.terminal_confirm import TerminalConfirm

    return OneAtATime(TerminalConfirm(), lambda line: print(scrub(line), file=sys.stderr, flush=True))


def _human(summary: BatchSummary, journal: BatchJournal, junit: Path | None) -> str:
    lines = [
        f"batch {summary.batch_id}: {summary.passed} passed, {summary.failed} failed, "
        f"{summary.seconds:.1f} s",
        f"index: {journal.folder / 'index.html'}",
    ]
    if junit:
        lines.append(f"junit: {junit}")
    paused = [r.run_id for r in summary.runs if r.run_status == "NEEDS_CONFIRMATION" and r.run_id]
    if paused:
        lines.append(f"awaiting approval: waypost resume RUN --approve all  (RUN: {', '.join(paused)})")
    return "\n".join(lines)


async def cmd_batch(args: argparse.Namespace, settings: Settings) -> int:
    endpoints = list(args.browser or settings.browser_endpoints)
    with live_secrets(credentials(endpoints)):  # a grid's token is printed and written nowhere
        return await _batch(args, settings, endpoints)


async def _batch(args: argparse.Namespace, settings: Settings, endpoints: list[str]) -> int:
    runs_dir = settings.runs_dir.expanduser()
    try:
        if args.resume:
            journal = BatchJournal.open(runs_dir, args.resume)
            given = read_suite(args.suite) if args.suite is not None else None  # its secrets, again
            journal.cases = with_secrets(journal.cases, given, journal.state().ended, args.resume)
            journal.spec.endpoints = with_endpoints(journal.spec.endpoints, endpoints, args.resume)
            await check_endpoints(journal.spec.endpoints)
        else:
            journal = await _new_journal(args, endpoints, runs_dir, settings)
    except (SuiteError, EndpointError, BatchJournalError) as exc:
        return _bad(str(exc))
    spec = journal.spec
    core = build_core(settings)
    progress = None if args.json else BatchProgress(len(journal.cases), journal.state().ended.values())
    options = BatchOptions(
        workers=spec.workers,
        approve=spec.approve,
        safe_mode=settings.safe_mode,
        planner=settings.planner,
        asker=_asker(spec.approve),
    )
    runner = BatchRunner(core, journal, EndpointPool(spec.endpoints, spec.per_endpoint), options, progress)
    stop = getattr(args, "stop", None)
    began = time.monotonic()

    def report_stop(signal_name: str, as_json: bool) -> int:
        document = stopped_document(journal, signal_name, time.monotonic() - began)
        print(scrub(stopped_sentence(document)), file=sys.stderr, flush=True)
        if as_json:
            print(scrub(json.dumps(document, indent=2, ensure_ascii=False)), flush=True)
        return EXIT_INTERRUPTED

    if stop is not None:
        stop.reporter = report_stop  # also what the watchdog prints if the runs take too long to stop
    try:
        async with GridClient(spec.isolation) as grid:
            core.resources = endpoint_resources(grid, launch_options(settings), install_key())
            summary = await runner.run()
    except asyncio.CancelledError:
        return stop.report(args.json) if stop is not None else report_stop("SIGINT", args.json)
    junit = args.junit or (Path(spec.junit) if spec.junit else None)
    if junit is not None:
        write_junit(summary, junit)
    if args.json:
        print(scrub(json.dumps(summary.document(), indent=2, ensure_ascii=False)))
    else:
        print(scrub(_human(summary, journal, junit)))
    return summary.exit_code
