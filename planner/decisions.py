"""The cognition boundary: what one decision of an ACT step's loop says, what the loop remembers of
each action, and the protocol every cognition (rules, a model, memory hints) implements
(docs/architecture.md, "The ACT loop")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from browser.models import Observation

if TYPE_CHECKING:
    from planner.asks import AskList

Decision = Literal["answer", "act", "request_info", "reject", "noop"]


class HistoryEntry(BaseModel):
    """One action the loop performed and how it went (ActionOutcome.status).

    `ask`/`phase` say which of the step's asks the action served (planner/asks.py); `element` is the
    element as it was observed when the action was decided (name, role, form, row), so what was acted
    on can be told in words and checked afterwards; the rest is what the page did in answer."""

    action: dict[str, Any]
    status: str = "ok"
    message: str = ""
    ask: int | None = None
    phase: str = ""
    element: dict[str, Any] | None = None
    dom_changed: bool | None = None
    url_before: str | None = None
    url_after: str | None = None
    sent: list[dict[str, Any]] = Field(default_factory=list)


class CognitionDecision(BaseModel):
    decision: Decision
    actions: list[dict[str, Any]] = Field(default_factory=list)
    confidence: float = Field(ge=0.0, le=1.0)
    rationale: str = ""
    answer: str | None = None
    question: str | None = None
    #: Which ask of the step's goal these actions serve, and in which phase of it (rule cognition).
    ask: int | None = None
    phase: str = ""
    #: Asks whose effect the page already shows (the box was ticked, the option chosen): evidence the
    #: check of effects may use once the page is gone (planner/ask_cognition.py).
    observed: list[int] = Field(default_factory=list)


class Cognition(Protocol):
    async def decide(
        self, goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
    ) -> CognitionDecision: ...


@runtime_checkable
class AsksAware(Protocol):
    """A cognition that can be bound to a step's asks from the plan (the rule cognition)."""

    def with_asks(self, asks: AskList) -> Cognition: ...
