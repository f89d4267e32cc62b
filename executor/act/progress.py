"""What an act step has done so far: kept in the step's outputs while it is paused, so a resumed run
continues after the last action instead of repeating it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

PROGRESS_KEY = "act_progress"


class StepProgress(BaseModel):
    #: Explicit lists: how many listed actions are finished (the next one to run is actions[done]).
    done: int = 0
    #: Every action recorded in this step (performed, retried or refused): numbers per-action gates.
    count: int = 0
    #: Actions that reached the browser (the budget's ui actions).
    performed: int = 0
    url: str | None = None
    #: Inputs (fill/select/check) made since the last navigation, by stable targets: re-applied on a
    #: fresh browser after a resume so the page is as it was. Clicks and the like are never repeated.
    inputs: list[dict[str, Any]] = Field(default_factory=list)
    #: Goal-driven steps: what was done and how it went (cognition's history).
    history: list[dict[str, Any]] = Field(default_factory=list)
    refused: list[dict[str, Any]] = Field(default_factory=list)
    #: Actions whose navigation turned out riskier than judged before them (reported, with a note).
    surprises: list[dict[str, Any]] = Field(default_factory=list)
    downloads: list[dict[str, Any]] = Field(default_factory=list)
    #: Text read by extract actions (already redacted by the driver), for the step's answer.
    extracted: list[str] = Field(default_factory=list)
    #: Inputs that worked: typed value, stable target and the field's label (memory's facts).
    facts: list[dict[str, Any]] = Field(default_factory=list)
    #: Actions that may have happened before a run stopped and were not repeated (declined): their
    #: outcome is unknown, so the run cannot claim SUCCESS for them (executor/act/intent.py).
    unknown: list[dict[str, Any]] = Field(default_factory=list)
    #: Action number -> the sending whose repeat was approved: the next sending of that action is one
    #: later, and a new unknown outcome of it is a new question (executor/act/in_flight.py).
    repeats: dict[int, int] = Field(default_factory=dict)
    #: Asks (by index) whose effect the page showed without an action (already ticked, chosen).
    observed: list[int] = Field(default_factory=list)
    decisions: int = 0
    fallbacks: int = 0
    fallback_reason: str | None = None
    #: Turns the rules decided in the model's place, by reason (noop, timeout, refused...).
    fallback_reasons: dict[str, int] = Field(default_factory=dict)

    @classmethod
    def from_outputs(cls, outputs: dict[str, Any] | None) -> StepProgress:
        data = (outputs or {}).get(PROGRESS_KEY)
        return cls.model_validate(data) if isinstance(data, dict) else cls()

    def as_outputs(self, *, count: int | None = None) -> dict[str, Any]:
        """The step's outputs holding this progress; `count` in place of its own (an action that
        waits for an answer is not counted yet)."""
        data = self.model_dump(mode="json")
        if count is not None:
            data["count"] = count
        return {PROGRESS_KEY: data}
