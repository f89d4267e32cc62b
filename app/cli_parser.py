"""`waypost`'s arguments: every command's parser, built from argparse alone. `waypost --help` and a
usage error end here, before the modules that run commands load (docs/architecture.md, "Cold start")."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.cli_batch_args import add_parser as add_batch_parser
from executor.gates.approval import ApprovalPolicy


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="waypost", description="A browser agent that asks before it acts.")
    sub = parser.add_subparsers(dest="command")

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--runs-dir", type=Path, help="where runs, receipts and the run store live")
        p.add_argument("--json", action="store_true", help="print one JSON document on stdout")

    gui = sub.add_parser("gui", help="open the window")
    gui.add_argument("--runs-dir", type=Path)

    plan = sub.add_parser("plan", help="print the plan for a task (no side effects)")
    plan.add_argument("task")
    plan.add_argument("--url", help="the active tab's URL, as context")
    plan.add_argument("--planner", choices=["rules", "llm", "auto"])
    common(plan)

    run = sub.add_parser("run", help="plan and run a task, or run a plan file")
    run.add_argument("task", nargs="?")
    run.add_argument("--plan", type=Path, dest="plan_file", help="an ExecutionPlan JSON file to run as is")
    run.add_argument("--url")
    run.add_argument("--planner", choices=["rules", "llm", "auto"])
    run.add_argument("--approve", choices=[p.value for p in ApprovalPolicy])
    run.add_argument("--headed", action="store_true", help="show the browser window")
    run.add_argument("--unsafe", action="store_true", help="turn safe mode off (plan gates still ask)")
    run.add_argument("--trace", action="store_true", help="record a Playwright trace into the run folder")
    run.add_argument(
        "--profile", metavar="NAME", help="a persistent browser profile of yours (kept between runs)"
    )
    _add_run_audio_arguments(run)
    _add_secret_arguments(run)
    common(run)
    _add_transcribe_parser(sub)

    resume = sub.add_parser("resume", help="continue a paused or interrupted run")
    resume.add_argument("run_id")
    resume.add_argument("--approve", choices=[p.value for p in ApprovalPolicy])
    resume.add_argument("--headed", action="store_true")
    resume.add_argument("--trace", action="store_true", help="record a Playwright trace of this leg")
    resume.add_argument("--profile", metavar="NAME", help="a persistent browser profile of yours")
    _add_secret_arguments(resume)
    common(resume)

    receipts = sub.add_parser(
        "receipts",
        help="list, show, verify or export a run's receipts; trace: open its Playwright trace; "
        "key: this install's public key",
    )
    receipts.add_argument("action", choices=["list", "show", "verify", "export", "key", "trace"])
    receipts.add_argument("run", nargs="?", help="a run id or a run folder")
    receipts.add_argument(
        "--trust",
        action="append",
        default=[],
        metavar="PUBKEY",
        help="verify/export: also trust this public key (a file, or the base64 `receipts key` prints)",
    )
    receipts.add_argument("--out", type=Path, help="export: where to write report.html")
    receipts.add_argument("--force", action="store_true", help="export: overwrite an existing --out file")
    common(receipts)

    demo = sub.add_parser("demo", help="run the four example flows on the bundled offline demo site")
    demo.add_argument(
        "--approve", choices=[p.value for p in ApprovalPolicy], help="default: all (gates approved)"
    )
    common(demo)

    replay = sub.add_parser("replay", help="re-run a recorded run's actions without a model; report drift")
    replay.add_argument("run", help="a run id or a run folder")
    replay.add_argument("--include-risky", action="store_true", help="also replay submit/pay/delete clicks")
    replay.add_argument(
        "--heal", action="store_true", help="re-find targets the page changed; each heal is reported as drift"
    )
    replay.add_argument("--headed", action="store_true")
    common(replay)

    doctor = sub.add_parser("doctor", help="check Chromium, Qt, fonts, the model endpoint")
    common(doctor)
    _add_eval_parser(sub)
    add_batch_parser(sub)
    _add_mcp_parsers(sub)
    return parser


def _add_transcribe_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("transcribe", help="print what a WAV recording says (offline unless configured)")
    p.add_argument("audio", type=Path, help="a 16-bit PCM WAV file, at most 60 s")
    p.add_argument("--language", help="language code (en, vi, ...); default: the engine decides")
    p.add_argument("--runs-dir", type=Path)
    p.add_argument("--json", action="store_true")


def _add_run_audio_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("--audio", type=Path, help="a WAV recording of the task: transcribed, shown, then run")
    run.add_argument("--language", help="--audio: language code (en, vi, ...); default: the engine decides")
    run.add_argument("--yes", action="store_true", help="--audio: run the transcript without asking")


def _add_eval_parser(sub: Any) -> None:
    ev = sub.add_parser("eval", help="run the bundled task suite; success, steps, tokens, seconds per task")
    ev.add_argument("--model", help="model name (default: WAYPOST_MODEL or the settings)")
    ev.add_argument(
        "--base-url", help="an OpenAI-compatible endpoint, e.g. a local llama.cpp or Ollama server"
    )
    ev.add_argument("--rules", action="store_true", help="ignore any configured model: the rule baseline")
    ev.add_argument("--tasks", help="task ids, globs or families, comma-separated (e.g. 'forms,tabs-0*')")
    ev.add_argument("--runs-dir", type=Path, help="keep the runs and receipts here (default: a temp folder)")
    ev.add_argument("--json", action="store_true", help="print one JSON document on stdout")
    ev.add_argument(
        "--no-baseline", action="store_true", help="with a model: skip the rules' run of the same tasks"
    )


def _add_mcp_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mcp = sub.add_parser("mcp", help="serve Waypost to an assistant over MCP (stdio, or --http on 127.0.0.1)")
    mcp.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 with a token")
    mcp.add_argument("--port", type=int, default=8767, help="--http: the port (default 8767)")
    mcp.add_argument("--runs-dir", type=Path)
    mcp.add_argument("--headed", action="store_true", help="show the browser window")
    mcp.add_argument("--trace", action="store_true", help="record a Playwright trace of each run")
    mcp.add_argument("--profile", metavar="NAME", help="a persistent browser profile of yours")
    _add_secret_arguments(mcp)

    approve = sub.add_parser("approve", help="answer the gate a run waits at (needs a terminal)")
    approve.add_argument("run_id")
    approve.add_argument("--runs-dir", type=Path)
    approve.add_argument("--headed", action="store_true")
    approve.add_argument("--trace", action="store_true", help="record a Playwright trace of the rest")
    approve.add_argument("--profile", metavar="NAME", help="a persistent browser profile of yours")
    approve.add_argument("--json", action="store_true", help="print the run bundle as JSON at the end")
    _add_secret_arguments(approve)


def _add_secret_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--secret",
        action="append",
        default=[],
        metavar="NAME[=env:VAR]",
        help="value for {{secret:NAME}}: asked for without echo, or read from environment variable VAR",
    )


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line read; with no command, the window where a display exists, else the demo."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        args = parser.parse_args(["gui"] if has_display else ["demo"])
    return args
