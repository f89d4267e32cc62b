"""`--approve ask` on a terminal: the gate is shown and a person answers y / n / p(ause)."""

from __future__ import annotations

import asyncio
import sys

from common.secrecy import scrub
from executor.gates.confirm import ConfirmAnswer, ConfirmRequest

_ANSWERS = {
    "y": ConfirmAnswer.APPROVE,
    "yes": ConfirmAnswer.APPROVE,
    "n": ConfirmAnswer.DENY,
    "no": ConfirmAnswer.DENY,
}


class TerminalConfirm:
    """Asks on stderr/stdin. Reading stdin blocks, so it runs in a worker thread the call awaits."""

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        d = request.decision
        lines = [
            "",
            f"Gate {d.gate_id} ({d.gate_kind}) before step {request.step_id} "
            f"'{request.step_name}' [{request.step_type}]",
            f"  why: {d.reason}",
        ]
        if request.target:
            lines.append(f"  target: {request.target}")
        if d.blocked_actions:
            lines.append(f"  stays blocked even if approved: {', '.join(d.blocked_actions)}")
        print(scrub("\n".join(lines)), file=sys.stderr, flush=True)
        while True:
            print("Approve? [y]es / [n]o / [p]ause: ", end="", file=sys.stderr, flush=True)
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:  # stdin closed: keep the run resumable rather than guess
                return ConfirmAnswer.PAUSE
            answer = line.strip().lower()
            if answer in _ANSWERS:
                return _ANSWERS[answer]
            if answer in {"p", "pause"}:
                return ConfirmAnswer.PAUSE
