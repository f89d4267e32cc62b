"""The recorder's boundary: what the executor calls and the shapes it passes in.

Structural protocols, so the browser layer's PageCapture and ActionOutcome can be handed over as
they are without receipts/ importing browser/; `Capture` is a plain value for everything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from receipts.models import (
    ActionRecord,
    DialogRecord,
    EvidenceReadRecord,
    GateDecisionRecord,
    GateRef,
    NoteRecord,
    Receipt,
    SnapshotRecord,
    StateSnapshot,
)

Scope = Literal["run", "gate", "step"]


@dataclass(frozen=True, slots=True)
class Capture:
    """A page state handed to the recorder; `screenshot` is PNG bytes, already masked."""

    url: str = ""
    title: str = ""
    dom_hash: str | None = None
    screenshot: bytes | None = None
    #: Scroll, viewport and focus as the browser layer names them; None when unknown.
    view: str | None = None


class CaptureLike(Protocol):
    """A page state as the browser layer captures it (browser.models.PageCapture fits)."""

    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def dom_hash(self) -> str | None: ...
    @property
    def screenshot(self) -> bytes | None: ...
    @property
    def view(self) -> str | None: ...


class OutcomeLike(Protocol):
    """An action's result (browser.models.ActionOutcome and receipts.models.Outcome fit)."""

    @property
    def status(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def candidates(self) -> Sequence[str]: ...


class Recorder(Protocol):
    """What the executor needs from a receipts writer; JsonlRecorder is the file implementation."""

    @property
    def run_id(self) -> str: ...
    def needs_before_shot(self, url: str, dom_hash: str | None) -> bool: ...
    def recorded_shot(self, state: CaptureLike) -> Path | None: ...
    async def record_action(
        self,
        *,
        action: Mapping[str, Any] | BaseModel,
        outcome: OutcomeLike | Mapping[str, Any],
        before: CaptureLike | None = None,
        after: CaptureLike | None = None,
        step_id: str | None = None,
        target_resolved: Mapping[str, Any] | BaseModel | None = None,
        value: str | list[str] | None = None,
        sensitive: bool = False,
        field_type: str | None = None,
        duration_ms: float = 0.0,
        gate: GateRef | None = None,
    ) -> ActionRecord: ...
    async def record_gate_decision(
        self,
        *,
        gate_id: str,
        decision: str,
        step_id: str | None = None,
        scope: Scope = "step",
        decided_by: str = "user",
        gate_kind: str = "action",
        reason: str = "",
        blocked_actions: Sequence[str] = (),
        leg: int | None = None,
    ) -> GateDecisionRecord: ...
    async def record_evidence(
        self,
        *,
        url: str,
        content: str | bytes | None = None,
        title: str = "",
        snippet: str = "",
        step_id: str | None = None,
    ) -> EvidenceReadRecord: ...
    async def record_dialog(
        self, *, dialog_type: str, message: str, accepted: bool, url: str = "", step_id: str | None = None
    ) -> DialogRecord: ...
    async def record_note(
        self, text: str, *, level: Literal["info", "warning", "error"] = "info", step_id: str | None = None
    ) -> NoteRecord: ...
    async def record_snapshot(self, snapshot: StateSnapshot) -> SnapshotRecord: ...
    async def write_run_meta(self, meta: Mapping[str, Any]) -> None: ...
    async def finish(
        self,
        status: str,
        *,
        reason: str = "",
        final_state: CaptureLike | None = None,
        final_shot: Path | None = None,
    ) -> Receipt: ...
    async def aclose(self) -> None: ...
