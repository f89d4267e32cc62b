"""A replay that replayed nothing checked nothing: it says so plainly and never exits 0."""

from __future__ import annotations

from executor.run.replay import REPLAY_DRIFT, REPLAY_NOTHING, REPLAY_OK, ReplayReport, ReplayStep
from executor.run.replay_gates import DECLINED_HERE


def test_a_run_whose_every_step_was_declined_replays_nothing_and_exits_6() -> None:
    report = ReplayReport(source_run="run_1", replay_run="replay_1", declined=["a1"])
    assert (report.ok, report.outcome, report.exit_code) == (False, REPLAY_NOTHING, 6)
    assert report.summary() == (
        "nothing was replayed from run_1: every step was declined in the original run, "
        "so it recorded no action to replay"
    )
    assert report.to_dict()["outcome"] == REPLAY_NOTHING


def test_declined_at_this_replays_gates_and_other_reasons() -> None:
    skipped = [ReplayStep(seq=n, kind="fill", status="skipped", note=DECLINED_HERE) for n in (1, 2)]
    here = ReplayReport(source_run="run_1", replay_run="replay_1", steps=skipped)
    assert here.exit_code == 6 and "you declined every step at this replay's gates" in here.summary()
    risky = [ReplayStep(seq=1, kind="click", status="skipped", note="would submit")]
    other = ReplayReport(source_run="run_1", replay_run="replay_1", steps=risky)
    assert (other.outcome, other.exit_code) == (REPLAY_NOTHING, 1)
    assert (
        other.summary() == "nothing was replayed from run_1: every recorded action was skipped (would submit)"
    )
    empty = ReplayReport(source_run="run_1", replay_run="replay_1")
    assert empty.exit_code == 1 and empty.summary().endswith("the run recorded no action to replay")


def test_replayed_actions_still_pass_or_drift() -> None:
    same = ReplayStep(seq=1, kind="fill", status="ok", url_expected="u", url_actual="u")
    passed = ReplayReport(source_run="run_1", replay_run="replay_1", steps=[same])
    assert (passed.outcome, passed.exit_code) == (REPLAY_OK, 0)
    assert passed.summary() == "replayed 1 action of run_1: no drift"
    moved = ReplayStep(seq=1, kind="fill", status="ok", url_expected="u", url_actual="v")
    drifted = ReplayReport(source_run="run_1", replay_run="replay_1", steps=[moved])
    assert (drifted.outcome, drifted.exit_code) == (REPLAY_DRIFT, 1)
