"""The batch journal: a batch is a journal of runs, kept in its own folder beside the runs.

    <runs_dir>/batches/<batch_id>/
        batch.json     how it was started (workers, endpoints, approval policy, JUnit path)
        suite.jsonl    the cases, as parsed (a resume needs no suite file)
        journal.jsonl  one line per event: a case's run started (with its run id), or a case ended
        index.html     one row per case, linking each run's report

Each line is written and fsynced before the next step, so after a kill -9 the journal says which
cases ended (never run again) and which run was in flight (resumed, not started over).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from batch.endpoint_secrets import kept as kept_endpoint
from batch.results import CaseResult
from batch.suite import SuiteCase, dump_suite, parse_suite
from batch.suite_secrets import kept
from common.bounded_read import FILE_BYTES, NOTE_BYTES, SUITE_BYTES, FileTooLarge, read_bytes, read_text
from common.contracts import Contract, new_id, utc_now
from common.secrecy import scrub_data
from executor.gates.approval import ApprovalPolicy
from receipts.layout import write_atomic

_BATCH_ID = re.compile(r"^batch_[0-9a-f]{12}$")


class BatchJournalError(ValueError):
    """No such batch, or its folder cannot be read back."""


class BatchSpec(Contract):
    """How a batch runs; stored so `--resume` goes on with the same settings."""

    batch_id: str
    workers: int = Field(ge=1)
    endpoints: list[str] = Field(default_factory=list)
    per_endpoint: int = Field(ge=1)
    approve: ApprovalPolicy
    #: Whether concurrent runs on an endpoint share a browser (browser/grid.py `GridClient`).
    isolation: Literal["browser", "context"] = "browser"
    junit: str | None = None
    created_at: str = Field(default_factory=lambda: utc_now().isoformat())


@dataclass
class JournalState:
    ended: dict[str, CaseResult] = field(default_factory=dict)
    in_flight: dict[str, str] = field(default_factory=dict)  # case name -> run id of its last start


def batches_dir(runs_dir: Path) -> Path:
    return runs_dir / "batches"


class BatchJournal:
    def __init__(self, folder: Path, spec: BatchSpec, cases: list[SuiteCase]) -> None:
        self.folder = folder
        self.spec = spec
        self.cases = cases

    @property
    def path(self) -> Path:
        return self.folder / "journal.jsonl"

    @classmethod
    def create(cls, runs_dir: Path, cases: list[SuiteCase], **spec: object) -> BatchJournal:
        batch_id = new_id("batch")
        folder = batches_dir(runs_dir) / batch_id
        folder.mkdir(parents=True, exist_ok=False)
        made = BatchSpec.model_validate({"batch_id": batch_id, **spec})
        stored = dump_suite([kept(case) for case in cases])  # no secret value is written (suite_secrets)
        write_atomic(folder / "suite.jsonl", stored.encode("utf-8"))
        shown = made.model_copy(update={"endpoints": [kept_endpoint(url) for url in made.endpoints]})
        write_atomic(folder / "batch.json", shown.model_dump_json(indent=2).encode("utf-8"))
        return cls(folder, made, cases)

    @classmethod
    def open(cls, runs_dir: Path, batch_id: str) -> BatchJournal:
        if not _BATCH_ID.match(batch_id):
            raise BatchJournalError(f"{batch_id!r} is not a batch id (batch_ and 12 hex digits)")
        folder = batches_dir(runs_dir) / batch_id
        if not folder.is_dir():
            raise BatchJournalError(f"no batch {batch_id!r} in {batches_dir(runs_dir)}")
        try:
            spec = BatchSpec.model_validate_json(
                read_bytes(folder / "batch.json", NOTE_BYTES, what="batch file")
            )
            cases = parse_suite(
                read_text(folder / "suite.jsonl", SUITE_BYTES, what="suite"), source="suite.jsonl"
            )
        except (OSError, ValidationError, ValueError) as exc:
            raise BatchJournalError(f"batch {batch_id} cannot be read back: {exc}") from exc
        return cls(folder, spec, cases)

    def _append(self, event: dict[str, object]) -> None:
        line = json.dumps(scrub_data({**event, "at": utc_now().isoformat()}), ensure_ascii=False) + "\n"
        with self.path.open("a", encoding="utf-8") as out:
            out.write(line)
            out.flush()
            os.fsync(out.fileno())

    def started(self, case: str, run_id: str, endpoint: str | None) -> None:
        self._append({"event": "started", "case": case, "run_id": run_id, "endpoint": endpoint})

    def ended(self, result: CaseResult) -> None:
        self._append({"event": "ended", "case": result.name, "result": result.model_dump(mode="json")})

    def state(self) -> JournalState:
        """What the journal says so far; a torn last line (a kill mid-write) is ignored."""
        state = JournalState()
        try:
            lines = read_text(self.path, FILE_BYTES, what="batch journal").splitlines()
        except FileNotFoundError:
            return state
        except FileTooLarge as exc:
            raise BatchJournalError(str(exc)) from exc
        for line in lines:
            try:
                event = json.loads(line)
                if event["event"] == "started":
                    state.in_flight[event["case"]] = event["run_id"]
                elif event["event"] == "ended":
                    state.ended[event["case"]] = CaseResult.model_validate(event["result"])
                    state.in_flight.pop(event["case"], None)
            except (json.JSONDecodeError, KeyError, TypeError, ValidationError):
                continue
        return state
