"""The run journal: every change of a run's state is one typed entry, appended once.

Before the journal, each change was written three times by hand (the SQLite store, the receipts
chain, the event bus) from whichever module made it, and a place that forgot one of them left the
three disagreeing. Now the conductor and the gate desk only append; subscribers declare the entries
they listen to and keep their own view. The store is the durable subscriber: it issues checkpoint
refs, and resume reads the run back from it (docs/architecture.md, "Run lifecycle").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from executor.checkpoint_store import CheckpointStore
from executor.models import (
    Approval,
    BudgetStateV1,
    EvidenceItem,
    GateDecisionV1,
    PendingUserInput,
    RunBundleV1,
    StepRunV1,
)
from planner.models import ExecutionPlan, Step


@dataclass(frozen=True, kw_only=True)
class RunOpened:
    plan: ExecutionPlan
    exec_mode: str
    task: str
    run_dir: str | None
    resumed: bool


@dataclass(frozen=True, kw_only=True)
class StepBegun:
    step: Step


#: finished: the runner returned; resolved: the scheduler settled it without running (skipped,
#: blocked by a dependency); progress: a paused step's partial outputs, saved RUNNING for resume.
StepPhase = Literal["finished", "resolved", "progress"]


@dataclass(frozen=True, kw_only=True)
class StepRecorded:
    step_run: StepRunV1
    phase: StepPhase
    budget: BudgetStateV1
    last_url: str | None
    new_evidence: Sequence[EvidenceItem] = ()


@dataclass(frozen=True, kw_only=True)
class ActionIntended:
    """An action about to reach the browser, saved with the step's progress before it is performed:
    a resume that finds it without its outcome knows the action may have happened."""

    step_run: StepRunV1
    budget: BudgetStateV1
    last_url: str | None


@dataclass(frozen=True, kw_only=True)
class ActionSettled:
    """The same action with the browser's answer, saved as soon as the browser returned."""

    step_run: StepRunV1
    budget: BudgetStateV1
    last_url: str | None


@dataclass(frozen=True, kw_only=True)
class GateAsked:
    decision: GateDecisionV1
    pending: PendingUserInput


@dataclass(frozen=True, kw_only=True)
class GateAnswered:
    """verdict is approved, declined or pending (nobody could answer); `approval` is set when the
    answer is new and must be stored; `asked` when a person or policy answered just now."""

    decision: GateDecisionV1
    verdict: Literal["approved", "declined", "pending"]
    by: str
    approval: Approval | None = None
    asked: bool = False
    #: The leg that decided: this one, or the earlier one whose answer stands.
    leg: int | None = None


@dataclass(frozen=True, kw_only=True)
class Checkpointed:
    ref: str
    pending: PendingUserInput | None


@dataclass(frozen=True, kw_only=True)
class RunClosed:
    bundle: RunBundleV1


Entry = (
    RunOpened
    | StepBegun
    | StepRecorded
    | ActionIntended
    | ActionSettled
    | GateAsked
    | GateAnswered
    | Checkpointed
    | RunClosed
)


class Subscriber(Protocol):
    """One view of the run. `listens` names the entry types it wants; the journal sends no others."""

    listens: frozenset[type]

    async def on(self, run_id: str, entry: Entry) -> None: ...


@dataclass
class RunJournal:
    """Appends one run's entries and hands each to the subscribers that listen for it, in order.

    The store comes first among the subscribers (see journal_views.StoreView) and also names
    checkpoints, so it is passed on its own as well."""

    run_id: str
    store: CheckpointStore
    subscribers: Sequence[Subscriber] = ()
    #: Every entry of this leg, in order: what a test or a debugger reads to see what happened.
    entries: list[Entry] = field(default_factory=list)

    async def append(self, entry: Entry) -> None:
        self.entries.append(entry)
        for subscriber in self.subscribers:
            if type(entry) in subscriber.listens:
                await subscriber.on(self.run_id, entry)

    async def checkpoint(self, pending: PendingUserInput | None) -> str:
        """The store snapshots the run and names the snapshot; the subscribers hear the ref."""
        ref = self.store.save_checkpoint(self.run_id, pending)
        if pending is not None and pending.checkpoint_ref is None:
            pending = pending.model_copy(update={"checkpoint_ref": ref})
        await self.append(Checkpointed(ref=ref, pending=pending))
        return ref
