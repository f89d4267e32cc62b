"""Replay passes the same gates as the original run: a step that was asked about is asked again.

Replay acts on live pages (it can refill a form with a person's data), so before the first action of
a step the original run gated, the person is asked again through the same ConfirmHandler; without
an approval that step's actions are skipped. With no handler (the CLI) replay behaves as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from executor.gates.confirm import ConfirmAnswer, ConfirmHandler
from executor.gates.desk import replay_question
from receipts.layout import RunFolder
from receipts.models import GateDecisionRecord
from receipts.report import read_records

#: Why a step's actions were skipped when the person declined it at this replay's gate.
DECLINED_HERE = "declined at the gate in this replay"


def step_names(source_run_dir: Path) -> dict[str, str]:
    """The source run's step names by id, from its run.json plan ({} when it has none)."""
    try:
        plan = RunFolder(source_run_dir).read_run_json().get("plan")
    except (OSError, ValueError):
        return {}
    steps = plan.get("steps") if isinstance(plan, dict) else None
    return {
        str(s["step_id"]): str(s.get("name") or "")
        for s in steps or []
        if isinstance(s, dict) and s.get("step_id") and s.get("name")
    }


class ReplayGates:
    """Asks once per gated step of the source run; remembers the answer for the step's other actions."""

    def __init__(self, source_run_dir: Path, handler: ConfirmHandler | None) -> None:
        self.handler = handler
        self.gates: dict[str, GateDecisionRecord] = {}
        for _, record in read_records(RunFolder(source_run_dir)):
            if isinstance(record, GateDecisionRecord) and record.step_id and record.step_id not in self.gates:
                self.gates[record.step_id] = record
        self.names = step_names(source_run_dir)
        self._answers: dict[str, bool] = {}

    async def skip_reason(
        self, step_id: str, replay_run_id: str, show: Callable[[], Awaitable[str | None]] | None = None
    ) -> str | None:
        """None when the step may be replayed; else why its actions are skipped. `show` makes the
        question's picture (the step's elements marked, executor/gates/look.py) when one is asked."""
        gate = self.gates.get(step_id)
        if self.handler is None or gate is None:
            return None
        if step_id not in self._answers:
            shot = await show() if show is not None else None
            question = replay_question(
                gate, step_id, replay_run_id, step_name=self.names.get(step_id), screenshot_path=shot
            )
            answer = await self.handler.confirm(question)
            self._answers[step_id] = answer is ConfirmAnswer.APPROVE
        return None if self._answers[step_id] else DECLINED_HERE
