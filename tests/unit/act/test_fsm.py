"""The act loop's FSM: legal paths pass, anything else raises."""

from __future__ import annotations

import pytest

from executor.act.fsm import TRANSITIONS, IllegalTransition, LoopFSM, LoopState

S = LoopState


def test_full_cycle_then_done() -> None:
    fsm = LoopFSM()
    for state in (S.COLLECTING, S.ORGANIZING, S.THINKING, S.EXECUTING, S.COLLECTING, S.ORGANIZING,
                  S.THINKING, S.DONE):  # fmt: skip
        fsm.to(state)
    assert fsm.finished and fsm.path[0] is S.IDLE and fsm.path[-1] is S.DONE


def test_waiting_for_a_person_then_back_to_work() -> None:
    fsm = LoopFSM()
    for state in (S.COLLECTING, S.ORGANIZING, S.THINKING, S.EXECUTING, S.WAITING, S.EXECUTING, S.COLLECTING):
        fsm.to(state)
    assert fsm.state is S.COLLECTING


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        (S.IDLE, S.EXECUTING),  # no acting before observing
        (S.COLLECTING, S.EXECUTING),  # nor before deciding
        (S.ORGANIZING, S.EXECUTING),
        (S.THINKING, S.ORGANIZING),
        (S.DONE, S.COLLECTING),  # terminal states stay terminal
        (S.FAILED, S.COLLECTING),
        (S.DONE, S.FAILED),
    ],
)
def test_illegal_transitions_raise(src: LoopState, dst: LoopState) -> None:
    fsm = LoopFSM()
    fsm.state = src
    with pytest.raises(IllegalTransition):
        fsm.to(dst)


def test_every_live_state_may_fail() -> None:
    for state in S:
        assert LoopFSM.allowed(state, S.FAILED) is (state not in (S.DONE, S.FAILED))


def test_table_covers_every_state_and_only_known_targets() -> None:
    assert set(TRANSITIONS) == set(S)
    assert all(targets <= set(S) for targets in TRANSITIONS.values())
    fsm = LoopFSM()
    fsm.to(S.COLLECTING)
    fsm.to(S.FAILED, "observe failed")
    assert fsm.reason == "observe failed" and fsm.finished
