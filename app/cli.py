"""`waypost`: the command line. Every command prints JSON with --json and exits with the codes of
docs/architecture.md."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import cli_batch_args, cli_eval, cli_voice
from app.cli_errors import (
    EnvironmentProblem,
    check_display,
    describe_os_error,
    quiet_broken_pipe,
    usable_runs_dir,
)
from app.cli_secrets import SecretOptionError, add_secret_arguments, read_secrets
from app.cli_signals import Stop
from app.hardening import owner_only_umask, tighten
from app.settings import Settings, SettingsError, config_dir, load_settings
from common.secrecy import live_secrets, scrub, scrub_data
from executor.models import ApprovalPolicy, RunBundleV1
from executor.observability import configure_json_logging
from planner.model_words import time_line
from planner.models import ExecutionPlan

if TYPE_CHECKING:
    from executor.confirm import ConfirmHandler
    from executor.service import AgentCore

# Everything a command needs beyond the parser is imported inside that command: `waypost plan`
# must not load Playwright, the model client, numpy or Qt (docs/architecture.md, "Cold start").

#: Errors printed as one line with exit code 2, by module and class name. They are looked up only
#: when an exception escapes, and only in modules already loaded: an exception from a module that
#: was never imported cannot be of its type.
_BAD_INPUT_ERRORS = (
    ("planner.service", "PlannerConfigError"),
    ("executor.service", "UnknownRun"),
    ("executor.checkpoint_store", "CheckpointStoreError"),
    ("receipts.errors", "ReceiptsError"),
    ("browser.discovery", "ChromiumNotFound"),
)

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A request the CLI cannot act on; printed as one line, exit code 2."""


def _parser() -> argparse.ArgumentParser:
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
    cli_voice.add_run_audio_arguments(run)
    add_secret_arguments(run)
    common(run)
    cli_voice.add_transcribe_parser(sub)

    resume = sub.add_parser("resume", help="continue a paused or interrupted run")
    resume.add_argument("run_id")
    resume.add_argument("--approve", choices=[p.value for p in ApprovalPolicy])
    resume.add_argument("--headed", action="store_true")
    common(resume)

    receipts = sub.add_parser(
        "receipts", help="list, show, verify or export a run's receipts; key: this install's public key"
    )
    receipts.add_argument("action", choices=["list", "show", "verify", "export", "key"])
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
    replay.add_argument("--headed", action="store_true")
    common(replay)

    doctor = sub.add_parser("doctor", help="check Chromium, Qt, fonts, the model endpoint")
    common(doctor)
    cli_eval.add_parser(sub)
    cli_batch_args.add_parser(sub)
    return parser


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {"runs_dir": getattr(args, "runs_dir", None)}
    if getattr(args, "headed", False):
        overrides["headless"] = False
    if getattr(args, "unsafe", False):
        overrides["safe_mode"] = False
    if getattr(args, "approve", None):
        overrides["approve"] = args.approve
    if getattr(args, "planner", None):
        overrides["planner"] = args.planner
    if args.command == "eval":
        overrides.update(cli_eval.overrides(args))
    no_model = args.command == "plan" and getattr(args, "planner", None) == "rules"
    return load_settings(overrides=overrides, read_keyring=not no_model)


def _emit(args: argparse.Namespace, document: Any, human: str) -> None:
    if args.json:
        print(scrub(json.dumps(scrub_data(document), indent=2, ensure_ascii=False, default=str)))
    else:
        print(scrub(human))


def _confirm_handler(policy: ApprovalPolicy) -> ConfirmHandler | None:
    """`ask` prompts only where a person can answer; with no TTY the run pauses with a checkpoint."""
    if policy is ApprovalPolicy.ASK and sys.stdin.isatty():
        from app.terminal_confirm import TerminalConfirm

        return TerminalConfirm()
    return None


def _describe_plan(plan: ExecutionPlan) -> str:
    lines = [f"plan {plan.plan_id}  mode {plan.mode}  status {plan.plan_status}"]
    if plan.reason_codes:
        lines.append("why: " + ", ".join(plan.reason_codes))
    lines.append("time: " + time_line(plan))
    if plan.clarification_question:
        lines.append(f"question: {plan.clarification_question}")
    for step in plan.steps:
        deps = f" after {', '.join(step.depends_on)}" if step.depends_on else ""
        gate = f" [gate {step.policy_gate_id}]" if step.policy_gate_id else ""
        lines.append(f"  {step.step_id:<10} {step.type_name:<16} {step.name}{deps}{gate}")
    return "\n".join(lines)


