"""Actions in flight: an action's intent is journaled before it reaches the browser and its outcome
right after (docs/architecture.md, "Actions in flight").

A run can stop between the two (a kill, a signal, a dead browser), and then nobody knows whether the
click went out. A resumed step finds the intent in its saved progress and never repeats it blindly:
- with an outcome, the action happened: it is taken into the progress as done;
- an action that changes nothing when repeated (open a page, type into a field) runs again;
- any other is put to the person through the gate desk ("this click may already have happened"),
  or to the run's approval policy; declined, it is not repeated and its outcome stays unknown.
The receipts hold the intent, the unknown outcome and the decision (executor/act/in_flight.py).
"""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, Field

from browser.models import ActionOutcome
from executor.act.progress import StepProgress

INTENT_KEY = "action_intent"
#: Outcomes that say for certain whether the action happened (ok) or not (never found, refused). A
#: timeout or an error may come after the click went out (a dying browser, a page that froze in its
#: handler), so the action stays in flight: a resume treats it as maybe done.
CERTAIN = frozenset({"ok", "not_found", "ambiguous", "blocked"})
#: Kinds that leave the page as it was when they run twice: a resume runs them again.
REPEATABLE = frozenset({"navigate", "fill", "select", "check", "scroll", "wait", "extract", "done"})


class Intent(BaseModel):
    """One action about to reach the browser; `outcome` is set once the browser has answered."""

    n: int
    action: dict[str, Any]
    #: Which sending of action n this is: 1, then one more for each approved repeat.
    attempt: int = 1
    url: str | None = None
    #: An explicit list's action: taking it as done moves the list on by one.
    listed: bool = False
    outcome: dict[str, Any] | None = None
    #: Requests the action sent that had no answer from the server yet (`POST url`): the action went
    #: out, and whether the server acted on it is unknown until the answer comes.
    awaiting: list[str] = Field(default_factory=list)

    @classmethod
    def from_outputs(cls, outputs: dict[str, Any] | None) -> Intent | None:
        data = (outputs or {}).get(INTENT_KEY)
        return cls.model_validate(data) if isinstance(data, dict) else None

    @property
    def repeatable(self) -> bool:
        return self.action.get("kind") in REPEATABLE


class IntentLog(Protocol):
    """Where a step's progress with its action in flight is saved (executor/journal/intents.py)."""

    async def save(self, outputs: dict[str, Any], *, settled: bool, last_url: str | None) -> None: ...


def with_intent(progress: StepProgress, intent: Intent | None) -> dict[str, Any]:
    """The step's outputs as saved: its progress, and the action in flight when there is one."""
    outputs = progress.as_outputs()
    if intent is not None:
        outputs[INTENT_KEY] = intent.model_dump(mode="json")
    return outputs


def settled(intent: Intent, outcome: ActionOutcome) -> Intent | None:
    """The intent with what the browser answered (status, message, the page it left); None when the
    answer leaves open whether the action happened."""
    if str(outcome.status) not in CERTAIN:
        return None
    answer = {"status": str(outcome.status), "message": outcome.message, "url": outcome.url_after}
    return intent.model_copy(update={"outcome": answer})


def take_back(progress: StepProgress, intent: Intent) -> bool:
    """Folds an intent found on resume into the progress. True when a decision is still needed (an
    action that may have happened and must not simply run again); False when it was settled here:
    done (its outcome was journaled) or rewound to run again (repeatable)."""
    if intent.repeatable:
        progress.count = max(0, progress.count - 1)  # the loop runs it again under its usual checks
        return False
    if intent.outcome is None:
        return True
    outcome = intent.outcome
    progress.performed += 1
    progress.history.append(
        {
            "action": intent.action,
            "status": outcome.get("status", "ok"),
            "message": outcome.get("message", ""),
        }
    )
    progress.url = outcome.get("url") or progress.url
    if intent.listed:
        progress.done += 1
    return False
