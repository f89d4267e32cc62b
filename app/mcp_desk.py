"""What an assistant may do over MCP: plan, run, read, resume, list and verify; never approve.

The desk is the MCP server's one way into the core (`executor.run.service.AgentCore`), without the SDK,
so its rules are tested directly:

- every run is in safe mode and asks at its gates with nobody to answer, so a gate pauses the run
  (NEEDS_CONFIRMATION, checkpointed) and the caller gets a plain description of what waits;
- no call passes an approval, an approval policy that approves, or `confirmed_gates`; `resume`
  continues a run up to its next unanswered gate;
- tool arguments are `Restrictions` (executor/gates/tighten.py): they only add care;
- secrets travel as `{{secret:NAME}}` placeholders only; a task holding a value is refused, and values
  come from the person (`waypost mcp --secret`, the window, or `waypost approve --secret`).

See docs/architecture.md, "MCP server".
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from common.contracts import new_id
from common.secrecy import placeholder_names
from executor.gates.approval import ApprovalPolicy
from executor.gates.tighten import Restrictions, tighten
from executor.models import PendingUserInput, RunBundleV1
from executor.run.service import AgentCore, UnknownRun
from executor.store.channel_runs import note_channel_run
from planner.models import ExecutionPlan
from planner.plan_file import plan_problems
from receipts.attest import check_run
from receipts.layout import RunFolder
from receipts.report import render_report


class ChannelRefusal(ValueError):
    """A call the MCP channel refuses; the sentence goes back to the assistant as the tool's error."""


def how_to_approve(run_id: str) -> str:
    return (
        f"Only the person can approve it: in the Waypost window (Waiting for you), or with "
        f"`waypost approve {run_id}` in a terminal. No MCP call can approve it."
    )


def describe_pending(run_id: str, pending: PendingUserInput) -> str:
    """The gate in plain words, for the assistant to pass on to the person."""
    step = f"step '{pending.step_name}'" if pending.step_name else f"step {pending.step_id}"
    why = f": {pending.message}" if pending.message else ""
    blocked = (
        f" Even if approved, these stay blocked: {', '.join(pending.blocked_actions)}."
        if pending.blocked_actions
        else ""
    )
    return f"Waypost is waiting for approval before {step}{why}.{blocked} {how_to_approve(run_id)}"