def _describe_bundle(bundle: RunBundleV1, core: AgentCore) -> str:
    lines = [f"{bundle.run_status}  run {bundle.run_id}  ({bundle.reason})"]
    if bundle.final_answer:
        lines += ["", bundle.final_answer]
    pending = bundle.pending_user_input
    if pending and pending.kind == "CONFIRMATION":
        lines += ["", f"waiting for approval of gate {pending.gate_id} (step {pending.step_id}):"]
        lines.append(f"  waypost resume {bundle.run_id} --approve all   (or --approve none to decline)")
    elif pending and pending.question:
        lines += ["", f"question: {pending.question}"]
    lines.append(f"receipts: {core.run_dir(bundle.run_id)}")
    return "\n".join(lines)


async def _cmd_plan(args: argparse.Namespace, settings: Settings) -> int:
    """Plans without a core: no store, browser or tools are built for a plan that is only printed."""
    from app.wiring import llm_settings
    from executor.planning import plan_task

    result = await plan_task(args.task, llm=llm_settings(settings), url=args.url, planner=settings.planner)
    _emit(args, json.loads(result.plan.model_dump_json()), _describe_plan(result.plan))
    return 0


async def _finish_run(args: argparse.Namespace, core: AgentCore, bundle: RunBundleV1) -> int:
    _emit(args, json.loads(bundle.model_dump_json()), _describe_bundle(bundle, core))
    return bundle.exit_code


