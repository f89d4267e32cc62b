"""AgentCore: the one facade the CLI and the UI bridge drive (plan, run, resume, history).

It owns nothing Qt-specific and nothing browser-specific: tools and step runners are handed in by
the composition root (app/), so tests drive the same facade with fake tools.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from pydantic import SecretStr

from browser.options import LaunchOptions
from common.secrecy import placeholder_names
from executor.gates.approval import ApprovalPolicy
from executor.gates.confirm import ConfirmHandler
from executor.journal.events import EventSink
from executor.models import Approval, ExecMode, RunBundleV1, RuntimeCtxV1
from executor.run.conductor import RunConductor
from executor.run.plan_check import check_plan
from executor.run.planning import plan_task
from executor.run.replay import ReplayReport, replay_to_folder
from executor.run.resources import ResourcesFactory, RunResources
from executor.run.revision import LLMReplanner, PlanReviser
from executor.store.checkpoint_store import CheckpointStore
from executor.store.rows import RunSummary
from executor.tools.boundary import Tool
from executor.tools.registry import RunnerRegistry
from planner.llm_settings import LLMSettings
from planner.models import ExecutionPlan
from planner.service import PlannerChoice, PlanResult
from receipts.signing import KeySource


class UnknownRun(LookupError):
    """No run with that id in the store."""


class UndeclaredSecret(ValueError):
    """A value was supplied for a secret the run's task never declared: it would be used nowhere."""


#: Builds a run's resources; the third argument holds the secrets the run's task declared.
SecretAwareResources = Callable[[str, Path, Mapping[str, str]], RunResources]


