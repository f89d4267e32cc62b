"""Receipt contracts: the chained records of receipts.jsonl, state snapshots and the run summary.

Records are plain JSON on disk, one a line, discriminated by `kind`; actions and targets stay plain
dicts so a receipt reads the same whatever version of the browser layer wrote it. Every model
round-trips through JSON without loss, which the hash chain depends on.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter, field_validator

from common.contracts import Contract, new_id, utc_now

GENESIS_HASH = "0" * 64
SHA256_PATTERN = r"^[0-9a-f]{64}$"
Sha256 = Annotated[str, Field(pattern=SHA256_PATTERN)]

#: Files a record may point at: relative, inside one of the run folder's data directories.
_REF_PATH = re.compile(r"^(shots|snapshots)/[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$|^trace\.zip$")


class FileRef(Contract):
    """A file of the run folder a record vouches for: relative path plus the sha256 of its bytes."""

    path: str
    sha256: Sha256

    @field_validator("path")
    @classmethod
    def _inside_run_folder(cls, value: str) -> str:
        if not _REF_PATH.match(value) or ".." in value:
            raise ValueError(f"file ref {value!r} must be shots/NAME, snapshots/NAME or trace.zip")
        return value


class PageState(Contract):
    """Where the page was at one moment: the before or after side of an action."""

    url: str = ""
    title: str = ""
    dom_hash: Sha256 | None = None
    shot: FileRef | None = None


def same_picture(a: PageState, a_view: str | None, b: PageState, b_view: str | None) -> bool:
    """Two states a picture cannot tell apart: same URL and DOM hash, and a known, equal view."""
    return (
        a.dom_hash is not None
        and a.dom_hash == b.dom_hash
        and a.url == b.url
        and a_view is not None
        and a_view == b_view
    )


class Outcome(Contract):
    """Status names follow the browser layer (ok, not_found, ambiguous, timeout, blocked, error)."""

    status: str = Field(min_length=1)
    message: str = ""
    candidates: list[str] = Field(default_factory=list)


class GateRef(Contract):
    """The gate decision that allowed an action; an approval covers a run, a gate or one step."""

    gate_id: str
    scope: Literal["run", "gate", "step"] = "step"
    decided_by: str = "user"
    decision: str = "ALLOW"


# --- chained records ---------------------------------------------------------------------------


class _Record(Contract):
    """Fields every line of receipts.jsonl carries; `hash` seals all the others."""

    schema_version: Literal["Receipts@1"] = "Receipts@1"
    seq: int = Field(ge=1)
    time: datetime = Field(default_factory=utc_now)
    run_id: str = Field(min_length=1)
    step_id: str | None = None
    prev_hash: Sha256
    hash: Sha256


class ActionRecord(_Record):
    kind: Literal["action"] = "action"
    action: dict[str, Any]
    target_requested: dict[str, Any] | None = None
    target_resolved: dict[str, Any] | None = None
    value: str | list[str] | None = None
    outcome: Outcome
    before: PageState = Field(default_factory=PageState)
    after: PageState = Field(default_factory=PageState)
    #: True when `before.shot` is the previous action's after-shot (same URL and DOM hash).
    before_shot_reused: bool = False
    #: True when `after.shot` is `before.shot`: the action left URL, DOM hash, scroll, viewport and
    #: focus as they were, so the same picture shows both states (one file, one sha256).
    after_shot_reused: bool = False
    duration_ms: float = Field(default=0.0, ge=0)
    gate: GateRef | None = None


class GateDecisionRecord(_Record):
    kind: Literal["gate_decision"] = "gate_decision"
    gate_id: str
    decision: str
    scope: Literal["run", "gate", "step"] = "step"
    decided_by: str = "user"
    gate_kind: str = "action"
    reason: str = ""
    blocked_actions: list[str] = Field(default_factory=list)
    #: The leg of the run that made this decision (1: the run's start, 2: its first resume, ...);
    #: an answer an earlier leg gave keeps that leg's number. None in receipts older than legs.
    leg: int | None = Field(default=None, ge=1)


class EvidenceReadRecord(_Record):
    kind: Literal["evidence_read"] = "evidence_read"
    url: str
    title: str = ""
    snippet: str = ""
    content_sha256: Sha256 | None = None


class DialogRecord(_Record):
    kind: Literal["dialog"] = "dialog"
    dialog_type: str
    message: str = ""
    accepted: bool
    url: str = ""


class NoteRecord(_Record):
    kind: Literal["note"] = "note"
    level: Literal["info", "warning", "error"] = "info"
    text: str


class SnapshotRecord(_Record):
    """Vouches for one file of snapshots/: a state snapshot cannot be swapped unnoticed."""

    kind: Literal["snapshot"] = "snapshot"
    label: str = ""
    file: FileRef


class RunEndRecord(_Record):
    kind: Literal["run_end"] = "run_end"
    status: str
    reason: str = ""
    final_state: PageState | None = None
    artifacts: list[FileRef] = Field(default_factory=list)


Record = Annotated[
    ActionRecord
    | GateDecisionRecord
    | EvidenceReadRecord
    | DialogRecord
    | NoteRecord
    | SnapshotRecord
    | RunEndRecord,
    Field(discriminator="kind"),
]
RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)


def file_refs(record: Record) -> list[FileRef]:
    """Every file a record vouches for, in the order verification checks them."""
    if isinstance(record, ActionRecord):
        return [s for s in (record.before.shot, record.after.shot) if s is not None]
    if isinstance(record, SnapshotRecord):
        return [record.file]
    if isinstance(record, RunEndRecord):
        refs = list(record.artifacts)
        if record.final_state is not None and record.final_state.shot is not None:
            refs.append(record.final_state.shot)
        return refs
    return []


# --- snapshots and summary ---------------------------------------------------------------------


class FormField(Contract):
    """One form control's state; `value` is already redacted when the field is sensitive."""

    name: str
    type: str = "text"
    value: str | None = None
    sensitive: bool = False


class StateSnapshot(Contract):
    """A readable picture of the page state at a moment, stored as snapshots/NAME.json."""

    schema_version: Literal["StateSnapshot@1"] = "StateSnapshot@1"
    snapshot_id: str = Field(default_factory=lambda: new_id("snap"))
    run_id: str | None = None
    step_id: str | None = None
    label: str = ""
    time: datetime = Field(default_factory=utc_now)
    url: str = ""
    title: str = ""
    dom_hash: Sha256 | None = None
    text_excerpt: str = ""
    form_fields: list[FormField] = Field(default_factory=list)


class Receipt(Contract):
    """The summary of a run's receipts that travels in RunBundleV1.receipt and run.json."""

    schema_version: Literal["Receipt@1"] = "Receipt@1"
    run_id: str
    run_dir: str
    records: int = Field(ge=0)
    actions: int = Field(ge=0)
    head_hash: Sha256
    status: str | None = None
    final_state: PageState | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
