"""JSON round-trips are lossless for every boundary model (property tests over generated values)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from executor.journal.events import RunEvent
from executor.models import CheckpointV1, EvidenceItem, RunBundleV1, StepRunV1
from planner.models import ExecutionPlan, GateKind, PlanMode, StepType, SubQueryRole

ids = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True)
text = st.text(max_size=30)
json_leaf = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | text
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ids, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def plans(draw: st.DrawFn) -> ExecutionPlan:
    n = draw(st.integers(1, 8))
    step_ids = [f"s{i}" for i in range(n)]
    gates = draw(st.lists(ids, max_size=3, unique=True))
    steps = []
    for i, sid in enumerate(step_ids):
        steps.append(
            {
                "step_id": sid,
                "type": draw(st.sampled_from([*StepType, "CUSTOM_TOOL"])),
                "name": draw(text),
                "depends_on": draw(st.lists(st.sampled_from(step_ids[:i]), unique=True)) if i else [],
                "optional": draw(st.booleans()),
                "policy_gate_id": draw(st.sampled_from([None, *gates])),
                "inputs": draw(st.dictionaries(ids, json_value, max_size=3)),
            }
        )
    return ExecutionPlan.model_validate(
        {
            "mode": draw(st.sampled_from(list(PlanMode))),
            "steps": steps,
            "policy_gates": [
                {
                    "gate_id": g,
                    "kind": draw(st.sampled_from(list(GateKind))),
                    "blocked_actions": draw(st.lists(ids, max_size=2)),
                }
                for g in gates
            ],
            "sub_queries": [
                {"q": q, "role": draw(st.sampled_from(list(SubQueryRole)))}
                for q in draw(st.lists(st.text(min_size=1, max_size=20), max_size=3))
            ],
            "budget": {
                "max_tool_calls": draw(st.integers(0, 500)),
                "max_time_ms": draw(st.integers(0, 10**7)),
            },
            "task": {"user_query": draw(text), "payload": draw(st.dictionaries(ids, text, max_size=3))},
            "reason_codes": draw(st.lists(ids, max_size=3)),
        }
    )


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(plans())
def test_plan_round_trip(plan: ExecutionPlan) -> None:
    again = ExecutionPlan.model_validate_json(plan.model_dump_json())
    assert again == plan
    assert again.model_dump_json() == plan.model_dump_json()


step_runs = st.builds(
    StepRunV1,
    step_id=ids,
    step_type=st.sampled_from([str(t) for t in StepType]),
    status=st.sampled_from(["SUCCESS", "FAILED", "SKIPPED"]),
    outputs=st.dictionaries(ids, json_value, max_size=3),
    evidence=st.lists(
        st.builds(EvidenceItem, source_url=st.just("http://127.0.0.1/x"), snippet=text), max_size=2
    ),
    error=st.none() | text,
)


@settings(max_examples=100)
@given(st.lists(step_runs, max_size=4), st.sampled_from(["SUCCESS", "PARTIAL", "NEEDS_CONFIRMATION"]))
def test_bundle_and_checkpoint_round_trip(runs: list[StepRunV1], status: str) -> None:
    bundle = RunBundleV1(
        trace_id="t",
        run_id="r",
        plan_id="p",
        exec_mode="HYBRID",
        run_status=status,
        step_runs=runs,
    )
    assert RunBundleV1.model_validate_json(bundle.model_dump_json()) == bundle
    chk = CheckpointV1(
        ref="chk://r/1", run_id="r", plan_id="p", trace_id="t", step_runs={r.step_id: r for r in runs}
    )
    assert CheckpointV1.model_validate_json(chk.model_dump_json()) == chk


def test_events_round_trip_through_the_union() -> None:
    from pydantic import TypeAdapter

    from executor.journal.events import RunClosed, StepBegun

    adapter: TypeAdapter[RunEvent] = TypeAdapter(RunEvent)
    bundle = RunBundleV1(trace_id="t", run_id="r", plan_id="p", exec_mode="HYBRID", run_status="SUCCESS")
    for event in (
        StepBegun(run_id="r", step_id="s", step_type="ACT"),
        RunClosed(run_id="r", bundle=bundle),
    ):
        assert adapter.validate_json(adapter.dump_json(event)) == event
