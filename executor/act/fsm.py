"""The ACT loop's state machine, made explicit: the act loop moves only along TRANSITIONS.

idle -> collecting (observe) -> organizing (build the cognition input) -> thinking (decide) ->
executing (act) -> collecting ... until done or failed; waiting is where the loop stands while a
person is asked about one action (or while the model asks for information).
"""

from __future__ import annotations

from enum import StrEnum

from executor.errors import ExecutorError


class LoopState(StrEnum):
    IDLE = "idle"
    COLLECTING = "collecting"
    ORGANIZING = "organizing"
    THINKING = "thinking"
    EXECUTING = "executing"
    WAITING = "waiting"
    DONE = "done"
    FAILED = "failed"


#: Every non-terminal state may also go to FAILED (unrecoverable error).
TRANSITIONS: dict[LoopState, frozenset[LoopState]] = {
    LoopState.IDLE: frozenset({LoopState.COLLECTING}),
    LoopState.COLLECTING: frozenset({LoopState.ORGANIZING, LoopState.DONE}),
    LoopState.ORGANIZING: frozenset({LoopState.THINKING}),
    LoopState.THINKING: frozenset({LoopState.EXECUTING, LoopState.WAITING, LoopState.DONE}),
    LoopState.EXECUTING: frozenset({LoopState.COLLECTING, LoopState.WAITING, LoopState.DONE}),
    LoopState.WAITING: frozenset({LoopState.COLLECTING, LoopState.EXECUTING, LoopState.DONE}),
    LoopState.DONE: frozenset(),
    LoopState.FAILED: frozenset(),
}
TERMINAL = frozenset({LoopState.DONE, LoopState.FAILED})


class IllegalTransition(ExecutorError):
    """The loop tried a move the state machine does not have: a bug in the loop, never a page's doing."""


class LoopFSM:
    """The current state plus the path taken (kept short: consecutive repeats are folded)."""

    def __init__(self) -> None:
        self.state = LoopState.IDLE
        self.path: list[LoopState] = [LoopState.IDLE]
        self.reason = ""

    @staticmethod
    def allowed(src: LoopState, dst: LoopState) -> bool:
        return dst in TRANSITIONS[src] or (dst is LoopState.FAILED and src not in TERMINAL)

    def to(self, dst: LoopState, reason: str = "") -> LoopState:
        if not self.allowed(self.state, dst):
            raise IllegalTransition(f"act loop cannot go {self.state} -> {dst}")
        self.state = dst
        self.path.append(dst)
        if reason:
            self.reason = reason
        return dst

    @property
    def finished(self) -> bool:
        return self.state in TERMINAL
