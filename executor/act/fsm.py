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


S = LoopState

#: Every non-terminal state may also go to FAILED (unrecoverable error).
TRANSITIONS: dict[LoopState, frozenset[LoopState]] = {
    S.IDLE: frozenset({S.COLLECTING}),
    S.COLLECTING: frozenset({S.ORGANIZING, S.DONE}),
    S.ORGANIZING: frozenset({S.THINKING}),
    S.THINKING: frozenset({S.EXECUTING, S.WAITING, S.DONE}),
    S.EXECUTING: frozenset({S.COLLECTING, S.WAITING, S.DONE}),
    S.WAITING: frozenset({S.COLLECTING, S.EXECUTING, S.DONE}),
    S.DONE: frozenset(),
    S.FAILED: frozenset(),
}
TERMINAL = frozenset({S.DONE, S.FAILED})


class IllegalTransition(ExecutorError):
    """The loop tried a move the state machine does not have: a bug in the loop, never a page's doing."""


class LoopFSM:
    """The current state plus the path taken (kept short: consecutive repeats are folded)."""

    def __init__(self) -> None:
        self.state = S.IDLE
        self.path: list[LoopState] = [S.IDLE]
        self.reason = ""

    @staticmethod
    def allowed(src: LoopState, dst: LoopState) -> bool:
        return dst in TRANSITIONS[src] or (dst is S.FAILED and src not in TERMINAL)

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
