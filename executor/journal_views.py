"""The journal's subscribers: the SQLite store, the receipts chain and the event bus.

Each declares the entries it listens to (the one-event-many-listeners shape of browser-use's
watchdogs) and turns an entry into its own record; none of them is written to from anywhere else.
"""

from __future__ import annotations

from executor.checkpoint_store import CheckpointStore
from executor.events import (
    BudgetUpdated,
    EventSink,
    EvidenceAdded,
    GateDecided,
    GatePending,
    RunFinished,
    RunStarted,
    StepFinished,
    StepStarted,
)
from executor.journal import (
    ActionIntended,
    ActionSettled,
    Entry,
    GateAnswered,
    GateAsked,
    RunClosed,
    RunOpened,
    StepBegun,
    StepRecorded,
    Subscriber,
)
from executor.models import Approval
from executor.run_resources import RunResources


class StoreView:
    """The durable view, first in line: what resume reads. Writes are synchronous and short."""

    listens: frozenset[type] = frozenset(
        {RunOpened, StepRecorded, ActionIntended, ActionSettled, GateAnswered, RunClosed}
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
            case RunClosed(bundle=bundle):
                store.finish_run(run_id, bundle)
            case _:
                pass


class ReceiptsView:
    """Every gate answer joins the receipts' hash chain, scoped to its run, gate and step."""

    listens: frozenset[type] = frozenset({GateAnswered})

    def __init__(self, resources: RunResources) -> None:
        self.resources = resources

    async def on(self, run_id: str, entry: Entry) -> None:
        if not isinstance(entry, GateAnswered):
            return
        decision = entry.decision
        recorder = await self.resources.recorder()
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


class BusView:
    """The live stream the window and the CLI render; publishing never waits on them."""

    listens: frozenset[type] = frozenset(
        {RunOpened, StepBegun, StepRecorded, GateAsked, GateAnswered, RunClosed}
    )

    def __init__(self, events: EventSink) -> None:
        self.events = events

    async def on(self, run_id: str, entry: Entry) -> None:
        publish = self.events.publish
        match entry:
            case RunOpened(plan=plan):
                started = RunStarted(
                    run_id=run_id,
                    trace_id=plan.trace_id,
                    plan_id=plan.plan_id,
                    exec_mode=entry.exec_mode,
                    resumed=entry.resumed,
                    run_dir=entry.run_dir,
                )
                publish(started)
            case StepBegun(step=step):
                publish(StepStarted(run_id=run_id, step_id=step.step_id, step_type=step.type_name,
                                    name=step.name))  # fmt: skip
            case StepRecorded(phase="finished"):
                for item in entry.new_evidence:
                    publish(EvidenceAdded(run_id=run_id, item=item))
                publish(StepFinished(run_id=run_id, step_run=entry.step_run))
                publish(BudgetUpdated(run_id=run_id, state=entry.budget))
            case StepRecorded(phase="resolved"):
                publish(StepFinished(run_id=run_id, step_run=entry.step_run))
            case GateAsked(decision=decision, pending=pending):
                publish(GatePending(run_id=run_id, decision=decision, pending=pending))
            case GateAnswered(asked=True, approval=Approval() as approval):
                publish(GateDecided(run_id=run_id, decision=entry.decision, approved=approval.approved))
            case RunClosed(bundle=bundle):
                publish(RunFinished(run_id=run_id, bundle=bundle))
            case _:
                pass


def views(store: CheckpointStore, events: EventSink, resources: RunResources | None) -> list[Subscriber]:
    """The subscribers of one run, store first: durable state never lags what the others show."""
    found: list[Subscriber] = [StoreView(store)]
    if resources is not None:
        found.append(ReceiptsView(resources))
    found.append(BusView(events))
    return found
