"""Acceptance checks and the behaviour of every exec mode, on fake tools."""

from __future__ import annotations

import re

import pytest

from executor.gates.approval import ApprovalPolicy
from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
from executor.models import Approval, ExecMode, RunStatus, RuntimeCtxV1, StepStatus
from executor.run.conductor import ResumeMismatch
from tests.support.conductor_harness import Harness, make_plan
from tests.support.fake_tools import FakeTool

OPEN = RuntimeCtxV1(safe_mode=False)
SAFE = RuntimeCtxV1()


def statuses(bundle) -> dict[str, StepStatus]:
    return {r.step_id: r.status for r in bundle.step_runs}


async def test_hybrid_runs_no_action_while_research_is_pending(harness: Harness) -> None:
    plan = make_plan(
        "C",
        [
            {"step_id": "a1", "type": "FORM_FILL"},
            {"step_id": "r1", "type": "WEB_SEARCH"},
            {"step_id": "r2", "type": "SUMMARIZE", "depends_on": ["r1"]},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.SUCCESS
    assert harness.started_order() == ["r1", "r2", "a1"]


async def test_action_in_safe_mode_pauses_with_checkpoint(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "o1", "type": "OPEN_URL"}, {"step_id": "a1", "type": "FORM_FILL"}])
    bundle = await harness.conductor().run(plan, SAFE)
    assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION
    assert bundle.checkpoint_ref is not None
    assert re.fullmatch(rf"chk://{bundle.run_id}/\d+", bundle.checkpoint_ref)
    pending = bundle.pending_user_input
    assert pending is not None
    assert (pending.kind, pending.gate_id, pending.step_id) == ("CONFIRMATION", "gate_action", "a1")
    assert pending.checkpoint_ref == bundle.checkpoint_ref
    assert harness.tools["form_fill"].calls == []
    assert bundle.actions_taken == ["open_url"]


async def test_resume_with_confirmed_gate_runs_the_action_and_repeats_nothing(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "o1", "type": "OPEN_URL"}, {"step_id": "a1", "type": "FORM_FILL"}])
    paused = await harness.conductor().run(plan, SAFE)
    resumed = await harness.conductor().run(
        plan,
        RuntimeCtxV1(resume_checkpoint_ref=paused.checkpoint_ref, confirmed_gates={"gate_action": True}),
    )
    assert resumed.run_status is RunStatus.SUCCESS
    assert resumed.run_id == paused.run_id
    assert len(harness.tools["open_url"].calls) == 1
    assert len(harness.tools["form_fill"].calls) == 1
    assert resumed.actions_taken == ["open_url", "form_fill"]
    stored = harness.store.approvals(paused.run_id)
    assert [(a.gate_id, a.step_id, a.approved) for a in stored] == [("gate_action", "a1", True)]


async def test_an_approval_covers_one_step_not_every_action(harness: Harness) -> None:
    plan = make_plan(
        "B",
        [
            {"step_id": "a1", "type": "FORM_FILL"},
            {"step_id": "a2", "type": "CLICK_NAV", "depends_on": ["a1"]},
        ],
    )
    first = await harness.conductor().run(plan, SAFE)
    second = await harness.conductor().run(
        plan, RuntimeCtxV1(resume_checkpoint_ref=first.checkpoint_ref, confirmed_gates={"gate_action": True})
    )
    assert second.run_status is RunStatus.NEEDS_CONFIRMATION
    assert second.pending_user_input is not None and second.pending_user_input.step_id == "a2"
    third = await harness.conductor().run(
        plan,
        RuntimeCtxV1(
            resume_checkpoint_ref=second.checkpoint_ref,
            approvals=[Approval(run_id=first.run_id, gate_id="gate_action", step_id="a2", approved=True)],
        ),
    )
    assert third.run_status is RunStatus.SUCCESS
    assert [s for s, _ in harness.tools["form_fill"].calls] == ["a1"]
    assert [s for s, _ in harness.tools["click"].calls] == ["a2"]


