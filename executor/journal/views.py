"""The journal's subscribers: the SQLite store, the receipts chain and the event bus.

Each declares the entries it listens to (the one-event-many-listeners shape of browser-use's
watchdogs) and turns an entry into its own record; none of them is written to from anywhere else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from executor.journal import events as bus
from executor.journal.events import EventSink, NullSink
from executor.journal.run_journal import (
    ActionIntended,
    ActionRecorded,
    ActionSettled,
    Entry,
    GateAnswered,
    GateAsked,
    Journal,
    Noted,
    PlanRevised,
    RunClosed,
    RunOpened,
    SourceRead,
    StepBegun,
    StepRecorded,
    Subscriber,
)
from executor.models import Approval
from executor.store.checkpoint_store import CheckpointStore
from receipts.interface import Recorder

#: Where the receipts subscriber gets the run's recorder (opened on first use in a conductor's run).
RecorderSource = Callable[[], Awaitable[Recorder]]


class StoreView:
    """The durable view, first in line: what resume reads. Writes are synchronous and short."""

    listens: frozenset[type] = frozenset(
        {RunOpened, StepRecorded, ActionIntended, ActionSettled, GateAnswered, PlanRevised, RunClosed}
    )

    def __init__(self, store: CheckpointStore) -> None:
        self.store = store

    async def on(self, run_id: str, entry: Entry) -> None:
        store = self.store
        match entry:
            case RunOpened(plan=plan, exec_mode=mode, task=task, run_dir=run_dir):
                store.start_run(run_id=run_id, plan=plan, exec_mode=mode, task=task, run_dir=run_dir)
            case StepRecorded():
                evidence = list(entry.new_evidence)
                store.save_step(
                    run_id,
                    entry.step_run,
                    new_evidence=evidence,
                    budget=entry.budget,
                    last_url=entry.last_url,
                )
            case ActionIntended() | ActionSettled():  # the step's progress, its action in flight
                store.save_step(
                    run_id, entry.step_run, new_evidence=[], budget=entry.budget, last_url=entry.last_url
                )
            case GateAnswered(approval=Approval() as approval):
                store.record_approval(approval)
            case PlanRevised(plan=plan):
                store.replace_plan(run_id, plan)
            case RunClosed(bundle=bundle):
                store.finish_run(run_id, bundle)
            case _:
                pass


class ReceiptsView:
    """The receipts' hash chain: every action (numbered here), every gate answer scoped to its run,
    gate and step, each plan revision (a note and the version in run.json) and each note."""

    listens: frozenset[type] = frozenset({ActionRecorded, SourceRead, GateAnswered, PlanRevised, Noted})

    def __init__(self, recorder: RecorderSource) -> None:
        self.recorder = recorder

    async def on(self, run_id: str, entry: Entry) -> None:
        recorder = await self.recorder()
        match entry:
            case ActionRecorded():
                await _record_action(recorder, entry)
            case SourceRead(url=url, content=content, title=title, snippet=snippet, step_id=step_id):
                await recorder.record_evidence(
                    url=url, content=content, title=title, snippet=snippet, step_id=step_id
                )
            case GateAnswered(decision=decision):
                await recorder.record_gate_decision(
                    gate_id=decision.gate_id,
                    decision=entry.verdict,
                    step_id=decision.step_id,
                    scope="step",
                    decided_by=entry.by,
                    gate_kind=decision.gate_kind,
                    reason=decision.reason,
                    blocked_actions=decision.blocked_actions,
                    leg=entry.leg,
                )
            case PlanRevised(plan=plan):
                steps = ", ".join(f"{s.step_id}:{s.type_name}" for s in plan.steps)
                failed = entry.replaced_step_id
                text = f"plan v{plan.version} replaces {failed} ({entry.reason}); steps: {steps}"
                await recorder.record_note(text, step_id=failed)
                await recorder.write_run_meta({f"plan_v{plan.version}": plan.model_dump(mode="json")})
            case Noted(text=text, level=level, step_id=step_id):
                await recorder.record_note(text, level=level, step_id=step_id)
            case _:
                pass


async def _record_action(recorder: Recorder, entry: ActionRecorded) -> None:
    """The action's record, then the dialogs the browser answered while it ran."""
    record = await recorder.record_action(
        action=entry.action,
        outcome=entry.outcome,
        before=entry.before,
        after=entry.after,
        step_id=entry.step_id,
        target_resolved=entry.target_resolved,
        duration_ms=entry.duration_ms,
        gate=entry.gate,
    )
    entry.numbered.append(record)
    for dialog in entry.dialogs:
        await recorder.record_dialog(
            dialog_type=dialog.type, message=dialog.message, accepted=dialog.accepted, url=dialog.url,
            step_id=entry.step_id,
        )  # fmt: skip


