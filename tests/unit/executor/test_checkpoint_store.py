"""CheckpointStore on real SQLite files: round trips, refs, approvals, history, restarts and kills."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from executor.models import (
    Approval,
    BudgetStateV1,
    Citation,
    EvidenceItem,
    ExecMode,
    GateDecisionV1,
    GateVerdict,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    StepRunV1,
    StepStatus,
    ToolCallV1,
)
from executor.store.checkpoint_refs import CheckpointStoreError, UnknownCheckpoint, parse_ref
from executor.store.checkpoint_store import CheckpointStore
from executor.store.rows import RunSummary
from executor.store.schema import SCHEMA_VERSION
from planner.models import Budget, ExecutionPlan, PlanMode, PolicyGate, Step, StepType, TaskSpecV1

REPO_ROOT = Path(__file__).resolve().parents[3]
T0 = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


def make_plan(plan_id: str = "plan_1") -> ExecutionPlan:
    return ExecutionPlan(
        plan_id=plan_id,
        trace_id=f"trace_{plan_id}",
        mode=PlanMode.C,
        task=TaskSpecV1(task_id="tsk_1", user_query="research then fill the form"),
        steps=[
            Step(step_id="s1", type=StepType.WEB_SEARCH, inputs={"q": "datafeed"}),
            Step(step_id="s2", type="FIN_PRICE_FETCH", depends_on=["s1"]),
            Step(step_id="s3", type=StepType.FORM_FILL, depends_on=["s2"], policy_gate_id="gate_action"),
        ],
        policy_gates=[PolicyGate(gate_id="gate_action", reason="fills a form", blocked_actions=["submit"])],
        budget=Budget(max_tool_calls=7),
        created_at=T0,
    )


def make_step(step_id: str, status: StepStatus = StepStatus.SUCCESS, **extra: object) -> StepRunV1:
    fields: dict[str, object] = {
        "step_id": step_id,
        "step_type": "WEB_SEARCH",
        "status": status,
        "tool_calls": [ToolCallV1(tool_name="search", args={"q": "x"}, duration_ms=3.5, tokens=12)],
        "outputs": {"final_url": f"https://example.test/{step_id}", "rows": [1, 2.5, None, {"a": "é"}]},
        "actions": [f"open {step_id}"],
        "gate": GateDecisionV1(gate_id="gate_action", decision=GateVerdict.ALLOW, step_id=step_id),
        "started_at": datetime(2026, 1, 2, 3, 4, 5, 600_000, tzinfo=UTC),
        "duration_ms": 12.25,
    }
    return StepRunV1.model_validate({**fields, **extra})


def evidence(n: int) -> EvidenceItem:
    return EvidenceItem(
        evidence_id=f"ev{n}", source_url=f"https://example.test/{n}", snippet=f"fact {n}", retrieved_at=T0
    )


def save(store: CheckpointStore, run_id: str, step: StepRunV1, *ev: EvidenceItem, used: int = 1) -> None:
    store.save_step(
        run_id,
        step,
        new_evidence=list(ev),
        budget=BudgetStateV1(tool_calls_used=used, time_ms_used=10 * used),
        last_url=f"https://example.test/after/{step.step_id}",
    )


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "dir" / "runs.db"  # the store makes missing parent dirs


@pytest.fixture
def store(db_path: Path) -> Iterator[CheckpointStore]:
    with CheckpointStore(db_path) as s:
        s.start_run(run_id="run_1", plan=make_plan(), exec_mode=ExecMode.HYBRID, task="the task")
        yield s


# --- round trips ---------------------------------------------------------------------------------


def test_file_is_wal_with_schema_version(store: CheckpointStore, db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    try:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        raw.close()


def test_plan_round_trips(store: CheckpointStore) -> None:
    assert store.load_plan("run_1") == make_plan()


def test_save_step_round_trips_state(store: CheckpointStore) -> None:
    step = make_step("s1", error=None, outputs={"x": [1, {"y": None}]})
    save(store, "run_1", step, evidence(1), evidence(2), used=3)

    cp = store.load("run_1")
    assert cp.step_runs == {"s1": step}
    assert cp.evidence == [evidence(1), evidence(2)]
    assert cp.budget == BudgetStateV1(tool_calls_used=3, time_ms_used=30)
    assert cp.actions_taken == ["open s1"]
    assert cp.last_url == "https://example.test/after/s1"
    assert (cp.run_id, cp.plan_id, cp.trace_id) == ("run_1", "plan_1", "trace_plan_1")
    assert cp.ref == "chk://run_1/0"
    assert cp.pending is None
    assert cp.finished_step_ids == {"s1"}


def test_save_step_twice_replaces_the_step_and_keeps_order(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1", StepStatus.RUNNING), evidence(1))
    save(store, "run_1", make_step("s2"), used=2)
    done = make_step("s1", StepStatus.FAILED, error="timeout", error_code="TIMEOUT")
    save(store, "run_1", done, evidence(1), evidence(3), used=3)  # ev1 again: not duplicated

    cp = store.load("run_1")
    assert list(cp.step_runs) == ["s1", "s2"]
    assert cp.step_runs["s1"] == done
    assert [e.evidence_id for e in cp.evidence] == ["ev1", "ev3"]
    assert cp.budget.tool_calls_used == 3


def test_load_by_ref_is_the_snapshot_and_by_run_id_the_latest(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1"), evidence(1))
    ref = store.save_checkpoint("run_1", None)
    save(store, "run_1", make_step("s2"), evidence(2), used=2)

    snap = store.load(ref)
    assert snap.ref == ref
    assert snap.created_at >= store.list_runs()[0].created_at
    assert list(snap.step_runs) == ["s1"]
    assert [e.evidence_id for e in snap.evidence] == ["ev1"]
    assert snap.budget.tool_calls_used == 1

    live = store.load("run_1")
    assert list(live.step_runs) == ["s1", "s2"]
    assert live.budget.tool_calls_used == 2
    assert store.load("chk://run_1/0") == live


def test_checkpoints_are_numbered_per_run_and_continue_after_reopen(db_path: Path) -> None:
    with CheckpointStore(db_path) as s:
        s.start_run(run_id="a", plan=make_plan(), exec_mode="HYBRID")
        s.start_run(run_id="b", plan=make_plan(), exec_mode="HYBRID")
        assert [s.save_checkpoint("a", None) for _ in range(3)] == [f"chk://a/{n}" for n in (1, 2, 3)]
        assert s.save_checkpoint("b", None) == "chk://b/1"
    with CheckpointStore(db_path) as s:
        assert s.save_checkpoint("a", None) == "chk://a/4"


def test_pending_checkpoint_sets_status_and_carries_its_ref(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1"))
    pending = PendingUserInput(kind="CONFIRMATION", message="fill?", gate_id="gate_action", step_id="s3")
    ref = store.save_checkpoint("run_1", pending)

    expected = pending.model_copy(update={"checkpoint_ref": ref})
    assert store.load(ref).pending == expected
    assert store.load("run_1").pending == expected
    [summary] = store.list_runs()
    assert (summary.status, summary.pending, summary.checkpoint_ref) == ("NEEDS_CONFIRMATION", expected, ref)

    store.save_checkpoint("run_1", PendingUserInput(kind="CLARIFICATION", question="which plan?"))
    assert store.list_runs()[0].status == RunStatus.NEEDS_CLARIFICATION

    store.save_checkpoint("run_1", None)  # no pending: status stays, pending clears
    [summary] = store.list_runs()
    assert (summary.status, summary.pending) == ("NEEDS_CLARIFICATION", None)


# --- approvals -----------------------------------------------------------------------------------


def test_approvals_are_scoped_and_a_later_decision_replaces(store: CheckpointStore) -> None:
    store.start_run(run_id="run_2", plan=make_plan(), exec_mode="HYBRID")
    store.record_approval(Approval(run_id="run_1", gate_id="g", step_id="s1", approved=True))
    store.record_approval(Approval(run_id="run_1", gate_id="g", step_id="s2", approved=True))
    store.record_approval(Approval(run_id="run_1", gate_id="h", step_id="s1", approved=True))
    store.record_approval(Approval(run_id="run_2", gate_id="g", step_id="s1", approved=True))
    denial = Approval(run_id="run_1", gate_id="g", step_id="s1", approved=False, note="changed my mind")
    store.record_approval(denial)

    scopes = {(a.gate_id, a.step_id): a.approved for a in store.approvals("run_1")}
    assert scopes == {("g", "s1"): False, ("g", "s2"): True, ("h", "s1"): True}
    assert denial in store.approvals("run_1")
    assert [(a.run_id, a.gate_id, a.step_id) for a in store.approvals("run_2")] == [("run_2", "g", "s1")]


def test_an_approval_given_after_the_pause_is_visible_when_loading_that_checkpoint(
    store: CheckpointStore,
) -> None:
    ref = store.save_checkpoint("run_1", PendingUserInput(kind="CONFIRMATION", gate_id="g", step_id="s3"))
    approval = Approval(run_id="run_1", gate_id="g", step_id="s3", approved=True)
    store.record_approval(approval)
    assert store.load(ref).approvals == [approval]
    assert store.load("run_1").approvals == [approval]


# --- runs, bundles and history -------------------------------------------------------------------


def test_start_run_again_keeps_state(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1"), evidence(1))
    before = store.list_runs()[0]
    store.start_run(run_id="run_1", plan=make_plan(), exec_mode="HYBRID", task="ignored on resume")
    after = store.list_runs()[0]
    assert list(store.load("run_1").step_runs) == ["s1"]
    assert after.task == "the task"
    assert after.created_at == before.created_at
    assert after.updated_at >= before.updated_at


def test_each_start_of_a_run_is_one_more_leg(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1"))
    assert store.leg("run_1") == 1
    for _ in range(2):  # two resumes
        store.start_run(run_id="run_1", plan=make_plan(), exec_mode="HYBRID")
    assert store.leg("run_1") == 3


def test_a_schema_2_file_gains_the_leg_count(db_path: Path) -> None:
    with CheckpointStore(db_path) as s:
        s.start_run(run_id="run_1", plan=make_plan(), exec_mode=ExecMode.HYBRID)
        save(s, "run_1", make_step("s1"))
    with closing(sqlite3.connect(db_path)) as raw:  # as schema 2 left it: no legs column
        raw.execute("ALTER TABLE runs DROP COLUMN legs")
        raw.execute("PRAGMA user_version = 2")
        raw.commit()
    with CheckpointStore(db_path) as s:
        assert s.leg("run_1") == 1 and list(s.load("run_1").step_runs) == ["s1"]


def test_start_run_rejects_another_plan_and_unknown_modes(store: CheckpointStore) -> None:
    with pytest.raises(CheckpointStoreError, match="plan_2"):
        store.start_run(run_id="run_1", plan=make_plan("plan_2"), exec_mode="HYBRID")
    with pytest.raises(CheckpointStoreError, match="SIDEWAYS"):
        store.start_run(run_id="run_9", plan=make_plan(), exec_mode="SIDEWAYS")
    with pytest.raises(CheckpointStoreError, match="without '/'"):
        store.start_run(run_id="a/b", plan=make_plan(), exec_mode="HYBRID")


def test_finish_run_stores_the_bundle(store: CheckpointStore) -> None:
    assert store.bundle("run_1") is None
    bundle = RunBundleV1(
        trace_id="trace_plan_1",
        run_id="run_1",
        plan_id="plan_1",
        exec_mode=ExecMode.HYBRID,
        run_status=RunStatus.PARTIAL,
        final_answer="half done [1]",
        citations=[Citation(number=1, source_url="https://example.test/1")],
        evidence=[evidence(1)],
        evidence_count=1,
        step_runs=[make_step("s1")],
        receipt={"final_url": "https://example.test/x"},
    )
    store.finish_run("run_1", bundle)
    assert store.bundle("run_1") == bundle
    assert store.list_runs()[0].status == "PARTIAL"
    with pytest.raises(CheckpointStoreError, match="run_2"):
        store.finish_run("run_1", bundle.model_copy(update={"run_id": "run_2"}))


def test_list_runs_newest_first_with_fields(store: CheckpointStore) -> None:
    store.start_run(run_id="run_2", plan=make_plan("p2"), exec_mode="RESEARCH_ONLY", run_dir="/runs/run_2")
    store.start_run(run_id="run_3", plan=make_plan("p3"), exec_mode=ExecMode.ACTION_ONLY, task="t3")

    runs = store.list_runs()
    assert [r.run_id for r in runs] == ["run_3", "run_2", "run_1"]
    assert runs[0].created_at >= runs[1].created_at >= runs[2].created_at
    second = runs[1]
    assert isinstance(second, RunSummary)
    assert (second.plan_id, second.trace_id, second.exec_mode) == ("p2", "trace_p2", "RESEARCH_ONLY")
    assert (second.status, second.run_dir, second.pending, second.checkpoint_ref) == (
        "RUNNING",
        "/runs/run_2",
        None,
        None,
    )
    assert second.created_at.tzinfo is not None
    assert [r.run_id for r in store.list_runs(limit=2)] == ["run_3", "run_2"]


def test_list_runs_names_the_page_a_run_was_given(store: CheckpointStore) -> None:
    """The page comes out of the plan row; a plan row that is not JSON (or names no page) gives
    None and the run still lists."""
    given = make_plan("p2").model_copy(
        update={"steps": [Step(step_id="s1", type=StepType.OPEN_URL, inputs={"url": "http://a.test/x"})]}
    )
    store.start_run(run_id="run_2", plan=given, exec_mode="RESEARCH_ONLY")
    store.start_run(run_id="run_3", plan=make_plan("p3"), exec_mode="RESEARCH_ONLY")
    with closing(sqlite3.connect(store.path)) as conn, conn:
        conn.execute("UPDATE plans SET data = '{not json' WHERE run_id = 'run_3'")
    pages = {r.run_id: (r.page, r.status) for r in store.list_runs()}
    assert pages["run_2"] == ("http://a.test/x", "RUNNING")
    assert pages["run_3"] == (None, "RUNNING") and pages["run_1"][0] is None


def test_delete_run_removes_everything(store: CheckpointStore) -> None:
    save(store, "run_1", make_step("s1"), evidence(1))
    store.save_checkpoint("run_1", None)
    store.record_approval(Approval(run_id="run_1", gate_id="g", step_id="s1", approved=True))
    store.delete_run("run_1")
    assert store.list_runs() == []
    with pytest.raises(UnknownCheckpoint):
        store.load("chk://run_1/1")
    store.start_run(run_id="run_1", plan=make_plan(), exec_mode="HYBRID")  # same id starts empty
    cp = store.load("run_1")
    assert (cp.step_runs, cp.evidence, cp.approvals) == ({}, [], [])


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.load("run_nope"),
        lambda s: s.load("chk://run_nope/1"),
        lambda s: s.load("chk://run_1/7"),
        lambda s: s.load_plan("run_nope"),
        lambda s: s.bundle("run_nope"),
        lambda s: s.approvals("run_nope"),
        lambda s: s.save_checkpoint("run_nope", None),
        lambda s: save(s, "run_nope", make_step("s1")),
        lambda s: s.record_approval(Approval(run_id="run_nope", gate_id="g", step_id="s", approved=True)),
        lambda s: s.delete_run("run_nope"),
    ],
)
def test_unknown_run_or_ref(store: CheckpointStore, call: object) -> None:
    with pytest.raises(UnknownCheckpoint, match=r"run_nope|chk://run_1/7"):
        call(store)  # type: ignore[operator]


@pytest.mark.parametrize(
    "ref",
    ["chk://", "chk://run_1", "chk://run_1/", "chk://run_1/x", "chk://run_1/-1", "chk:/run_1/1",
     "chk://a/b/1", "chk://run_1/01", "chk://run 1/1", "chk://run_1/1 ", "chk://run_1/1\n", "CHK://run_1/1"],
)  # fmt: skip
def test_malformed_ref(store: CheckpointStore, ref: str) -> None:
    with pytest.raises(CheckpointStoreError, match="malformed checkpoint ref") as info:
        store.load(ref)
    assert not isinstance(info.value, UnknownCheckpoint)


def test_parse_ref() -> None:
    assert parse_ref("chk://run_ab12/17") == ("run_ab12", 17)
    with pytest.raises(CheckpointStoreError, match="expected 'chk://<run_id>/<n>'"):
        parse_ref("run_ab12/17")


def test_corrupt_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.write_bytes(b"this is not a database, just bytes\n" * 200)
    with pytest.raises(CheckpointStoreError, match=str(path)):
        CheckpointStore(path)


def test_newer_schema_is_refused(db_path: Path) -> None:
    CheckpointStore(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(CheckpointStoreError, match="newer"):
        CheckpointStore(db_path)


def test_corrupt_row_gives_store_error(store: CheckpointStore, db_path: Path) -> None:
    save(store, "run_1", make_step("s1"))
    raw = sqlite3.connect(db_path)
    with raw:
        raw.execute("UPDATE plans SET data = '{'")
        raw.execute("UPDATE runs SET budget_json = '[]'")
        raw.execute("UPDATE step_runs SET data = '{\"step_id\": 3}'")
    raw.close()
    for call in (lambda: store.load_plan("run_1"), lambda: store.load("run_1")):
        with pytest.raises(CheckpointStoreError, match="corrupt"):
            call()


def test_unusable_path_and_closed_store(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(CheckpointStoreError, match="cannot open"):
        CheckpointStore(blocker / "runs.db")
    s = CheckpointStore(tmp_path / "ok.db")
    s.close()
    s.close()  # twice is harmless
    with pytest.raises(CheckpointStoreError, match=r"ok\.db"):
        s.list_runs()


# --- restarts ------------------------------------------------------------------------------------


def test_everything_survives_reopen(db_path: Path) -> None:
    approval = Approval(run_id="run_1", gate_id="gate_action", step_id="s3", approved=True)
    with CheckpointStore(db_path) as s:
        s.start_run(run_id="run_1", plan=make_plan(), exec_mode="HYBRID", task="t", run_dir="/r")
        save(s, "run_1", make_step("s1"), evidence(1))
        ref = s.save_checkpoint("run_1", PendingUserInput(kind="CONFIRMATION", gate_id="gate_action"))
        s.record_approval(approval)
        before = (s.load(ref), s.load("run_1"), s.list_runs())
    with CheckpointStore(db_path) as s:
        assert (s.load(ref), s.load("run_1"), s.list_runs()) == before
        assert s.load_plan("run_1") == make_plan()
        assert s.approvals("run_1") == [approval]


def test_in_memory_store_works() -> None:
    with CheckpointStore.in_memory() as s:
        s.start_run(run_id="r", plan=make_plan(), exec_mode="HYBRID")
        save(s, "r", make_step("s1"))
        assert list(s.load("r").step_runs) == ["s1"]


_CHILD = """
import sys
from executor.store.checkpoint_store import CheckpointStore
from executor.models import BudgetStateV1, EvidenceItem, StepRunV1, StepStatus

