"""The recorder: turns what a run does into chained, redacted records in receipts.jsonl.

Every field is redacted before it is sealed, and a record whose line still holds a secret is
scrubbed whole. One asyncio task writes at a time; how a sealed record and the files it vouches for
reach the disk (one write per line, fsync behind the call) is receipts/chain_file.py's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from receipts.chain import encode_line, seal
from receipts.chain_file import ChainFile
from receipts.errors import ReceiptsError, RecorderClosedError
from receipts.interface import CaptureLike, OutcomeLike, Scope
from receipts.keys import SigningKey
from receipts.layout import RunFolder, check_run_id, plain_json, write_atomic
from receipts.models import (
    ActionRecord,
    DialogRecord,
    EvidenceReadRecord,
    FileRef,
    GateDecisionRecord,
    GateRef,
    NoteRecord,
    Outcome,
    PageState,
    Receipt,
    Record,
    SnapshotRecord,
    StateSnapshot,
    same_picture,
)
from receipts.png import compact_png
from receipts.redaction import Redactor, redact_zip
from receipts.resume import OpenChain, open_chain
from receipts.signing import KeySource, sign_run
from receipts.verify import sha256_file

_R = TypeVar("_R", bound=Record)
_SLUG = re.compile(r"[^A-Za-z0-9_-]+")


def _expect(record: Record, kind: type[_R]) -> _R:
    if not isinstance(record, kind):  # pragma: no cover - data["kind"] decides the type
        raise ReceiptsError(f"wrote a {record.kind} record where a {kind.__name__} was meant")
    return record


class JsonlRecorder:
    """Writes one run folder. Open with `await JsonlRecorder.open(folder)`; an existing folder is
    continued (resume after a pause appends to the same chain), after verifying its chain."""

    def __init__(
        self,
        folder: RunFolder,
        chain: OpenChain,
        *,
        redactor: Redactor | None = None,
        fsync: bool = True,
        key: SigningKey | None = None,
    ) -> None:
        self.folder = folder
        self._key = key  # signs the chain's head at finish() (receipts/signing.py)
        self.redactor = redactor or Redactor()
        self._fsync = fsync
        self._lock = asyncio.Lock()
        self._chain = ChainFile(chain, folder.run_id, fsync=fsync)
        self._actions = chain.actions
        self._started_at: datetime | None = chain.started_at
        self._last_after: PageState | None = chain.last_after
        #: Scroll, viewport and focus of the last after-state (kept in memory only: a resumed chain
        #: does not know it, so nothing is reused as a gate's picture until the next action).
        self._last_view: str | None = None
        self._closed = False

    @classmethod
    async def open(
        cls,
        folder: RunFolder | Path | str,
        *,
        redactor: Redactor | None = None,
        fsync: bool = True,
        signer: KeySource | None = None,
    ) -> JsonlRecorder:
        if not isinstance(folder, RunFolder):
            folder = RunFolder(Path(folder))
        check_run_id(folder.run_id)  # the folder name is the run id every record carries
        key = None
        if signer is not None:  # loaded (or created) now: a bad key stops a run before its first action
            key = await asyncio.to_thread(signer.load)
        chain = await asyncio.to_thread(open_chain, folder)
        recorder = cls(folder, chain, redactor=redactor, fsync=fsync, key=key)
        if chain.repair_note is not None:
            await recorder.record_note(chain.repair_note, level="warning")
        return recorder

    async def __aenter__(self) -> JsonlRecorder:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # --- state ---------------------------------------------------------------------------------

    @property
    def run_id(self) -> str:
        return self.folder.run_id

    @property
    def head_hash(self) -> str:
        return self._chain.head

    @property
    def seq(self) -> int:
        return self._chain.seq

    def needs_before_shot(self, url: str, dom_hash: str | None) -> bool:
        """False when the previous after-shot shows this very state and will be reused."""
        last = self._last_after
        return not (
            last is not None
            and last.shot is not None
            and dom_hash is not None
            and last.dom_hash == dom_hash
            and last.url == self.redactor.text(url)
        )

    def recorded_shot(self, state: CaptureLike) -> Path | None:
        """The file of the last after-shot when `state` shows the very same picture (same URL, DOM
        hash and view: scroll, viewport, focus), so a gate can show it instead of taking another."""
        last = self._last_after
        if last is None or last.shot is None:
            return None
        if not same_picture(last, self._last_view, self._state(state, None), state.view):
            return None
        return self.folder.resolve(last.shot.path)

    # --- writing --------------------------------------------------------------------------------

    def _file(self, ref: str, data: bytes, files: list[tuple[Path, bytes]]) -> FileRef:
        """The ref a record carries for `data`, queued in `files` to be written with the record."""
        files.append((self.folder.resolve(ref), data))
        return FileRef(path=ref, sha256=hashlib.sha256(data).hexdigest())

    async def _shot(self, ref: str, data: bytes, files: list[tuple[Path, bytes]]) -> FileRef:
        """A screenshot's ref, stored re-deflated (receipts/png.py: same pixels, fewer bytes)."""
        return self._file(ref, await asyncio.to_thread(compact_png, data), files)

    async def _append(self, data: dict[str, Any], files: Sequence[tuple[Path, bytes]] = ()) -> Record:
        """Seals and writes one record after the files it vouches for; the caller holds the lock
        and has redacted the fields. The previous record is on disk before this one is written."""
        if self._closed:
            raise RecorderClosedError(f"recorder of {self.run_id} is finished or closed")
        await self._chain.settle()
        data.update(seq=self._chain.seq + 1, run_id=self.run_id, prev_hash=self._chain.head)
        record = seal(data)
        line = encode_line(record)
        if self.redactor.contains_secret(line.decode("utf-8")):
            # A field slipped past the per-field redaction: scrub the whole record, then reseal.
            record = seal(self.redactor.json(record.model_dump(mode="json")))
            line = encode_line(record)
        await self._chain.append(record, line, files)
        self._started_at = self._started_at or record.time
        return record

    async def _add(self, data: dict[str, Any], kind: type[_R]) -> _R:
        async with self._lock:
            return _expect(await self._append(data), kind)

    def _state(self, capture: CaptureLike | None, shot: FileRef | None) -> PageState:
        if capture is None:
            return PageState(shot=shot)
        return PageState(
            url=self.redactor.text(capture.url),
            title=self.redactor.text(capture.title),
            dom_hash=capture.dom_hash,
            shot=shot,
        )

    # --- records -------------------------------------------------------------------------------

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
    ) -> ActionRecord:
        """Records one performed (or refused) action with its before/after states.

        `value` defaults to the action's own "value". It is hidden whole when `sensitive`, when
        `field_type` is "password", or when the target names a sensitive field; it then also becomes
        a secret for everything recorded afterwards.
        """
        act = plain_json(action) or {}
        requested = act.get("target") if isinstance(act.get("target"), dict) else None
        if value is None and isinstance(act.get("value"), str | list):
            value = act["value"]
        if sensitive or self.redactor.is_sensitive_target(requested, field_type):
            value = self.redactor.hide_value(value)
            if "value" in act:
                act["value"] = value
        if isinstance(outcome, Mapping):  # e.g. a dumped ActionOutcome: keep what a receipt shows
            keys = ("status", "message", "candidates")
            out = Outcome.model_validate({k: outcome[k] for k in keys if outcome.get(k) is not None})
        else:
            out = Outcome(
                status=str(outcome.status), message=outcome.message, candidates=[*outcome.candidates]
            )
        async with self._lock:
            seq = self._chain.seq + 1
            reuse = before is not None and not self.needs_before_shot(before.url, before.dom_hash)
            files: list[tuple[Path, bytes]] = []
            refs: dict[str, FileRef] = {}
            if before is not None and before.screenshot is not None and not reuse:
                refs["before"] = await self._shot(
                    self.folder.shot_ref(f"{seq:06d}-before.png"), before.screenshot, files
                )
            before_shot = self._last_after.shot if reuse and self._last_after else refs.get("before")
            before_state = self._state(before, before_shot)
            # An action that left the picture as it was (same URL, DOM hash, scroll, viewport and
            # focus) points its after-state at the before-shot's file instead of storing it again.
            after_reuse = (
                after is not None
                and before is not None
                and before_shot is not None
                and same_picture(before_state, before.view, self._state(after, None), after.view)
            )
            if after_reuse and before_shot is not None:
                refs["after"] = before_shot
            elif after is not None and after.screenshot is not None:
                refs["after"] = await self._shot(
                    self.folder.shot_ref(f"{seq:06d}-after.png"), after.screenshot, files
                )
            after_state = self._state(after, refs.get("after"))
            text = self.redactor.text
            data: dict[str, Any] = {
                "kind": "action",
                "step_id": step_id,
                "action": self.redactor.json(act),
                "target_requested": self.redactor.json(requested),
                "target_resolved": self.redactor.json(plain_json(target_resolved)),
                "value": self.redactor.json(value),
                "outcome": Outcome(
                    status=out.status, message=text(out.message), candidates=[text(c) for c in out.candidates]
                ),
                "before": before_state,
                "after": after_state,
                "before_shot_reused": reuse,
                "after_shot_reused": after_reuse,
                "duration_ms": max(duration_ms, 0.0),
                "gate": gate,
            }
            record = _expect(await self._append(data, files), ActionRecord)
            self._actions += 1
            self._last_after = after_state if after is not None else None
            self._last_view = after.view if after is not None else None
            return record

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
    ) -> GateDecisionRecord:
        data = {
            "kind": "gate_decision",
            "step_id": step_id,
            "gate_id": gate_id,
            "decision": decision,
            "scope": scope,
            "decided_by": decided_by,
            "gate_kind": gate_kind,
            "reason": self.redactor.text(reason),
            "blocked_actions": list(blocked_actions),
            "leg": leg,
        }
        return await self._add(data, GateDecisionRecord)

    async def record_evidence(
        self,
        *,
        url: str,
        content: str | bytes | None = None,
        title: str = "",
        snippet: str = "",
        step_id: str | None = None,
    ) -> EvidenceReadRecord:
        """Records that a source was read; `content` is hashed (not stored) to pin what was read."""
        raw = content.encode("utf-8") if isinstance(content, str) else content
        data = {
            "kind": "evidence_read",
            "step_id": step_id,
            "url": self.redactor.text(url),
            "title": self.redactor.text(title),
            "snippet": self.redactor.text(snippet),
            "content_sha256": hashlib.sha256(raw).hexdigest() if raw is not None else None,
        }
        return await self._add(data, EvidenceReadRecord)

    async def record_dialog(
        self, *, dialog_type: str, message: str, accepted: bool, url: str = "", step_id: str | None = None
    ) -> DialogRecord:
        text = self.redactor.text
        data = {"kind": "dialog", "step_id": step_id, "dialog_type": dialog_type, "accepted": accepted}
        return await self._add({**data, "message": text(message), "url": text(url)}, DialogRecord)

    async def record_note(
        self, text: str, *, level: Literal["info", "warning", "error"] = "info", step_id: str | None = None
    ) -> NoteRecord:
        data = {"kind": "note", "step_id": step_id, "level": level, "text": self.redactor.text(text)}
        return await self._add(data, NoteRecord)

    async def record_snapshot(self, snapshot: StateSnapshot) -> SnapshotRecord:
        """Writes snapshots/NNNNNN-LABEL.json (redacted) and a record vouching for its sha256."""
        r = self.redactor
        fields = []
        for f in snapshot.form_fields:
            if f.sensitive or r.is_sensitive(f.name, field_type=f.type):
                hidden = self.redactor.hide_value(f.value)
                fields.append(f.model_copy(update={"value": hidden, "sensitive": True}))
            else:
                fields.append(f.model_copy(update={"value": r.optional(f.value), "name": r.text(f.name)}))
        clean = snapshot.model_copy(
            update={
                "run_id": self.run_id,
                "label": r.text(snapshot.label),
                "url": r.text(snapshot.url),
                "title": r.text(snapshot.title),
                "text_excerpt": r.text(snapshot.text_excerpt),
                "form_fields": fields,
            }
        )
        body = json.dumps(clean.model_dump(mode="json"), indent=2, ensure_ascii=False).encode("utf-8")
        async with self._lock:
            slug = _SLUG.sub("-", clean.label).strip("-")[:40] or "state"
            files: list[tuple[Path, bytes]] = []
            file = self._file(self.folder.snapshot_ref(f"{self._chain.seq + 1:06d}-{slug}.json"), body, files)
            data = {"kind": "snapshot", "step_id": snapshot.step_id, "label": clean.label, "file": file}
            record = await self._append(data, files)
        return _expect(record, SnapshotRecord)

    async def write_run_meta(self, meta: Mapping[str, Any]) -> None:
        """Merges (redacted) keys into run.json: run bundle, plan, settings digest, task."""
        async with self._lock:
            await asyncio.to_thread(self._merge_run_json, self.redactor.json(plain_json(meta)))

    def _merge_run_json(self, update: Mapping[str, Any]) -> None:
        current = self.folder.read_run_json()
        current.update(update)
        current.setdefault("run_id", self.run_id)
        body = json.dumps(current, indent=2, ensure_ascii=False, default=str).encode("utf-8")
        write_atomic(self.folder.run_json, body, fsync=self._fsync)

    async def finish(
        self,
        status: str,
        *,
        reason: str = "",
        final_state: CaptureLike | None = None,
        final_shot: Path | None = None,
    ) -> Receipt:
        """Writes the run_end record (final state, redacted trace.zip) and the summary in run.json,
        then closes (a paused run too). `final_shot`: a file of the folder showing `final_state` (taken
        without a screenshot): the last after-shot is named again, any other gets a second name."""
        async with self._lock:
            shot = None
            files: list[tuple[Path, bytes]] = []
            ref = self.folder.shot_ref(f"{self._chain.seq + 1:06d}-final.png")
            if final_state is not None and final_state.screenshot is not None:
                shot = await self._shot(ref, final_state.screenshot, files)
            elif final_state is not None and final_shot is not None:
                shot = await asyncio.to_thread(self._shared_shot, final_shot, ref)
            artifacts = []
            if self.folder.trace.is_file():
                await asyncio.to_thread(redact_zip, self.folder.trace, self.redactor)
                digest = await asyncio.to_thread(sha256_file, self.folder.trace)
                artifacts.append(FileRef(path="trace.zip", sha256=digest))
            final = self._state(final_state, shot) if final_state is not None else None
            data = {
                "kind": "run_end",
                "status": status,
                "reason": self.redactor.text(reason),
                "final_state": final,
                "artifacts": artifacts,
            }
            record = await self._append(data, files)
            await self._chain.settle()  # the run is finished only once every record is on disk
            receipt = Receipt(
                run_id=self.run_id,
                run_dir=str(self.folder.root),
                records=self._chain.seq,
                actions=self._actions,
                head_hash=self._chain.head,
                status=status,
                final_state=final,
                started_at=self._started_at,
                finished_at=record.time,
            )
            await asyncio.to_thread(self._merge_run_json, {"receipt": receipt.model_dump(mode="json")})
            if self._key is not None:  # last: the signed head covers run.json and every other file
                seq, head = self.seq, self.head_hash
                await asyncio.to_thread(
                    sign_run, self.folder, self._key, records=seq, head_hash=head, status=status
                )
            self._close_fd()
            return receipt

    def _shared_shot(self, picture: Path, ref: str) -> FileRef:
        """The last after-shot's own ref when it is `picture`, else `ref` as a second name of it."""
        last = self._last_after.shot if self._last_after is not None else None
        if last is not None and self.folder.resolve(last.path) == picture:
            return last
        return FileRef(path=ref, sha256=sha256_file(self.folder.second_name(picture, ref)))

    def _close_fd(self) -> None:
        self._closed = True
        self._chain.close()

    async def aclose(self) -> None:
        async with self._lock:
            try:
                await self._chain.settle()
            finally:
                self._close_fd()