class BusView:
    """The live stream the window and the CLI render; publishing never waits on them."""

    listens: frozenset[type] = frozenset(
        {
            RunOpened,
            StepBegun,
            StepRecorded,
            ActionRecorded,
            SourceRead,
            PlanRevised,
            GateAsked,
            GateAnswered,
            RunClosed,
        }
    )

    def __init__(self, events: EventSink) -> None:
        self.events = events

    async def on(self, run_id: str, entry: Entry) -> None:
        publish = self.events.publish
        match entry:
            case RunOpened(plan=plan):
                started = bus.RunOpened(
                    run_id=run_id,
                    trace_id=plan.trace_id,
                    plan_id=plan.plan_id,
                    exec_mode=entry.exec_mode,
                    resumed=entry.resumed,
                    run_dir=entry.run_dir,
                )
                publish(started)
            case StepBegun(step=step):
                publish(bus.StepBegun(run_id=run_id, step_id=step.step_id, step_type=step.type_name,
                                      name=step.name))  # fmt: skip
            case StepRecorded(phase="finished"):
                for item in entry.new_evidence:
                    publish(bus.EvidenceAdded(run_id=run_id, item=item))
                publish(bus.StepRecorded(run_id=run_id, step_run=entry.step_run))
                publish(bus.BudgetUpdated(run_id=run_id, state=entry.budget))
            case StepRecorded(phase="resolved"):
                publish(bus.StepRecorded(run_id=run_id, step_run=entry.step_run, phase="resolved"))
            case ActionRecorded():
                publish(_performed(run_id, entry))
            case SourceRead(shown=True):  # the window's Live view follows what research reads
                publish(bus.SourceRead(run_id=run_id, step_id=entry.step_id, url=entry.url, title=entry.title,
                                       screenshot_path=entry.picture))  # fmt: skip
            case PlanRevised(plan=plan):
                publish(bus.PlanRevised(run_id=run_id, plan=plan, version=plan.version, reason=entry.reason,
                                        replaced_step_id=entry.replaced_step_id))  # fmt: skip
            case GateAsked(decision=decision, pending=pending):
                publish(bus.GateAsked(run_id=run_id, decision=decision, pending=pending))
            case GateAnswered(asked=True, approval=Approval() as approval):
                publish(bus.GateAnswered(run_id=run_id, decision=entry.decision, approved=approval.approved))
            case RunClosed(bundle=bundle):
                publish(bus.RunClosed(run_id=run_id, bundle=bundle))
            case _:
                pass


def _performed(run_id: str, entry: ActionRecorded) -> bus.ActionRecorded:
    """The live view of an action, from its numbered record (the value already redacted)."""
    record = entry.record
    shot = record.after.shot or record.before.shot
    return bus.ActionRecorded(
        run_id=run_id,
        step_id=entry.step_id,
        seq=record.seq,
        action=record.action,
        status=record.outcome.status,
        message=record.outcome.message,
        url=record.after.url or record.before.url,
        screenshot_path=str(entry.run_dir / shot.path) if shot is not None else None,
        dom_hash=record.after.dom_hash or record.before.dom_hash,
    )


def views(
    store: CheckpointStore | None, events: EventSink, recorder: RecorderSource | None
) -> list[Subscriber]:
    """The subscribers of one run, store first: durable state never lags what the others show, and
    the receipts number an action before the bus shows it. A replay has no store."""
    found: list[Subscriber] = [] if store is None else [StoreView(store)]
    if recorder is not None:
        found.append(ReceiptsView(recorder))
    found.append(BusView(events))
    return found


def receipts_journal(run_id: str, recorder: Recorder, events: EventSink | None = None) -> Journal:
    """A journal with no run store: a replay's, or an act step run outside a conductor."""

    async def source() -> Recorder:
        return recorder

    return Journal(run_id=run_id, subscribers=views(None, events or NullSink(), source))