class McpDesk:
    """One per MCP server process; `secrets` are the values the person gave that server."""

    def __init__(self, core: AgentCore, *, secrets: Mapping[str, str] | None = None) -> None:
        self.core = core
        self._secrets = dict(secrets or {})

    # --- planning and running -----------------------------------------------------------------

    async def plan(self, task: str, url: str | None = None) -> dict[str, Any]:
        result = await self.core.plan(task, url=url, planner="auto")
        if result.secrets:
            raise ChannelRefusal(_LITERAL_SECRET)
        return json.loads(result.plan.model_dump_json())  # type: ignore[no-any-return]

    async def run(
        self,
        *,
        task: str | None = None,
        plan: Mapping[str, Any] | None = None,
        url: str | None = None,
        restrictions: Restrictions | None = None,
    ) -> dict[str, Any]:
        """Plans the task (or takes the plan), adds the restrictions, runs it until it ends or waits."""
        if (task is None) == (plan is None):
            raise ChannelRefusal("give exactly one of task or plan")
        restrictions = restrictions or Restrictions()
        chosen = await self._chosen_plan(task, plan, url)
        chosen = tighten(chosen, restrictions)
        run_id = new_id("run")
        note_channel_run(self.core.runs_dir, run_id, task or _plan_task(chosen))
        bundle = await self.core.run(
            chosen,
            run_id=run_id,
            safe_mode=True,  # the channel never runs without a question before each action step
            approval_policy=ApprovalPolicy.NONE if restrictions.decline_gates else ApprovalPolicy.ASK,
            confirm=None,  # nobody on this channel answers a gate: the run pauses for the person
            secrets=self._held_for(chosen),
        )
        return self.describe(bundle)

    async def resume(self, run_id: str) -> dict[str, Any]:
        """Continues a paused or interrupted run up to its end or its next unanswered gate."""
        bundle = await self.core.resume(
            run_id,
            approve_pending=None,  # an answer comes from the person, never from this channel
            safe_mode=True,
            approval_policy=ApprovalPolicy.ASK,
            confirm=None,
            secrets=self._declared_held(run_id),
        )
        return self.describe(bundle)

    # --- reading --------------------------------------------------------------------------------

    def status(self, run_id: str) -> dict[str, Any]:
        summary = self._summary(run_id)
        bundle = self.core.store.bundle(run_id)
        if bundle is not None and summary.status == str(bundle.run_status):
            return self.describe(bundle)
        document: dict[str, Any] = {"run_id": run_id, "status": summary.status, "task": summary.task}
        if summary.pending is not None and summary.pending.kind == "CONFIRMATION":
            document["waiting_for_person"] = describe_pending(run_id, summary.pending)
        return document

    def list_runs(self, limit: int = 20) -> list[dict[str, Any]]:
        return [
            {"run_id": r.run_id, "status": r.status, "task": r.task, "updated_at": r.updated_at.isoformat()}
            for r in self.core.history(limit=max(1, min(limit, 200)))
        ]

    def verify(self, run_id: str) -> dict[str, Any]:
        check = check_run(self._folder(run_id).root)
        return {"run_id": run_id, "verdict": check.verdict.value, "ok": check.ok, "summary": check.summary()}

    def report_html(self, run_id: str) -> str:
        return render_report(self._folder(run_id).root)

    def receipts_jsonl(self, run_id: str) -> str:
        return self._folder(run_id).receipts.read_text(encoding="utf-8")

    def describe(self, bundle: RunBundleV1) -> dict[str, Any]:
        """What the assistant reads back: status, why, the answer, and what waits for the person."""
        document: dict[str, Any] = {
            "run_id": bundle.run_id,
            "status": str(bundle.run_status),
            "reason": bundle.reason,
            "answer": bundle.final_answer,
            "actions_taken": bundle.actions_taken,
            "report": f"waypost://runs/{bundle.run_id}/report",
            "receipts": f"waypost://runs/{bundle.run_id}/receipts",
        }
        pending = bundle.pending_user_input
        if pending is not None and pending.kind == "CONFIRMATION":
            document["waiting_for_person"] = describe_pending(bundle.run_id, pending)
        elif pending is not None and pending.question:
            document["question"] = pending.question
        return document

    # --- helpers --------------------------------------------------------------------------------

    async def _chosen_plan(
        self, task: str | None, plan: Mapping[str, Any] | None, url: str | None
    ) -> ExecutionPlan:
        if plan is not None:
            try:
                return ExecutionPlan.model_validate(dict(plan))
            except ValidationError as exc:
                raise ChannelRefusal(f"invalid plan: {plan_problems(exc)}") from exc
        result = await self.core.plan(task or "", url=url, planner="auto")
        if result.secrets:
            raise ChannelRefusal(_LITERAL_SECRET)
        return result.plan

    def _held_for(self, plan: ExecutionPlan) -> dict[str, str]:
        names = set(placeholder_names(plan.model_dump_json()))
        return {name: value for name, value in self._secrets.items() if name in names}

    def _declared_held(self, run_id: str) -> dict[str, str] | None:
        missing = set(self.core.missing_secrets(run_id))
        held = {name: value for name, value in self._secrets.items() if name in missing}
        return held or None

    def _summary(self, run_id: str) -> Any:
        for summary in self.core.history(limit=10_000):
            if summary.run_id == run_id:
                return summary
        raise UnknownRun(f"no run {run_id!r}")

    def _folder(self, run_id: str) -> RunFolder:
        folder = RunFolder.for_run(self.core.runs_dir, run_id)
        if not folder.exists():
            raise UnknownRun(f"no receipts for run {run_id!r}")
        return folder


_LITERAL_SECRET = (
    "the task holds a secret value; Waypost takes secrets only as {{secret:NAME}} placeholders. Write "
    "the placeholder in the task and have the person give the value (waypost mcp --secret NAME, the "
    "Waypost window, or waypost approve RUN --secret NAME). The value was not kept."
)


def _plan_task(plan: ExecutionPlan) -> str:
    return plan.task.user_query if plan.task is not None else plan.plan_id