class AgentCore:
    def __init__(
        self,
        *,
        store: CheckpointStore,
        tools: Mapping[str, Tool],
        runs_dir: Path,
        registry: RunnerRegistry | None = None,
        llm: LLMSettings | None = None,
        rate_overrides: dict[str, tuple[float, int]] | None = None,
        resources: SecretAwareResources | None = None,
        launch_options: LaunchOptions | None = None,
        signer: KeySource | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`signer` signs what the core writes itself (a replay's receipts); runs get theirs through
        `resources`."""
        self.clock = clock
        self.signer = signer  # the run budgets' clock; tests move it instead of sleeping
        self.launch_options = launch_options
        self.store = store
        self.resources = resources
        self.tools = tools
        self.runs_dir = runs_dir
        self.registry = registry or RunnerRegistry()
        self.llm = llm
        self.rate_overrides = rate_overrides
        #: Secrets declared by tasks planned in this process, by plan id; never written anywhere.
        self._secrets: dict[str, dict[str, SecretStr]] = {}

    async def plan(
        self,
        task: str,
        *,
        url: str | None = None,
        title: str | None = None,
        selection: str = "",
        files: Sequence[str] = (),
        planner: PlannerChoice = "auto",
    ) -> PlanResult:
        result = await plan_task(
            task, llm=self.llm, url=url, title=title, selection=selection, files=files, planner=planner
        )
        if result.secrets:
            self._secrets[result.plan.plan_id] = dict(result.secrets)
        return result

    def run_dir(self, run_id: str) -> Path:
        return self.runs_dir / run_id

    async def run(
        self,
        plan: ExecutionPlan,
        *,
        safe_mode: bool = True,
        approval_policy: ApprovalPolicy = ApprovalPolicy.ASK,
        exec_mode: ExecMode | None = None,
        events: EventSink | None = None,
        confirm: ConfirmHandler | None = None,
        run_id: str | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> RunBundleV1:
        """`secrets` gives values for the plan's placeholders (a plan file has no task text to hold
        them); they join what planning declared, in memory only. A plan this install cannot run as
        written is a PlanRejected before anything starts (executor/run/plan_check.py)."""
        check_plan(plan, self.registry)
        if secrets:
            held = self._secrets.setdefault(plan.plan_id, {})
            held.update({name: SecretStr(value) for name, value in secrets.items()})
        runtime = RuntimeCtxV1(
            safe_mode=safe_mode, approval_policy=approval_policy, run_id=run_id, runs_dir=str(self.runs_dir)
        )
        return await self._conductor(plan.plan_id, events, confirm).run(plan, runtime, exec_mode)

    async def resume(
        self,
        run_id: str,
        *,
        approvals: Sequence[Approval] = (),
        approve_pending: bool | None = None,
        safe_mode: bool = True,
        approval_policy: ApprovalPolicy = ApprovalPolicy.ASK,
        events: EventSink | None = None,
        confirm: ConfirmHandler | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> RunBundleV1:
        """Continues a paused or interrupted run. `approve_pending` answers the gate it stopped at;
        `secrets` re-supplies declared values a run resumed in another process no longer has."""
        if not any(r.run_id == run_id for r in self.store.list_runs(limit=10_000)):
            raise UnknownRun(f"no run {run_id!r} in {self.store.path}")
        if secrets:
            self.supply_secrets(run_id, secrets)
        plan = self.store.load_plan(run_id)
        state = self.store.load(run_id)
        given = list(approvals)
        answered = {(a.gate_id, a.step_id) for a in state.approvals}
        if (
            approve_pending is not None
            and state.pending is not None
            and state.pending.gate_id
            and state.pending.step_id
            # a run killed after the gate was answered still shows it pending: the answer stands
            and (state.pending.gate_id, state.pending.step_id) not in answered
        ):
            given.append(
                Approval(
                    run_id=run_id,
                    gate_id=state.pending.gate_id,
                    step_id=state.pending.step_id,
                    approved=approve_pending,
                )
            )
        runtime = RuntimeCtxV1(
            safe_mode=safe_mode,
            approval_policy=approval_policy,
            resume_checkpoint_ref=run_id,
            approvals=given,
            runs_dir=str(self.runs_dir),
        )
        return await self._conductor(plan.plan_id, events, confirm).run(plan, runtime)

    async def replay(
        self,
        run: str | Path,
        *,
        include_risky: bool = False,
        confirm: ConfirmHandler | None = None,
        heal: bool = False,
    ) -> ReplayReport:
        """QA replay of a recorded run (its id, or its folder), without any model, into a new run
        folder of its own, signed like every run; with a `confirm` handler it passes the same gates
        as the original run. The one replay path: the CLI and the window both come here."""
        return await replay_to_folder(
            run if isinstance(run, Path) else self.run_dir(run),
            self.runs_dir,
            launch_options=self.launch_options,
            include_risky=include_risky,
            confirm=confirm,
            heal=heal,
            signer=self.signer,
        )

    def missing_secrets(self, run_id: str) -> list[str]:
        """Names the run's task declared that this process holds no value for (values are never
        stored, so a run planned in an earlier session needs them again before it types them)."""
        plan = self.store.load_plan(run_id)
        held = self._secrets.get(plan.plan_id, {})
        return sorted(_declared(plan) - set(held))

    def supply_secrets(self, run_id: str, secrets: Mapping[str, str]) -> None:
        """Gives a run its declared secrets again, in memory only (the window asks for them)."""
        plan = self.store.load_plan(run_id)
        unknown = sorted(set(secrets) - _declared(plan))
        if unknown:
            raise UndeclaredSecret(f"run {run_id!r} declared no secret named {', '.join(unknown)}")
        held = self._secrets.setdefault(plan.plan_id, {})
        held.update({name: SecretStr(value) for name, value in secrets.items()})

    def history(self, limit: int = 100) -> list[RunSummary]:
        return self.store.list_runs(limit=limit)

    def _resources_for(self, plan_id: str) -> ResourcesFactory | None:
        """Binds the plan's declared secrets (known only in this process) to its run's resources."""
        factory = self.resources
        if factory is None:
            return None
        secrets = {name: value.get_secret_value() for name, value in self._secrets.get(plan_id, {}).items()}
        return lambda run_id, run_dir: factory(run_id, run_dir, secrets)

    def _conductor(
        self, plan_id: str, events: EventSink | None, confirm: ConfirmHandler | None
    ) -> RunConductor:
        return RunConductor(
            tools=self.tools,
            store=self.store,
            registry=self.registry,
            events=events,
            confirm=confirm,
            rate_overrides=self.rate_overrides,
            resources=self._resources_for(plan_id),
            reviser=PlanReviser(self._replanner()),
            clock=self.clock,
        )

    def _replanner(self) -> LLMReplanner | None:
        return LLMReplanner(self.llm) if self.llm is not None and self.llm.configured else None


def _declared(plan: ExecutionPlan) -> set[str]:
    """The secrets a run needs: those its task declared and any placeholder its plan holds (a plan
    file names its secrets only as placeholders)."""
    named = {ref.name for ref in (plan.task.secrets if plan.task else [])}
    return named | set(placeholder_names(plan.model_dump_json()))