async def test_approval_for_another_run_is_ignored(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
    foreign = Approval(run_id="run_other", gate_id="gate_action", step_id="a1", approved=True)
    bundle = await harness.conductor().run(plan, RuntimeCtxV1(approvals=[foreign]))
    assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION


async def test_declined_gate_ends_blocked_policy(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
    bundle = await harness.conductor().run(plan, RuntimeCtxV1(approval_policy=ApprovalPolicy.NONE))
    assert bundle.run_status is RunStatus.BLOCKED_POLICY
    assert statuses(bundle) == {"a1": StepStatus.BLOCKED_GATE}
    assert harness.tools["form_fill"].calls == []
    # The run is over: its answer says what was declined in words, never "Waiting for you: gate ...".
    step = plan.steps[0].name or plan.steps[0].type_name
    assert bundle.final_answer == f"Not done: “{step}” was declined at its gate, so nothing more was done."


class ScriptedConfirm:
    def __init__(self, answer: ConfirmAnswer) -> None:
        self.answer = answer
        self.requests: list[ConfirmRequest] = []

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        self.requests.append(request)
        return self.answer


@pytest.mark.parametrize(
    ("answer", "status"),
    [
        (ConfirmAnswer.APPROVE, RunStatus.SUCCESS),
        (ConfirmAnswer.DENY, RunStatus.BLOCKED_POLICY),
        (ConfirmAnswer.PAUSE, RunStatus.NEEDS_CONFIRMATION),
    ],
)
async def test_interactive_confirmation(harness: Harness, answer: ConfirmAnswer, status: RunStatus) -> None:
    plan = make_plan(
        "C",
        [
            {"step_id": "r1", "type": "WEB_SEARCH"},
            {"step_id": "a1", "type": "ACT", "depends_on": ["r1"], "policy_gate_id": "g"},
        ],
        policy_gates=[{"gate_id": "g", "kind": "submit", "reason": "prefill", "blocked_actions": ["submit"]}],
    )
    handler = ScriptedConfirm(answer)
    bundle = await harness.conductor(confirm=handler).run(plan, SAFE)
    assert bundle.run_status is status
    (request,) = handler.requests
    assert (request.step_id, request.decision.gate_id) == ("a1", "g")
    assert request.decision.blocked_actions == ["submit", "purchase", "delete"]  # the task asked for neither
    assert request.checkpoint_ref is not None
    assert len(harness.tools["act"].calls) == (1 if answer is ConfirmAnswer.APPROVE else 0)
    kinds = [e.kind for e in harness.bus.history]
    assert "gate_asked" in kinds
    assert ("gate_answered" in kinds) is (answer is not ConfirmAnswer.PAUSE)


async def test_approve_all_keeps_blocked_actions_on_the_decision(harness: Harness) -> None:
    plan = make_plan(
        "B",
        [{"step_id": "a1", "type": "ACT"}],
        task={"user_query": "prefill, don't submit", "constraints": {"no_submit": True}},
    )
    seen: list[list[str]] = []
    harness.tools["act"].on_call = lambda ctx: seen.append(ctx.blocked_actions)
    bundle = await harness.conductor().run(plan, RuntimeCtxV1(approval_policy=ApprovalPolicy.ALL))
    assert bundle.run_status is RunStatus.SUCCESS
    assert seen == [["submit", "purchase", "delete"]]
    assert bundle.step_runs[0].gate is not None
    assert bundle.step_runs[0].gate.decided_by == "policy:all"


async def test_budget_exceeded_aborts_at_once(harness: Harness) -> None:
    plan = make_plan(
        "A",
        [{"step_id": f"r{i}", "type": "WEB_SEARCH"} for i in range(3)],
        budget={"max_tool_calls": 1},
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.ABORTED_BUDGET
    assert len(harness.tools["web_search"].calls) == 1
    assert bundle.checkpoint_ref is not None
    assert "tool calls" in bundle.reason


async def test_token_budget_aborts(harness: Harness) -> None:
    harness.tools["compute"] = FakeTool("compute", tokens=600)
    plan = make_plan(
        "A", [{"step_id": f"c{i}", "type": "COMPUTE"} for i in range(3)], budget={"max_tokens": 1000}
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.ABORTED_BUDGET
    assert "tokens" in bundle.reason
    assert len(harness.tools["compute"].calls) == 2


async def test_time_budget_cuts_a_hanging_step(harness: Harness) -> None:
    harness.tools["read_pdf"] = FakeTool("read_pdf", hang=True)
    plan = make_plan("A", [{"step_id": "p1", "type": "READ_PDF"}], budget={"max_time_ms": 50})
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.ABORTED_BUDGET
    assert "time" in bundle.reason


async def test_unknown_step_type_fails_the_step_not_the_run(harness: Harness) -> None:
    plan = make_plan(
        "A",
        [
            {"step_id": "x1", "type": "FIN_PRICE_FETCH", "family": "RETRIEVE"},
            {"step_id": "r1", "type": "WEB_SEARCH"},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.PARTIAL
    (x1,) = [r for r in bundle.step_runs if r.step_id == "x1"]
    assert (x1.status, x1.error_code) == (StepStatus.FAILED, "unknown_step_type")
    assert statuses(bundle)["r1"] is StepStatus.SUCCESS


async def test_every_bundle_carries_its_ids(harness: Harness) -> None:
    plans = [
        make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]),
        make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}]),
        make_plan("CLARIFY", [], plan_status="NEEDS_CLARIFICATION", clarification_question="Which site?"),
    ]
    for plan in plans:
        bundle = await harness.conductor().run(plan, SAFE)
        assert bundle.trace_id == plan.trace_id
        assert bundle.plan_id == plan.plan_id
        assert bundle.run_id.startswith("run_")
        assert bundle.run_status in RunStatus


async def test_plan_not_ready_asks_the_plans_question(harness: Harness) -> None:
    plan = make_plan("CLARIFY", [], plan_status="NEEDS_CLARIFICATION", clarification_question="Which site?")
    bundle = await harness.conductor().run(plan, SAFE)
    assert bundle.run_status is RunStatus.NEEDS_CLARIFICATION
    assert bundle.pending_user_input is not None
    assert bundle.pending_user_input.question == "Which site?"


async def test_retryable_failure_is_retried_once(harness: Harness) -> None:
    harness.tools["web_search"] = FakeTool("web_search", fail_times=1, evidence_per_call=1)
    bundle = await harness.conductor().run(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]), OPEN)
    assert bundle.run_status is RunStatus.SUCCESS
    calls = bundle.step_runs[0].tool_calls
    assert [(c.attempt, c.status) for c in calls] == [(1, "ERROR"), (2, "OK")]
    assert bundle.budget_used.tool_calls_used == 2