store = CheckpointStore(sys.argv[1])
i = 0
while True:  # runs until killed; a full stdout pipe only pauses it
    store.save_step(
        "run_k",
        StepRunV1(
            step_id=f"s{i}", step_type="OPEN_URL", status=StepStatus.SUCCESS,
            outputs={"i": i}, actions=[f"a{i}"],
        ),
        new_evidence=[EvidenceItem(evidence_id=f"ev{i}", source_url=f"https://example.test/{i}")],
        budget=BudgetStateV1(tool_calls_used=i + 1),
        last_url=f"https://example.test/{i}",
    )
    print(i, flush=True)
    i += 1
"""


def test_killed_process_leaves_exactly_the_committed_steps(db_path: Path) -> None:
    with CheckpointStore(db_path) as s:
        s.start_run(run_id="run_k", plan=make_plan(), exec_mode="HYBRID")
    k = 25
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(db_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=env,
    )
    assert child.stdout is not None
    assert child.stderr is not None
    try:
        for expected in range(k):
            line = child.stdout.readline()
            if not line:
                pytest.fail(f"child died before step {expected}: {child.stderr.read()}")
            assert int(line) == expected
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL

    with CheckpointStore(db_path) as s:
        cp = s.load("run_k")
    m = len(cp.step_runs)
    assert m >= k
    assert list(cp.step_runs) == [f"s{i}" for i in range(m)]
    assert all(cp.step_runs[f"s{i}"].outputs == {"i": i} for i in range(m))
    # one transaction per step: counters, actions, evidence and url all match the last committed step
    assert [e.evidence_id for e in cp.evidence] == [f"ev{i}" for i in range(m)]
    assert cp.budget.tool_calls_used == m
    assert cp.actions_taken == [f"a{j}" for j in range(m)]
    assert cp.last_url == f"https://example.test/{m - 1}"


# --- property ------------------------------------------------------------------------------------

# Finite floats only: pydantic writes inf/nan as JSON null, so they do not survive any JSON round trip.
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
_instant = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(2200, 1, 1), timezones=st.just(UTC)
)
_when = st.none() | _instant
_step_runs = st.builds(
    StepRunV1,
    step_id=st.text(min_size=1, max_size=20),
    step_type=st.sampled_from([t.value for t in StepType]) | st.text(max_size=10),
    status=st.sampled_from(StepStatus),
    tool_calls=st.lists(
        st.builds(
            ToolCallV1,
            tool_name=st.text(min_size=1, max_size=10),
            args=st.dictionaries(st.text(max_size=6), _json, max_size=3),
            attempt=st.integers(1, 5),
            status=st.sampled_from(["OK", "ERROR", "TIMEOUT"]),
            error=st.none() | st.text(max_size=20),
            duration_ms=st.floats(0, 1e9),
        ),
        max_size=2,
    ),
    outputs=st.dictionaries(st.text(max_size=8), _json, max_size=4),
    evidence=st.lists(
        st.builds(
            EvidenceItem,
            source_url=st.text(min_size=1, max_size=30),
            snippet=st.text(max_size=40),
            confidence=st.floats(0, 1),
            retrieved_at=_instant,
        ),
        max_size=2,
    ),
    actions=st.lists(st.text(max_size=10), max_size=3),
    error=st.none() | st.text(max_size=30),
    gate=st.none()
    | st.builds(
        GateDecisionV1, gate_id=st.text(min_size=1, max_size=8), decision=st.sampled_from(GateVerdict)
    ),
    started_at=_when,
    finished_at=_when,
    duration_ms=st.floats(0, 1e9),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step_run=_step_runs)
def test_random_step_runs_round_trip(store: CheckpointStore, step_run: StepRunV1) -> None:
    save(store, "run_1", step_run, *step_run.evidence)
    cp = store.load("run_1")
    assert cp.step_runs[step_run.step_id] == step_run
    assert all(item in cp.evidence for item in step_run.evidence)


#: The schema-1 layout (one rewritten row per step, whole snapshots in checkpoints), as files on disk
#: written before the append-only step log still have it.
_SCHEMA_1 = """
CREATE TABLE runs (run_id TEXT PRIMARY KEY, plan_id TEXT NOT NULL, trace_id TEXT NOT NULL,
    task TEXT NOT NULL, exec_mode TEXT NOT NULL, status TEXT NOT NULL, budget_json TEXT NOT NULL,
    last_url TEXT, pending_json TEXT, checkpoint_ref TEXT, last_checkpoint INTEGER NOT NULL DEFAULT 0,
    run_dir TEXT, bundle_json TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
CREATE INDEX runs_created ON runs (created_at);
CREATE TABLE plans (run_id TEXT PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE, data TEXT NOT NULL);
CREATE TABLE step_runs (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    step_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, step_id));
CREATE TABLE evidence (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    evidence_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, evidence_id));
CREATE TABLE approvals (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    gate_id TEXT NOT NULL, step_id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run_id, gate_id, step_id));
CREATE TABLE checkpoints (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    n INTEGER NOT NULL, data TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (run_id, n));
PRAGMA user_version = 1;
"""


def test_a_schema_1_file_is_migrated_and_its_old_checkpoints_still_load(db_path: Path) -> None:
    s1, s2 = make_step("s1"), make_step("s2", StepStatus.RUNNING)
    budget = BudgetStateV1(tool_calls_used=2).model_dump_json()
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as raw:
        raw.executescript(_SCHEMA_1)
        raw.execute(
            "INSERT INTO runs VALUES ('run_1', 'plan_1', 'trace_plan_1', 't', 'HYBRID', 'RUNNING', ?, "
            "'https://x.test/', NULL, 'chk://run_1/1', 1, NULL, NULL, '2026-11-22T09:00:00+00:00', "
            "'2026-11-22T09:00:01+00:00')",
            (budget,),
        )
        raw.execute("INSERT INTO plans VALUES ('run_1', ?)", (make_plan().model_dump_json(),))
        raw.execute("INSERT INTO step_runs VALUES ('run_1', 's1', ?)", (s1.model_dump_json(),))
        raw.execute("INSERT INTO step_runs VALUES ('run_1', 's2', ?)", (s2.model_dump_json(),))
        raw.execute("INSERT INTO evidence VALUES ('run_1', 'ev1', ?)", (evidence(1).model_dump_json(),))
        snapshot_cp = {
            "ref": "chk://run_1/1", "run_id": "run_1", "plan_id": "plan_1", "trace_id": "trace_plan_1",
            "step_runs": {"s1": s1.model_dump(mode="json")}, "created_at": "2026-11-22T09:00:00+00:00",
        }  # fmt: skip
        raw.execute(
            "INSERT INTO checkpoints VALUES ('run_1', 1, ?, '2026-11-22T09:00:00+00:00')",
            (json.dumps(snapshot_cp),),
        )
    with CheckpointStore(db_path) as s:
        old = s.load("chk://run_1/1")
        assert list(old.step_runs) == ["s1"]
        live = s.load("run_1")
        assert list(live.step_runs) == ["s1", "s2"] and [e.evidence_id for e in live.evidence] == ["ev1"]
        done = make_step("s2")
        save(s, "run_1", done, evidence(2), used=3)
        ref = s.save_checkpoint("run_1", None)
        assert ref == "chk://run_1/2"
        assert s.load(ref).step_runs == {"s1": s1, "s2": done}
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_checkpoint_keeps_the_step_as_it_was_when_the_step_is_saved_again(store: CheckpointStore) -> None:
    paused = make_step("s1", StepStatus.RUNNING)
    save(store, "run_1", paused, evidence(1))
    ref = store.save_checkpoint("run_1", None)
    save(store, "run_1", make_step("s1"), evidence(2), used=2)
    assert store.load(ref).step_runs == {"s1": paused}
    assert [e.evidence_id for e in store.load(ref).evidence] == ["ev1"]
    assert store.load("run_1").step_runs["s1"].status is StepStatus.SUCCESS
