"""The act loop's FSM: legal paths pass, anything else raises."""

from __future__ import annotations

import pytest

from executor.act.fsm import TRANSITIONS, IllegalTransition, LoopFSM, LoopState


def test_full_cycle_then_done() -> None:
    fsm = LoopFSM()
    for state in (
        LoopState.COLLECTING,
        LoopState.ORGANIZING,
        LoopState.THINKING,
        LoopState.EXECUTING,
        LoopState.COLLECTING,
        LoopState.ORGANIZING,
        LoopState.THINKING,
        LoopState.DONE,
    ):
        fsm.to(state)
    assert fsm.finished and fsm.path[0] is LoopState.IDLE and fsm.path[-1] is LoopState.DONE


def test_waiting_for_a_person_then_back_to_work() -> None:
    fsm = LoopFSM()
    for state in (
        LoopState.COLLECTING,
        LoopState.ORGANIZING,
        LoopState.THINKING,
        LoopState.EXECUTING,
        LoopState.WAITING,
        LoopState.EXECUTING,
        LoopState.COLLECTING,
    ):
        fsm.to(state)
    assert fsm.state is LoopState.COLLECTING


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        (LoopState.IDLE, LoopState.EXECUTING),  # no acting before observing
        (LoopState.COLLECTING, LoopState.EXECUTING),  # nor before deciding
        (LoopState.ORGANIZING, LoopState.EXECUTING),
        (LoopState.THINKING, LoopState.ORGANIZING),
        (LoopState.DONE, LoopState.COLLECTING),  # terminal states stay terminal
        (LoopState.FAILED, LoopState.COLLECTING),
        (LoopState.DONE, LoopState.FAILED),
    ],
)
def test_illegal_transitions_raise(src: LoopState, dst: LoopState) -> None:
    fsm = LoopFSM()
    fsm.state = src
    with pytest.raises(IllegalTransition):
        fsm.to(dst)


def test_every_live_state_may_fail() -> None:
    for state in LoopState:
        assert LoopFSM.allowed(state, LoopState.FAILED) is (state not in (LoopState.DONE, LoopState.FAILED))


def test_table_covers_every_state_and_only_known_targets() -> None:
    assert set(TRANSITIONS) == set(LoopState)
    assert all(targets <= set(LoopState) for targets in TRANSITIONS.values())
    fsm = LoopFSM()
    fsm.to(LoopState.COLLECTING)
    fsm.to(LoopState.FAILED, "observe failed")
    assert fsm.reason == "observe failed" and fsm.finished
