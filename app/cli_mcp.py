"""`waypost mcp` (serve the core to an assistant) and `waypost approve RUN` (the person answers a gate).

`approve` is the terminal half of "gates stay with the person": it needs a terminal on stdin (the
stdio MCP server has none, and an assistant's shell usually has none either), shows the gate the run
waits at, and asks there. On yes the run continues in this process, asking any later gate the same
way; secrets the run needs are asked for without echo (or given with --secret NAME=env:VAR).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from app.cli_secrets import SecretOptionError, read_secrets
from app.settings import Settings
from common.secrecy import live_secrets, placeholder_names, scrub

if TYPE_CHECKING:
    from executor.run.service import AgentCore


class ApproveError(ValueError):
    """`waypost approve` cannot ask here, or the run waits for nothing; exit 2 with the sentence."""


async def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    from app.mcp_desk import McpDesk
    from app.mcp_server import build_server
    from app.wiring import build_core

    try:
        secrets = read_secrets(args.secret, ask=_no_prompt if not args.http else _ask_on_tty)
    except SecretOptionError as exc:
        raise ApproveError(str(exc)) from exc
    core = build_core(settings)
    server = build_server(McpDesk(core, secrets=secrets))
    try:
        with live_secrets(secrets.values()):
            if args.http:
                from app.mcp_http import serve_http

                await serve_http(server, args.port)
            else:
                await server.run_stdio_async()
    finally:
        core.store.close()
    return 0


def _no_prompt(prompt: str) -> str:
    raise SecretOptionError(
        f"{prompt.strip(' :')}: the stdio server's stdin is the assistant's channel; give "
        "--secret NAME=env:VAR (the variable set in the assistant's server config)"
    )


def _ask_on_tty(prompt: str) -> str:
    if not sys.stdin.isatty():
        return _no_prompt(prompt)
    import getpass

    return getpass.getpass(prompt)


async def cmd_approve(args: argparse.Namespace, settings: Settings) -> int:
    from app.terminal_confirm import TerminalConfirm
    from app.wiring import build_core
    from executor.gates.approval import ApprovalPolicy

    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        raise ApproveError(
            "waypost approve needs a terminal: the person answers the gate there (or in the window)"
        )
    args.stop.run_id = args.run_id
    core = build_core(settings)
    try:
        _check_waiting(core, args.run_id)
        try:
            given = read_secrets(args.secret)
        except SecretOptionError as exc:
            raise ApproveError(str(exc)) from exc
        secrets = {**_ask_missing(core, args.run_id, given), **given}
        with live_secrets(secrets.values()):
            bundle = await core.resume(
                args.run_id,
                approve_pending=None,  # asked below, on this terminal, through the gate desk
                safe_mode=settings.safe_mode,
                approval_policy=ApprovalPolicy.ASK,
                confirm=TerminalConfirm(),
                secrets=secrets or None,
            )
    finally:
        core.store.close()
    line = f"{bundle.run_status}  run {bundle.run_id}  ({bundle.reason})"
    print(scrub(bundle.model_dump_json(indent=2) if args.json else line))
    return bundle.exit_code


def _check_waiting(core: AgentCore, run_id: str) -> None:
    from executor.run.service import UnknownRun

    summary = next((r for r in core.history(limit=10_000) if r.run_id == run_id), None)
    if summary is None:
        raise UnknownRun(f"no run {run_id!r} in {core.store.path}")
    if summary.pending is None or summary.pending.kind != "CONFIRMATION":
        raise ApproveError(f"run {run_id} waits for no approval (status {summary.status})")


def _ask_missing(core: AgentCore, run_id: str, given: dict[str, str]) -> dict[str, str]:
    """Values for the run's secrets that this process does not have, asked for without echo."""
    import getpass

    plan = core.store.load_plan(run_id)
    names = set(core.missing_secrets(run_id)) | set(placeholder_names(plan.model_dump_json()))
    return {name: getpass.getpass(f"secret {name}: ") for name in sorted(names - set(given))}