async def test_fatal_failure_is_not_retried_and_action_only_fails(harness: Harness) -> None:
    harness.tools["form_fill"] = FakeTool("form_fill", fatal=True)
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}, {"step_id": "a2", "type": "CLICK_NAV"}])
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.FAILED
    assert len(harness.tools["form_fill"].calls) == 1
    assert harness.tools["click"].calls == []
    assert bundle.checkpoint_ref is not None


async def test_clarify_mode_turns_a_failure_into_a_question(harness: Harness) -> None:
    harness.tools["open_url"] = FakeTool("open_url", fail_times=5)
    plan = make_plan("CLARIFY", [{"step_id": "o1", "type": "OPEN_URL"}])
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.NEEDS_CLARIFICATION
    assert len(harness.tools["open_url"].calls) == 1  # clarify mode never retries
    assert bundle.pending_user_input is not None and bundle.pending_user_input.question


async def test_clarify_mode_allows_one_search_and_refuses_login(harness: Harness) -> None:
    plan = make_plan(
        "CLARIFY",
        [
            {"step_id": "s1", "type": "WEB_SEARCH"},
            {"step_id": "s2", "type": "WEB_SEARCH"},
            {"step_id": "o1", "type": "OPEN_URL", "policy_gate_id": "login", "depends_on": ["s1"]},
        ],
        policy_gates=[{"gate_id": "login", "kind": "login"}],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.BLOCKED_POLICY
    runs = statuses(bundle)
    assert runs["s1"] is StepStatus.SUCCESS
    assert runs["s2"] is StepStatus.SKIPPED
    assert runs["o1"] is StepStatus.BLOCKED_GATE


async def test_research_only_refuses_actions(harness: Harness) -> None:
    plan = make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}, {"step_id": "a1", "type": "FORM_FILL"}])
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.PARTIAL
    (a1,) = [r for r in bundle.step_runs if r.step_id == "a1"]
    assert (a1.status, a1.error_code) == (StepStatus.SKIPPED, "refused_by_mode")
    assert harness.tools["form_fill"].calls == []


