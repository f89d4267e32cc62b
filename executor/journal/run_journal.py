"""The run journal: every change of a run's state is one typed entry, appended once.

Before the journal, each change was written three times by hand (the SQLite store, the receipts
chain, the event bus) from whichever module made it, and a place that forgot one of them left the
three disagreeing. Now the conductor, the gate desk, an act step (its actions and notes), a research
step (its reads) and plan revision only append; subscribers declare the entries they listen to and
keep their own view. The store is the durable subscriber: it issues checkpoint refs, and resume
reads the run back from it; the receipts chain numbers each recorded action (docs/architecture.md,
"Run lifecycle").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from browser.events import DialogEvent
from browser.models import Action, ActionOutcome, PageCapture, ResolvedTarget
from executor.models import (
    Approval,
    BudgetStateV1,
    EvidenceItem,
    GateDecisionV1,
    PendingUserInput,
    RunBundleV1,
    StepRunV1,
)
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan, Step
from receipts.models import ActionRecord, GateRef


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
#: blocked by a dependency); progress: the partial outputs of a step awaiting a person, saved
#: RUNNING for resume.
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
class ActionRecorded:
    """An action with its evidence: performed (pages before and after, the dialogs the browser
    answered during it) or refused before it reached the browser (no after).

    The receipts subscriber numbers it in the hash chain and leaves the numbered record in
    `numbered`, where the bus (listening after it) and the performer read it back as `record`."""

    step_id: str
    action: Action
    outcome: ActionOutcome | Mapping[str, Any]
    before: PageCapture
    after: PageCapture | None = None
    target_resolved: ResolvedTarget | None = None
    duration_ms: float = 0.0
    gate: GateRef | None = None
    dialogs: Sequence[DialogEvent] = ()
    #: The run folder, for the live view's absolute screenshot paths.
    run_dir: Path
    numbered: list[ActionRecord] = field(default_factory=list, compare=False)

    @property
    def record(self) -> ActionRecord:
        if not self.numbered:
            raise LookupError("no receipts subscriber recorded this action")
        return self.numbered[0]


@dataclass(frozen=True, kw_only=True)
class SourceRead:
    """A research step read a page or a search API: the receipts keep what, when and its hash;
    `shown` reads (pages, with their picture when one was taken) also reach the live view."""

    step_id: str
    url: str
    content: str | bytes
    title: str
    snippet: str
    shown: bool = False
    picture: str | None = None


@dataclass(frozen=True, kw_only=True)
class PlanRevised:
    """The run continues with a new plan version, replacing the failed step `replaced_step_id`."""

    plan: ExecutionPlan
    replaced_step_id: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Noted:
    """A sentence for the receipts (a decision, a warning): what a person reads beside the actions."""

    text: str
    level: Literal["info", "warning", "error"] = "info"
    step_id: str | None = None


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
    | ActionRecorded
    | SourceRead
    | PlanRevised
    | Noted
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
class Journal:
    """Appends one run's entries and hands each to the subscribers that listen for it, in order.
    A replay, which has receipts but no run store, journals its actions through this one."""

    run_id: str
    subscribers: Sequence[Subscriber] = ()
    #: Every entry of this leg, in order: what a test or a debugger reads to see what happened.
    entries: list[Entry] = field(default_factory=list)

    async def append(self, entry: Entry) -> None:
        self.entries.append(entry)
        for subscriber in self.subscribers:
            if type(entry) in subscriber.listens:
                await subscriber.on(self.run_id, entry)


@dataclass(kw_only=True)
class RunJournal(Journal):
    """A conductor's journal. The store comes first among the subscribers (see
    executor.journal.views.StoreView) and also names checkpoints, so it is passed on its own as well."""

    store: CheckpointStore

    async def checkpoint(self, pending: PendingUserInput | None) -> str:
        """The store snapshots the run and names the snapshot; the subscribers hear the ref."""
        ref = self.store.save_checkpoint(self.run_id, pending)
        if pending is not None and pending.checkpoint_ref is None:
            pending = pending.model_copy(update={"checkpoint_ref": ref})
        await self.append(Checkpointed(ref=ref, pending=pending))
        return ref
