"""A resumed step's action in flight (executor/act/intent.py): what the receipts say about it, and
the question put to the person when it may already have happened."""

from __future__ import annotations

from functools import partial

from executor.act.intent import Intent, with_intent
from executor.act.outcomes import what
from executor.act.perform import ActEnv
from executor.act.progress import StepProgress
from executor.gates.desk import ActionGate, Allowed, Denied, unanswered
from executor.journal.run_journal import Noted
from executor.models import GateDecisionV1
from executor.tools.boundary import ActionClearer, StepAwaitsPerson


def described(intent: Intent) -> str:
    return f"{intent.action.get('kind', 'action')} {what(intent.action)} (action {intent.n})"


def declined(progress: StepProgress, intent: Intent, by: str) -> None:
    """A repeat the person (or policy) declined: the action counts as done, its outcome unknown."""
    progress.unknown.append({"action": described(intent), "decided_by": by})
    if intent.listed:
        progress.done += 1


def rewind(progress: StepProgress, intent: Intent) -> None:
    """A repeat that was approved: the loop runs the action again, under the same number, as the
    next sending of it. The approval covers that one sending: if its outcome is lost too, the
    question is asked again (a gate of its own), under whatever policy the leg meeting it has."""
    progress.count = max(0, progress.count - 1)
    progress.repeats[intent.n] = intent.attempt


async def decide_repeat(
    env: ActEnv,
    intent: Intent,
    progress: StepProgress,
    *,
    clear_action: ActionClearer | None,
    gate: GateDecisionV1 | None,
) -> None:
    """An action that may have happened: the person (or the run's approval policy) says whether it
    runs again. The receipts get the intent and its unknown outcome first, then the decision."""
    kind = intent.action.get("kind", "action")
    no_answer = f" ({', '.join(intent.awaiting)} had no answer yet)" if intent.awaiting else ""
    unknown = (
        f"resumed: {described(intent)} was sent to the page on {intent.url or 'an unknown page'} before "
        f"the run stopped{no_answer}; its outcome is unknown"
    )
    await env.journal.append(Noted(text=unknown, level="warning", step_id=env.step_id))
    question = ActionGate(
        step_gate=gate, risk="repeat", n=intent.n, attempt=intent.attempt, target=what(intent.action),
        reason=f"this {kind} may already have happened: the run stopped after it was sent and before "
        "its outcome was recorded. Run it again?",
        progress=partial(with_intent, progress, intent),
    )  # fmt: skip
    cleared = await clear_action(question) if clear_action is not None else None
    if not isinstance(cleared, Allowed | Denied):
        pending = cleared.pending if cleared is not None else unanswered(question, env.step_id)
        raise StepAwaitsPerson(pending, with_intent(progress, intent))
    if isinstance(cleared, Denied):
        declined(progress, intent, cleared.by)
        text = (f"{described(intent)} was not repeated (declined by {cleared.by}{_leg(cleared.leg)}); "
                "its outcome stays unknown")  # fmt: skip
    else:
        rewind(progress, intent)
        approval = cleared.approval
        by, leg = (approval.decided_by, approval.leg) if approval else ("policy", None)
        text = (f"{described(intent)} runs again (approved by {by}{_leg(leg)}); the approval covers "
                "this sending only")  # fmt: skip
    await env.journal.append(Noted(text=text, level="warning", step_id=env.step_id))


def _leg(leg: int | None) -> str:
    return f" in leg {leg}" if leg else ""


async def note_taken_back(env: ActEnv, intent: Intent) -> None:
    """What a resume did with an intent it settled on its own, in the receipts."""
    if intent.repeatable:
        text = (f"resumed: {described(intent)} may not have finished; it changes nothing when "
                "repeated, so it runs again")  # fmt: skip
    else:
        status = (intent.outcome or {}).get("status", "ok")
        text = (
            f"resumed: {described(intent)} reached the page before the run stopped ({status}); not repeated"
        )
    await env.journal.append(Noted(text=text, step_id=env.step_id))