async def test_action_only_refuses_search_but_runs_open_url(harness: Harness) -> None:
    plan = make_plan(
        "B",
        [
            {"step_id": "s1", "type": "WEB_SEARCH"},
            {"step_id": "o1", "type": "OPEN_URL"},
            {"step_id": "c1", "type": "COMPUTE"},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert statuses(bundle) == {"s1": StepStatus.SKIPPED, "o1": StepStatus.SUCCESS, "c1": StepStatus.SUCCESS}
    assert bundle.run_status is RunStatus.PARTIAL


async def test_action_then_research_reads_state_first(harness: Harness) -> None:
    plan = make_plan(
        "D",
        [
            {"step_id": "r1", "type": "RETRIEVE"},
            {"step_id": "o1", "type": "OPEN_URL"},
            {"step_id": "a1", "type": "ACT", "depends_on": ["o1"]},
            {"step_id": "c1", "type": "COMPUTE", "depends_on": ["r1"]},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN, exec_mode=None)
    assert bundle.exec_mode is ExecMode.ACTION_THEN_RESEARCH
    assert harness.started_order() == ["o1", "a1", "r1", "c1"]


async def test_exec_mode_override_wins(harness: Harness) -> None:
    plan = make_plan("C", [{"step_id": "r1", "type": "WEB_SEARCH"}, {"step_id": "a1", "type": "FORM_FILL"}])
    bundle = await harness.conductor().run(plan, OPEN, exec_mode=ExecMode.RESEARCH_ONLY)
    assert bundle.exec_mode is ExecMode.RESEARCH_ONLY
    assert harness.tools["form_fill"].calls == []


async def test_optional_failure_does_not_block_dependents(harness: Harness) -> None:
    harness.tools["fetch_data"] = FakeTool("fetch_data", fatal=True)
    plan = make_plan(
        "A",
        [
            {"step_id": "r1", "type": "RETRIEVE"},
            {"step_id": "f1", "type": "FETCH_DATA", "depends_on": ["r1"], "optional": True},
            {"step_id": "c1", "type": "COMPUTE", "depends_on": ["r1", "f1"]},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert statuses(bundle) == {"r1": StepStatus.SUCCESS, "f1": StepStatus.FAILED, "c1": StepStatus.SUCCESS}
    assert bundle.run_status is RunStatus.SUCCESS


async def test_required_failure_skips_dependents_and_reports_partial(harness: Harness) -> None:
    harness.tools["fetch_data"] = FakeTool("fetch_data", fatal=True)
    plan = make_plan(
        "A",
        [
            {"step_id": "r1", "type": "RETRIEVE"},
            {"step_id": "f1", "type": "FETCH_DATA", "depends_on": ["r1"]},
            {"step_id": "c1", "type": "COMPUTE", "depends_on": ["f1"]},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.PARTIAL
    (c1,) = [r for r in bundle.step_runs if r.step_id == "c1"]
    assert (c1.status, c1.error_code) == (StepStatus.SKIPPED, "dependency_failed")
    assert "f1" in bundle.reason


async def test_research_mode_stops_gathering_when_evidence_is_enough(harness: Harness) -> None:
    plan = make_plan(
        "A",
        [
            *({"step_id": f"s{i}", "type": "WEB_SEARCH"} for i in range(5)),
            {"step_id": "sum", "type": "SUMMARIZE", "depends_on": [f"s{i}" for i in range(5)]},
        ],
        verify_criteria={"min_evidence": 2},
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.SUCCESS
    assert len(harness.tools["web_search"].calls) == 2
    assert len(harness.tools["summarize"].calls) == 1
    assert bundle.evidence_count == 2


async def test_duplicate_evidence_is_counted_once(harness: Harness) -> None:
    plan = make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH", "max_attempts": 1}])
    harness.tools["web_search"] = FakeTool("web_search", evidence_per_call=3)
    bundle = await harness.conductor().run(plan, OPEN)
    again = await harness.conductor().run(
        plan.model_copy(update={"plan_id": "plan_again"}), OPEN
    )  # a second run has its own ledger
    assert bundle.evidence_count == 3 and again.evidence_count == 3


async def test_answer_cites_evidence_by_number(harness: Harness) -> None:
    harness.tools["summarize"] = FakeTool("summarize", outputs={"summary": "Plan X costs less [1], see [7]."})
    plan = make_plan(
        "A",
        [
            {"step_id": "r1", "type": "WEB_SEARCH"},
            {"step_id": "s1", "type": "SUMMARIZE", "depends_on": ["r1"]},
        ],
    )
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.final_answer is not None
    assert "Plan X costs less [1]" in bundle.final_answer
    assert "[7]" not in bundle.final_answer  # no citation may point at missing evidence
    assert [c.number for c in bundle.citations] == [1]
    assert bundle.citations[0].source_url == bundle.evidence[0].source_url


async def test_required_citations_without_evidence_is_partial(harness: Harness) -> None:
    plan = make_plan("A", [{"step_id": "c1", "type": "COMPUTE"}], verify_criteria={"require_citations": True})
    bundle = await harness.conductor().run(plan, OPEN)
    assert bundle.run_status is RunStatus.PARTIAL


async def test_resume_with_another_plan_is_refused(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
    paused = await harness.conductor().run(plan, SAFE)
    other = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
    with pytest.raises(ResumeMismatch):
        await harness.conductor().run(other, RuntimeCtxV1(resume_checkpoint_ref=paused.checkpoint_ref))


async def test_events_tell_the_whole_story(harness: Harness) -> None:
    plan = make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}, {"step_id": "s1", "type": "SUMMARIZE"}])
    bundle = await harness.conductor().run(plan, OPEN)
    kinds = [e.kind for e in harness.bus.history]
    assert kinds[0] == "run_opened" and kinds[-1] == "run_closed"
    assert kinds.count("step_begun") == 2 and kinds.count("step_recorded") == 2
    assert "evidence_added" in kinds and "tool_called" in kinds
    assert harness.bus.history[-1].bundle == bundle  # type: ignore[union-attr]


async def test_subscriber_sees_events_until_run_finished(harness: Harness) -> None:
    import asyncio

    plan = make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}])
    stream = harness.bus.subscribe()

    async def collect() -> list[str]:
        return [event.kind async for event in stream]

    collector = asyncio.create_task(collect())
    await harness.conductor().run(plan, OPEN)
    kinds = await asyncio.wait_for(collector, timeout=5)
    assert kinds[0] == "run_opened" and kinds[-1] == "run_closed"


async def test_run_history_is_in_the_store(harness: Harness) -> None:
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}], task={"user_query": "fill the form"})
    bundle = await harness.conductor().run(plan, SAFE)
    (summary,) = harness.store.list_runs()
    assert (summary.run_id, summary.task) == (bundle.run_id, "fill the form")
    assert summary.status == "NEEDS_CONFIRMATION"
    stored = harness.store.bundle(bundle.run_id)
    assert stored is not None and stored.run_status is RunStatus.NEEDS_CONFIRMATION


