"""`waypost`: the command line. Every command prints JSON with --json and exits with the codes of
docs/architecture.md."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app import cli_eval, cli_mcp, cli_voice
from app.cli_errors import (
    EnvironmentProblem,
    check_display,
    describe_os_error,
    quiet_broken_pipe,
    refuse_shared,
    usable_runs_dir,
)
from app.cli_parser import parse_arguments
from app.cli_secrets import SecretOptionError, argv_warning, missing_sentence, read_secrets
from app.cli_signals import Stop
from app.hardening import owner_only_umask, tighten
from app.settings import Settings, SettingsError, load_settings
from app.stopped import default_signals, signal_name
from common.moments import reached
from common.paths import config_dir, data_dir
from common.secrecy import live_secrets, scrub, scrub_data
from executor.gates.approval import ApprovalPolicy
from executor.journal.observability import configure_json_logging
from planner.model_words import time_line
from planner.models import ExecutionPlan

if TYPE_CHECKING:
    from executor.gates.confirm import ConfirmHandler
    from executor.models import RunBundleV1
    from executor.run.service import AgentCore
    from executor.store.checkpoint_store import CheckpointStore
    from planner.service import PlanResult

# Everything a command needs beyond the parser is imported inside that command: `waypost plan`
# must not load Playwright, the model client, numpy or Qt (docs/architecture.md, "Cold start").

#: Errors printed as one line with exit code 2, by module and class name. They are looked up only
#: when an exception escapes, and only in modules already loaded: an exception from a module that
#: was never imported cannot be of its type.
_BAD_INPUT_ERRORS = (
    ("planner.service", "PlannerConfigError"),
    ("planner.plan_file", "PlanFileError"),
    ("executor.run.plan_check", "PlanRejected"),
    ("executor.run.service", "UnknownRun"),
    ("executor.store.checkpoint_refs", "CheckpointStoreError"),
    ("receipts.errors", "ReceiptsError"),
    ("browser.discovery", "ChromiumNotFound"),
    ("browser.deadline", "BrowserDidNotStart"),
    ("app.profiles", "ProfileError"),
)

EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """A request the CLI cannot act on; printed as one line, exit code 2."""


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {"runs_dir": getattr(args, "runs_dir", None)}
    if getattr(args, "headed", False):
        overrides["headless"] = False
    if getattr(args, "trace", False):
        overrides["trace"] = True
    if getattr(args, "profile", None):
        overrides["profile"] = args.profile
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
    from executor.run.planning import plan_task

    result = await plan_task(args.task, llm=llm_settings(settings), url=args.url, planner=settings.planner)
    return _print_plan(args, result)


def _cmd_plan_rules(args: argparse.Namespace) -> int:
    """`plan --planner rules`: the same plan and output as `_cmd_plan`, with no loop or model client."""
    from executor.run.planning import plan_with_rules

    reached("command.started")
    return _print_plan(args, plan_with_rules(args.task, url=args.url))


def _print_plan(args: argparse.Namespace, result: PlanResult) -> int:
    if result.secrets:
        print(argv_warning(result.secrets), file=sys.stderr)
    _emit(args, json.loads(result.plan.model_dump_json()), _describe_plan(result.plan))
    return 0


async def _finish_run(args: argparse.Namespace, core: AgentCore, bundle: RunBundleV1) -> int:
    _emit(args, json.loads(bundle.model_dump_json()), _describe_bundle(bundle, core))
    return bundle.exit_code


async def _cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    if sum(map(bool, (args.task, args.plan_file, args.audio))) != 1:
        raise BadInput("give a TASK, --plan FILE or --audio FILE.wav (exactly one)")
    from app.wiring import build_core
    from planner.plan_file import read_plan_file

    spoken = await cli_voice.task_from_audio(args, settings) if args.audio else None
    if spoken is not None:
        args.task = spoken[0]
    core = build_core(settings)
    if args.plan_file:
        plan = read_plan_file(args.plan_file)
    else:
        planned = await core.plan(args.task, url=args.url, planner=settings.planner)
        plan = planned.plan
        if planned.secrets and spoken is None:  # typed on the command line, where others can read it
            print(argv_warning(planned.secrets), file=sys.stderr)
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
    args.stop.opened = lambda: _in_store(core.store, run_id)
    reached("run.named")
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


def _in_store(store: CheckpointStore, run_id: str) -> bool:
    """The run reached the run store, so `waypost resume` can continue it (a store that cannot be
    read now cannot say so: no resume command is promised)."""
    from executor.store.checkpoint_refs import CheckpointStoreError

    try:
        return store.has_run(run_id)
    except CheckpointStoreError:
        return False


def _in_store_of(settings: Settings, run_id: str) -> bool:
    """As `_in_store`, before this command has opened the store (a resume stopped early)."""
    from app.wiring import store_path
    from executor.store.checkpoint_refs import CheckpointStoreError
    from executor.store.checkpoint_store import CheckpointStore

    try:
        with CheckpointStore(store_path(Path(settings.runs_dir).expanduser())) as store:
            return _in_store(store, run_id)
    except CheckpointStoreError:
        return False


def _run_to_resume(ref: str, runs_dir: Path) -> str:
    """The run id `waypost resume` was given, or the id of the run folder it was given (a folder of
    this runs folder: its name is the id); anything else is a sentence saying what resume takes."""
    if "/" not in ref and ref not in ("", ".", ".."):
        return ref
    runs_dir = runs_dir.expanduser()
    folder = Path(ref).expanduser()
    if folder.is_dir() and folder.resolve().parent == runs_dir.resolve():
        return folder.name
    why = f"it is not a run folder of the runs folder {runs_dir}" if folder.exists() else "no such folder"
    raise BadInput(f"cannot resume {ref!r}: {why}; give a run id (`waypost receipts list` shows them)")


async def _cmd_resume(args: argparse.Namespace, settings: Settings) -> int:
    from app.progress import ProgressPrinter
    from app.wiring import build_core

    args.run_id = _run_to_resume(args.run_id, settings.runs_dir)
    args.stop.run_id = args.run_id
    args.stop.opened = lambda: _in_store_of(settings, args.run_id)
    core = build_core(settings)
    if not _in_store(core.store, args.run_id):
        core.store.close()
        raise BadInput(
            f"there is no run {args.run_id!r} to resume in {settings.runs_dir}; "
            "`waypost receipts list` shows the runs there"
        )
    answers = {ApprovalPolicy.ALL: True, ApprovalPolicy.NONE: False}
    policy = ApprovalPolicy(args.approve) if args.approve else settings.approve
    try:
        secrets = read_secrets(args.secret)
    except SecretOptionError as exc:
        raise BadInput(str(exc)) from exc
    with live_secrets(secrets.values()):
        try:
            core.supply_secrets(args.run_id, secrets)  # in memory only: values are never stored
        except ValueError as exc:  # a name the run never declared
            raise BadInput(str(exc)) from exc
        missing = core.missing_secrets(args.run_id)
        if missing:
            raise BadInput(missing_sentence(args.run_id, missing))
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
        report = await core.replay(
            folder.root,
            include_risky=args.include_risky,
            heal=args.heal,
            confirm=_confirm_handler(ApprovalPolicy.ASK) if args.heal else None,  # a heal asks on a terminal
        )
    finally:
        core.store.close()
    _emit(args, report.to_dict(), report.summary())
    return report.exit_code


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

        default_signals()  # the window's own loop answers them as it always has
        return open_window({"runs_dir": args.runs_dir})
    owner_only_umask()  # every file from here on is 0600, every folder 0700
    settings = _settings(args)
    reached("settings.read")
    check_display(bool(getattr(args, "headed", False)))
    runs_dir = usable_runs_dir(Path(settings.runs_dir).expanduser())  # a folder, or exit 2 with why
    refuse_shared([("runs folder", runs_dir), ("data folder", data_dir())])  # as ssh does
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
        "mcp": cli_mcp.cmd_mcp,
        "approve": cli_mcp.cmd_approve,
    }
    if args.command == "plan" and settings.planner == "rules":
        return _cmd_plan_rules(args)  # no event loop to start: the rules plan in plain Python
    command = commands[args.command]
    import asyncio  # here, not at the top: `plan --planner rules` starts without it

    async def watched() -> int:
        with args.stop.watch():
            reached("command.started")
            return await command(args, settings)

    return asyncio.run(watched())


def _bad_input_errors() -> tuple[type[BaseException], ...]:
    """The exit-2 errors, with the named classes of the modules this process has imported (evaluated
    only when an exception escapes, so naming an error never loads its module)."""
    names = _BAD_INPUT_ERRORS
    found = (getattr(sys.modules[module], name, None) for module, name in names if module in sys.modules)
    loaded = tuple(e for e in found if isinstance(e, type) and issubclass(e, BaseException))
    return (BadInput, SettingsError, cli_voice.VoiceInputError, cli_mcp.ApproveError, *loaded)


def main(argv: Sequence[str] | None = None) -> int:
    return run_arguments(parse_arguments(argv))


def run_arguments(args: argparse.Namespace) -> int:
    """Runs a parsed command line (app/cli_parser.py), with the exit codes of docs/architecture.md."""
    args.stop = stop = Stop(as_json=bool(getattr(args, "json", False)))
    reached("cli.parsed")
    try:
        return _dispatch(args)
    except _bad_input_errors() as exc:
        print(scrub(f"waypost: {exc}{_resume_hint(stop)}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except EnvironmentProblem as exc:
        print(scrub(f"waypost: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return quiet_broken_pipe()
    except OSError as exc:  # a file or folder of this machine, named in the sentence
        print(scrub(f"waypost: {describe_os_error(exc)}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except _stopped() as exc:
        if isinstance(exc, KeyboardInterrupt):  # before or after the command's own handlers
            stop.signal_name = signal_name(exc)
        return stop.report(bool(getattr(args, "json", False)))


def _stopped() -> tuple[type[BaseException], ...]:
    """A stop: Ctrl-C, or asyncio's cancellation when a command started a loop (evaluated only when
    an exception escapes; no loop ran if asyncio is not loaded)."""
    asyncio = sys.modules.get("asyncio")
    return (KeyboardInterrupt, asyncio.CancelledError) if asyncio is not None else (KeyboardInterrupt,)


def _resume_hint(stop: Stop) -> str:
    """For a problem met after the run was opened (a browser that would not start): the run waits."""
    if stop.run_id is None or not stop.opened():
        return ""
    run = stop.run_id
    return f" (run {run} is checkpointed: once that is fixed, `waypost resume {run}` continues it)"


if __name__ == "__main__":
    sys.exit(main())