async def _cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    if sum(map(bool, (args.task, args.plan_file, args.audio))) != 1:
        raise BadInput("give a TASK, --plan FILE or --audio FILE.wav (exactly one)")
    from pydantic import ValidationError

    from app.wiring import build_core

    spoken = await cli_voice.task_from_audio(args, settings) if args.audio else None
    if spoken is not None:
        args.task = spoken[0]
    core = build_core(settings)
    if args.plan_file:
        try:
            plan = ExecutionPlan.model_validate_json(args.plan_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInput(f"cannot read plan {args.plan_file}: {exc}") from exc
        except ValidationError as exc:
            raise BadInput(f"invalid plan {args.plan_file}:\n{exc}") from exc
    else:
        plan = (await core.plan(args.task, url=args.url, planner=settings.planner)).plan
        if not args.json:
            print(scrub(_describe_plan(plan)), file=sys.stderr)
    try:
        secrets = read_secrets(args.secret)
    except SecretOptionError as exc:
        raise BadInput(str(exc)) from exc
    with live_secrets(secrets.values()):  # what is printed after the run's vault is gone
        return await _run_plan(args, core, plan, secrets, settings, spoken)


async def _run_plan(
    args: argparse.Namespace,
    core: AgentCore,
    plan: ExecutionPlan,
    secrets: dict[str, str],
    settings: Settings,
    spoken: tuple[str, Any, Any] | None,
) -> int:
    from app.progress import ProgressPrinter
    from common.contracts import new_id

    args.stop.run_id = run_id = new_id("run")  # named now: a stopped run says how to resume it
    bundle = await core.run(
        plan,
        run_id=run_id,
        secrets=secrets,
        safe_mode=settings.safe_mode,
        approval_policy=settings.approve,
        events=None if args.json else ProgressPrinter(),
        confirm=_confirm_handler(settings.approve),
    )
    if spoken is not None:
        cli_voice.mark_spoken(core.run_dir(bundle.run_id), spoken[1], spoken[2], settings)
    return await _finish_run(args, core, bundle)


async def _cmd_resume(args: argparse.Namespace, settings: Settings) -> int:
    from app.progress import ProgressPrinter
    from app.wiring import build_core

    args.stop.run_id = args.run_id
    core = build_core(settings)
    answers = {ApprovalPolicy.ALL: True, ApprovalPolicy.NONE: False}
    policy = ApprovalPolicy(args.approve) if args.approve else settings.approve
    bundle = await core.resume(
        args.run_id,
        approve_pending=answers.get(policy),
        safe_mode=settings.safe_mode,
        approval_policy=policy,
        events=None if args.json else ProgressPrinter(),
        confirm=_confirm_handler(policy),
    )
    return await _finish_run(args, core, bundle)


async def _cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from app.demo.run import describe, run_demo

    approve = ApprovalPolicy(args.approve) if args.approve else ApprovalPolicy.ALL
    results, posts = await run_demo(settings, approve=approve, quiet=args.json)
    document = {"flows": [json.loads(r.bundle.model_dump_json()) for r in results], "form_posts": posts}
    _emit(args, document, describe(results, posts))
    return max((r.bundle.exit_code for r in results), default=0)


async def _cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from app.wiring import build_core
    from receipts.runs import resolve_run

    folder = resolve_run(args.run, settings.runs_dir.expanduser())
    core = build_core(settings)  # the window replays through the same core (signed receipts)
    try:
        report = await core.replay(folder.root, include_risky=args.include_risky)
    finally:
        core.store.close()
    _emit(args, report.to_dict(), report.summary())
    return 0 if report.ok else 1


async def _cmd_batch(args: argparse.Namespace, settings: Settings) -> int:
    from app.cli_batch import cmd_batch  # the batch machinery loads for `waypost batch` only

    return await cmd_batch(args, settings)


async def _cmd_doctor(args: argparse.Namespace, settings: Settings) -> int:
    from app.doctor import run_checks

    checks = await run_checks(settings)
    human = "\n".join(
        f"{'ok ' if c.ok else 'BAD'} {c.name:<9} {c.detail}"
        + (f"\n              fix: {c.fix}" if c.fix and not c.ok else "")
        for c in checks
    )
    _emit(args, [c.__dict__ for c in checks], human)
    return 0 if all(c.ok for c in checks) else 1


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "gui":  # the window paints first, then loads the settings (app/gui_boot.py)
        from app.gui_boot import open_window

        return open_window({"runs_dir": args.runs_dir})
    owner_only_umask()  # every file from here on is 0600, every folder 0700
    settings = _settings(args)
    check_display(bool(getattr(args, "headed", False)))
    runs_dir = usable_runs_dir(Path(settings.runs_dir).expanduser())  # a folder, or exit 2 with why
    tighten([runs_dir, config_dir()])
    configure_json_logging(path=str(runs_dir / "waypost.log"))  # JSON lines, correlated by run/step ids
    if args.command == "receipts":
        from app.cli_receipts import receipts_command

        return receipts_command(args, settings, _emit)
    commands = {
        "plan": _cmd_plan,
        "run": _cmd_run,
        "resume": _cmd_resume,
        "demo": _cmd_demo,
        "replay": _cmd_replay,
        "doctor": _cmd_doctor,
        "transcribe": cli_voice.cmd_transcribe,
        "eval": cli_eval.cmd_eval,
        "batch": _cmd_batch,
    }
    command = commands[args.command]

    async def watched() -> int:
        with args.stop.watch():
            return await command(args, settings)

    return asyncio.run(watched())


def _bad_input_errors() -> tuple[type[BaseException], ...]:
    """The exit-2 errors, with the named classes of the modules this process has imported (evaluated
    only when an exception escapes, so naming an error never loads its module)."""
    names = _BAD_INPUT_ERRORS
    found = (getattr(sys.modules[module], name, None) for module, name in names if module in sys.modules)
    loaded = tuple(e for e in found if isinstance(e, type) and issubclass(e, BaseException))
    return (BadInput, SettingsError, cli_voice.VoiceInputError, *loaded)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        args = parser.parse_args(["gui"] if has_display else ["demo"])
    args.stop = stop = Stop(as_json=bool(getattr(args, "json", False)))
    try:
        return _dispatch(args)
    except _bad_input_errors() as exc:
        print(scrub(f"waypost: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except EnvironmentProblem as exc:
        print(scrub(f"waypost: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return quiet_broken_pipe()
    except OSError as exc:  # a file or folder of this machine, named in the sentence
        print(scrub(f"waypost: {describe_os_error(exc)}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, asyncio.CancelledError):
        return stop.report(bool(getattr(args, "json", False)))


if __name__ == "__main__":
    sys.exit(main())