def test_citations_are_per_source_page() -> None:
    """Three chunks of one page and one of another: two citations, markers renumbered to match."""
    from executor.models import EvidenceItem, StepRunV1
    from executor.tools.answer import AnswerAssembler

    page, other = "http://127.0.0.1/pricing", "http://127.0.0.1/terms"
    evidence = [
        EvidenceItem(source_url=page, title="Pricing", snippet="a"),
        EvidenceItem(source_url=other, title="Terms", snippet="b"),
        EvidenceItem(source_url=page + "#part2", snippet="c"),
        EvidenceItem(source_url=page + "/", snippet="d"),
    ]
    summary = StepRunV1(
        step_id="s1",
        step_type="SUMMARIZE",
        status=StepStatus.SUCCESS,
        outputs={"summary": "A [1][3], B [2], C [9]."},
    )
    answer, citations = AnswerAssembler().assemble([summary], evidence, [])
    assert [(c.number, c.source_url) for c in citations] == [(1, page), (2, other)]
    assert answer.startswith("A [1], B [2], C .")


async def test_resumed_bundle_keeps_the_ui_actions_of_the_first_leg(harness: Harness) -> None:
    plan = make_plan(
        "B",
        [
            {"step_id": "a1", "type": "FORM_FILL"},
            {"step_id": "a2", "type": "CLICK_NAV", "depends_on": ["a1"]},
        ],
    )
    first = await harness.conductor().run(
        plan, RuntimeCtxV1(approval_policy=ApprovalPolicy.ALL, safe_mode=True)
    )
    assert first.receipt is not None and first.receipt["actions"] == ["form_fill", "click"]
    paused = await harness.conductor().run(
        make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}, {"step_id": "a2", "type": "CLICK_NAV"}]), SAFE
    )
    approve_a1 = RuntimeCtxV1(
        resume_checkpoint_ref=paused.checkpoint_ref, confirmed_gates={"gate_action": True}
    )
    middle = await harness.conductor().run(harness.store.load_plan(paused.run_id), approve_a1)
    assert middle.run_status is RunStatus.NEEDS_CONFIRMATION
    last = await harness.conductor().run(
        harness.store.load_plan(paused.run_id),
        RuntimeCtxV1(resume_checkpoint_ref=middle.checkpoint_ref, confirmed_gates={"gate_action": True}),
    )
    assert last.run_status is RunStatus.SUCCESS
    assert last.receipt is not None and last.receipt["actions"] == ["form_fill", "click"]


