"""`waypost mcp`: Waypost's core as an MCP server (the official `mcp` SDK), over stdio or local HTTP.

Tools plan, run, read, resume, list and verify through the McpDesk (app/mcp_desk.py); resources give
a run's report and receipts. There is no approve tool, and no argument of any tool can approve or
loosen: gates stay with the person (docs/architecture.md, "MCP server"). Nothing is printed on
stdout but the protocol; logs go to stderr and the runs folder's log.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.tools import Tool
from pydantic import ConfigDict

from app.mcp_desk import ChannelRefusal, McpDesk
from common.secrecy import scrub
from executor.gates.tighten import Restrictions
from executor.run.service import UnknownRun
from executor.store.checkpoint_refs import CheckpointStoreError
from receipts.errors import ReceiptsError

P = ParamSpec("P")
R = TypeVar("R")

#: Failures a caller can act on: their sentence goes back as the tool's error.
_REFUSALS: tuple[type[Exception], ...] = (ChannelRefusal, UnknownRun, CheckpointStoreError, ReceiptsError)
_UNREADABLE: tuple[type[Exception], ...] = (*_REFUSALS, OSError)

INSTRUCTIONS = (
    "Waypost runs browser tasks in a real Chromium and leaves signed receipts. Every action step "
    "waits for the person's approval: a run that reaches a gate returns NEEDS_CONFIRMATION with a "
    "description in waiting_for_person; tell the person, who approves in the Waypost window or with "
    "`waypost approve RUN` in a terminal; then call run_status or resume_run. You cannot approve. "
    "Secrets go in tasks only as {{secret:NAME}} placeholders; the person gives the values."
)


def _as_tool_error(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    @functools.wraps(fn)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except _REFUSALS as exc:
            raise ToolError(scrub(str(exc))) from exc

    return call


def build_server(desk: McpDesk) -> MCPServer[Any]:
    async def plan_task(task: str, url: str | None = None) -> dict[str, Any]:
        return await desk.plan(task, url)

    async def run_task(
        task: str | None = None,
        plan: dict[str, Any] | None = None,
        url: str | None = None,
        no_submit: bool = False,
        blocked_actions: list[str] | None = None,
        decline_gates: bool = False,
    ) -> dict[str, Any]:
        try:
            restrictions = Restrictions(
                no_submit=no_submit, blocked_actions=blocked_actions or [], decline_gates=decline_gates
            )
        except ValueError as exc:
            raise ChannelRefusal(f"bad restriction: {exc}") from exc
        return await desk.run(task=task, plan=plan, url=url, restrictions=restrictions)

    async def run_status(run_id: str) -> dict[str, Any]:
        return desk.status(run_id)

    async def resume_run(run_id: str) -> dict[str, Any]:
        return await desk.resume(run_id)

    async def list_runs(limit: int = 20) -> list[dict[str, Any]]:
        return desk.list_runs(limit)

    async def verify_receipts(run_id: str) -> dict[str, Any]:
        return desk.verify(run_id)

    described: dict[Callable[..., Awaitable[Any]], str] = {
        plan_task: "Plan a browser task without running it; returns the plan (steps, gates).",
        run_task: (
            "Run a task (or a plan from plan_task) until it ends or reaches a gate. At a gate it "
            "returns NEEDS_CONFIRMATION and waiting_for_person: only the person can approve. "
            "no_submit, blocked_actions and decline_gates only add restrictions."
        ),
        run_status: "A run's status, reason, answer, and what it waits for.",
        resume_run: (
            "Continue a paused or interrupted run up to its end or its next unanswered gate "
            "(it never answers a gate)."
        ),
        list_runs: "The most recent runs, newest first.",
        verify_receipts: "Check a run's signed receipts: chain, signature and every file.",
    }
    tools = [_strict(Tool.from_function(_as_tool_error(fn), description=d)) for fn, d in described.items()]
    server: MCPServer[Any] = MCPServer("waypost", instructions=INSTRUCTIONS, log_level="WARNING", tools=tools)

    @server.resource("waypost://runs/{run_id}/report", mime_type="text/html")
    def run_report(run_id: str) -> str:
        """The run's self-contained HTML report (verdict, timeline, screenshots)."""
        return _read(desk.report_html, run_id)

    @server.resource("waypost://runs/{run_id}/receipts", mime_type="application/jsonl")
    def run_receipts(run_id: str) -> str:
        """The run's hash-chained receipts, one JSON record a line."""
        return _read(desk.receipts_jsonl, run_id)

    return server


def _strict(tool: Tool) -> Tool:
    """An argument the tool does not have is an error, never silently dropped: a caller asking for
    `approve` or `safe_mode` is told no rather than left to think it was heard."""
    base = tool.fn_metadata.arg_model

    class Strict(base):  # type: ignore[valid-type,misc]
        model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    tool.fn_metadata.arg_model = Strict
    tool.parameters = {**tool.parameters, "additionalProperties": False}
    return tool


def _read(reader: Callable[[str], str], run_id: str) -> str:
    try:
        return reader(run_id)
    except _UNREADABLE as exc:
        raise ResourceError(scrub(str(exc))) from exc
