"""Saves an act step's progress with its action in flight, through the run journal.

The ACT loop knows nothing of the journal: it is handed this IntentLog (executor/act/intent.py), and
each save becomes an ActionIntended or ActionSettled entry that the store writes as the step's
newest RUNNING row, so a checkpoint taken after a kill, a signal or a dead browser holds it.
"""

from __future__ import annotations

from typing import Any

from executor.journal.run_journal import ActionIntended, ActionSettled, RunJournal
from executor.models import GateDecisionV1, StepRunV1, StepStatus
from executor.run.budget import BudgetEnforcer
from planner.models import Step


class JournalIntents:
    """One step's IntentLog."""

    def __init__(
        self, journal: RunJournal, step: Step, budget: BudgetEnforcer, gate: GateDecisionV1 | None
    ) -> None:
        self.journal = journal
        self.step = step
        self.budget = budget
        self.gate = gate

    async def save(self, outputs: dict[str, Any], *, settled: bool, last_url: str | None) -> None:
        step_run = StepRunV1(
            step_id=self.step.step_id,
            step_type=self.step.type_name,
            status=StepStatus.RUNNING,
            outputs=outputs,
            error_code="in_flight" if not settled else None,
            gate=self.gate,
        )
        entry_type = ActionSettled if settled else ActionIntended
        await self.journal.append(
            entry_type(step_run=step_run, budget=self.budget.state(), last_url=last_url)
        )