async def test_a_registered_runner_serves_a_custom_step_type(harness: Harness) -> None:
    """The registry grows (FIN_PRICE_FETCH -> its runner) without touching the conductor."""
    from executor.tools.registry import RunnerRegistry, ToolRunner

    harness.tools["fin_price_fetch"] = FakeTool("fin_price_fetch", evidence_per_call=1)
    registry = RunnerRegistry()
    registry.register("fin_price_fetch", ToolRunner("fin_price_fetch"))
    conductor = harness.conductor()
    conductor.registry = registry
    plan = make_plan("A", [{"step_id": "p1", "type": "FIN_PRICE_FETCH", "family": "FETCH_DATA"}])
    bundle = await conductor.run(plan, OPEN)
    assert bundle.run_status is RunStatus.SUCCESS
    assert bundle.actions_taken == ["fin_price_fetch"]


async def test_the_facade_runs_resumes_and_overrides_the_mode(tmp_path, harness: Harness) -> None:
    """AgentCore, the one run facade: a run pauses at its gate, resumes with the answer, and a run may
    be held to one execution mode."""
    from executor.run.service import AgentCore

    core = AgentCore(store=harness.store, tools=harness.tools, runs_dir=tmp_path)
    plan = make_plan("C", [{"step_id": "r1", "type": "WEB_SEARCH"}, {"step_id": "a1", "type": "FORM_FILL"}])
    paused = await core.run(plan)
    assert paused.run_status is RunStatus.NEEDS_CONFIRMATION
    resumed = await core.resume(paused.run_id, approve_pending=True)
    assert resumed.run_status is RunStatus.SUCCESS
    research_only = await core.run(plan, exec_mode=ExecMode.RESEARCH_ONLY)
    assert research_only.exec_mode is ExecMode.RESEARCH_ONLY
    assert len(harness.tools["form_fill"].calls) == 1
