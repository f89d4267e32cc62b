"""Terminal progress for `waypost run`: one line per step and gate, from the core's event stream."""

from __future__ import annotations

import sys
from typing import TextIO

from common.secrecy import scrub
from executor.journal.events import RunEvent


class ProgressPrinter:
    """An EventSink that prints as events arrive (publish never blocks the run)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def _say(self, text: str) -> None:
        print(scrub(text), file=self.stream, flush=True)  # step errors quote pages

    def publish(self, event: RunEvent) -> None:
        if event.kind == "run_opened":
            verb = "resuming" if event.resumed else "running"
            self._say(f"{verb} {event.run_id} ({event.exec_mode})")
        elif event.kind == "step_begun":
            self._say(f"  > {event.step_id} {event.step_type} {event.name}".rstrip())
        elif event.kind == "step_recorded":
            run = event.step_run
            detail = f" {run.error_code}: {run.error}" if run.error else ""
            u = run.model_usage
            model = f", model {u.calls} calls {u.tokens_in}+{u.tokens_out} tokens" if u.calls else ""
            self._say(f"    {run.status.lower()} {run.step_id} in {run.duration_ms:.0f} ms{model}{detail}")
        elif event.kind == "action_recorded":
            self._say(f"    {event.action.get('kind', '?')} -> {event.status} {event.message}".rstrip())
        elif event.kind == "gate_asked":
            d = event.decision
            blocked = f" (stays blocked: {', '.join(d.blocked_actions)})" if d.blocked_actions else ""
            self._say(f"  ? gate {d.gate_id} before {d.step_id}: {d.reason}{blocked}")
        elif event.kind == "gate_answered":
            self._say(f"  {'approved' if event.approved else 'declined'} gate {event.decision.gate_id}")
        elif event.kind == "budget_updated":
            s = event.state
            self._say(
                f"    budget: {s.tool_calls_used} calls, {s.time_ms_used} ms, {s.token_est_used} tokens"
            )
        elif event.kind == "run_closed":
            b = event.bundle
            self._say(f"{b.run_status} {b.reason}".rstrip())
            u = b.budget_used.model_usage
            if u.calls:
                guessed = f", {u.estimated_calls} estimated" if u.estimated_calls else ""
                took = f", {u.ms / 1000:.1f} s" if u.ms else ""
                self._say(
                    f"model: {u.calls} calls, {u.tokens_in} in + {u.tokens_out} out tokens{guessed}{took}"
                )
