"""Hypothesis over random valid plans: mixed families, deps, gates, modes, failing tools, approvals.

Properties: the run never raises; every bundle carries its ids; in safe mode no action step runs
without an approval; in HYBRID no action starts while research it does not feed is unfinished;
resuming after NEEDS_CONFIRMATION never repeats a completed step.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from executor.gates.approval import ApprovalPolicy
from executor.models import ExecMode, RunBundleV1, RunStatus, RuntimeCtxV1, StepStatus
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan, StepType
from tests.support.conductor_harness import Harness
from tests.support.fake_tools import FakeTool, fake_toolbox

TYPES = [*StepType, "NO_SUCH_TOOL"]


@dataclass
class Case:
    plan: ExecutionPlan
    safe_mode: bool
    policy: ApprovalPolicy
    failing: dict[str, str]


@st.composite
def cases(draw: st.DrawFn) -> Case:
    n = draw(st.integers(1, 9))
    ids = [f"s{i}" for i in range(n)]
    gates = draw(st.lists(st.sampled_from(["g_login", "g_submit", "g_pay"]), unique=True, max_size=3))
    steps = [
        {
            "step_id": sid,
            "type": draw(st.sampled_from(TYPES)),
            "depends_on": draw(st.lists(st.sampled_from(ids[:i]), unique=True, max_size=3)) if i else [],
            "optional": draw(st.booleans()),
            "policy_gate_id": draw(st.sampled_from([None, None, *gates])),
        }
        for i, sid in enumerate(ids)
    ]
    plan = ExecutionPlan.model_validate(
        {
            "mode": draw(st.sampled_from(["A", "B", "C", "D", "CLARIFY"])),
            "steps": steps,
            "policy_gates": [
                {"gate_id": g, "kind": g.removeprefix("g_").replace("pay", "payment")} for g in gates
            ],
            "budget": {"max_tool_calls": draw(st.integers(0, 30))},
            "verify_criteria": {"min_evidence": draw(st.integers(0, 4))},
        }
    )
    keys = ["web_search", "open_url", "retrieve", "form_fill", "act", "compute", "summarize"]
    failing = draw(st.dictionaries(st.sampled_from(keys), st.sampled_from(["fatal", "flaky"]), max_size=3))
    return Case(plan, draw(st.booleans()), draw(st.sampled_from(list(ApprovalPolicy))), failing)


def toolbox(case: Case) -> dict[str, FakeTool]:
    tools = fake_toolbox()
    for key, how in case.failing.items():
        tools[key] = FakeTool(key, fatal=how == "fatal", fail_times=1 if how == "flaky" else 0)
    return tools


def after_action(plan: ExecutionPlan) -> set[str]:
    """Steps that depend, directly or not, on an action step (HYBRID lets these come after)."""
    dependents: dict[str, list[str]] = {s.step_id: [] for s in plan.steps}
    for s in plan.steps:
        for d in s.depends_on:
            dependents[d].append(s.step_id)
    seen: set[str] = set()
    stack = [c for s in plan.steps if s.is_action for c in dependents[s.step_id]]
    while stack:
        sid = stack.pop()
        if sid not in seen:
            seen.add(sid)
            stack.extend(dependents[sid])
    return seen


def check_bundle(case: Case, bundle: RunBundleV1, harness: Harness) -> None:
    assert bundle.trace_id == case.plan.trace_id and bundle.plan_id == case.plan.plan_id
    assert bundle.run_id and bundle.run_status in RunStatus
    steps = {s.step_id: s for s in case.plan.steps}
    for run in bundle.step_runs:
        step = steps[run.step_id]
        ran = bool(run.tool_calls)
        if ran and step.is_action and case.safe_mode:
            assert run.gate is not None and run.gate.decided_by is not None, f"{run.step_id} ran unapproved"
        if ran and bundle.exec_mode is ExecMode.RESEARCH_ONLY:
            assert not step.is_action


def check_hybrid_barrier(case: Case, harness: Harness) -> None:
    if case.plan.mode != "C":
        return
    exempt = after_action(case.plan)
    research = {s.step_id for s in case.plan.steps if not s.is_action and s.step_id not in exempt}
    finished: set[str] = set()
    for event in harness.bus.history:
        if event.kind == "step_recorded":
            finished.add(event.step_run.step_id)
        elif event.kind == "step_begun" and event.step_id not in research:
            step = next(s for s in case.plan.steps if s.step_id == event.step_id)
            if step.is_action:
                assert research <= finished, f"{event.step_id} started before research {research - finished}"


async def run_case(case: Case) -> None:
    with CheckpointStore.in_memory() as store:
        harness = Harness(store, toolbox(case))
        runtime = RuntimeCtxV1(safe_mode=case.safe_mode, approval_policy=case.policy)
        first = await harness.conductor().run(case.plan, runtime)
        check_bundle(case, first, harness)
        check_hybrid_barrier(case, harness)
        if first.run_status is not RunStatus.NEEDS_CONFIRMATION:
            return
        done = {r.step_id for r in first.step_runs if r.status is StepStatus.SUCCESS}
        calls_before = harness.called_steps()
        assert first.pending_user_input is not None and first.pending_user_input.gate_id
        resumed = await harness.conductor().run(
            case.plan,
            RuntimeCtxV1(
                safe_mode=case.safe_mode,
                resume_checkpoint_ref=first.checkpoint_ref,
                confirmed_gates={first.pending_user_input.gate_id: True},
            ),
        )
        check_bundle(case, resumed, harness)
        # called_steps is grouped per tool, so compare counts of step ids, not positions.
        all_calls = harness.called_steps()
        repeated = {sid for sid in done if all_calls.count(sid) > calls_before.count(sid)}
        assert not repeated, f"resume repeated completed steps {repeated}"
        assert resumed.run_id == first.run_id


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_random_plans_keep_the_invariants(case: Case) -> None:
    asyncio.run(run_case(case))
