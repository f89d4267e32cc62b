"""The run store: plans, step runs, evidence, approvals, checkpoints and bundles in one SQLite file.

It is the run journal's durable subscriber (docs/architecture.md, "Run lifecycle"): it survives a
process restart, so a run paused at a gate (or killed between steps) resumes without re-running a
completed step. Models are stored as their own JSON, so the contracts stay the single source of
truth; `PRAGMA user_version` records the schema version and drives the migration from older files.

Step runs are append-only: each save adds a row numbered by the run's step counter, and a
checkpoint stores only the run's head (that counter, budget, pending input, last page). Loading a
checkpoint reads each step's newest row up to its counter, so a checkpoint costs the same at step
10 and at step 10,000 (benchmarks/checkpoint_growth.py).

Durability: WAL with `synchronous=NORMAL` for step saves, which survives a killed process (the WAL
write is complete when COMMIT returns) and costs no fsync per step; a power cut may lose the last
steps, which the conductor then re-runs. Checkpoints, approvals and finished runs are committed with
`synchronous=FULL`: they are rare, and they are what a person relies on after walking away.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from common.contracts import Contract
from common.scrubbed_sqlite import scrubbed_db
from executor.models import (
    Approval,
    BudgetStateV1,
    CheckpointV1,
    EvidenceItem,
    ExecMode,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    StepRunV1,
)
from executor.store import schema as store_schema
from executor.store.checkpoint_refs import RUN_ID, CheckpointStoreError, UnknownCheckpoint, parse_ref
from executor.store.rows import RunSummary, bulk_load, summary
from executor.store.schema import EVIDENCE_SQL, INDEXES, MIGRATIONS, SCHEMA_VERSION, STEPS_SQL
from planner.models import ExecutionPlan

RUNNING = "RUNNING"
_PENDING_STATUS = {
    "CONFIRMATION": RunStatus.NEEDS_CONFIRMATION,
    "CLARIFICATION": RunStatus.NEEDS_CLARIFICATION,
    "BLOCKED": RunStatus.BLOCKED_POLICY,
}
_APPROVALS_SQL = "SELECT data FROM approvals WHERE run_id = ? ORDER BY rowid"

M = TypeVar("M", bound=BaseModel)


class _Head(Contract):
    """A checkpoint as stored: the run's head, not a copy of its steps."""

    step_seq: int
    budget: BudgetStateV1
    pending: PendingUserInput | None = None
    last_url: str | None = None
    created_at: datetime


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class CheckpointStore:
    """SQLite-backed run store; every call is one short transaction.

    Safe to call from several threads (one re-entrant lock serialises the one connection), though
    the conductor calls it on the event loop's thread: worker threads completing futures into a
    qasync loop crashed the Qt test process, so writes stay short instead of moving off the loop.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we issue BEGIN IMMEDIATE ourselves (see _tx); parameters are scrubbed
            self._conn = scrubbed_db(self.path, timeout=5.0, isolation_level=None, check_same_thread=False)
            self._lock = threading.RLock()
            self._conn.row_factory = sqlite3.Row
        except (OSError, sqlite3.Error) as exc:
            raise CheckpointStoreError(f"cannot open checkpoint store {self.path}: {exc}") from exc
        try:
            self._setup()
        except CheckpointStoreError:
            self._conn.close()
            raise

    @classmethod
    def in_memory(cls) -> CheckpointStore:
        """A private database that vanishes on close: for fast unit tests only."""
        return cls(":memory:")

    def _setup(self) -> None:
        with self._guard():
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise CheckpointStoreError(
                    f"checkpoint store {self.path} has schema version {version}; this Waypost reads "
                    f"up to {SCHEMA_VERSION} (written by a newer version?)"
                )
            for pragma in ("busy_timeout = 5000", "foreign_keys = ON", "journal_mode = WAL"):
                self._conn.execute(f"PRAGMA {pragma}")
            self._conn.execute("PRAGMA synchronous = NORMAL")
            self._conn.execute("PRAGMA cache_size = -16384")  # 16 MiB: a 10,000-step load stays in memory
            if version < SCHEMA_VERSION:  # 0: a new file; 1: append-only step runs; 2: legs counted
                with self._tx():
                    for statement in MIGRATIONS[version].split(";\n"):
                        if statement.strip():
                            self._conn.execute(statement)
                    self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self._conn.execute(INDEXES)
            self._conn.execute(store_schema.APPROVED_PLANS)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turns sqlite3 errors into CheckpointStoreError naming the file, so callers see one type."""
        try:
            with self._lock:
                yield
        except sqlite3.Error as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc: sqlite3.Error) -> CheckpointStoreError:
        return CheckpointStoreError(f"checkpoint store {self.path} failed: {exc}")

    @contextmanager
    def _tx(self, *, durable: bool = False, read: bool = False) -> Iterator[sqlite3.Connection]:
        """One short transaction. A write begins IMMEDIATE, taking the lock up front, so another
        process waits on busy_timeout instead of failing on a read-to-write upgrade; a read sees
        one consistent snapshot even while another process writes. It guards as `_guard` does, in
        its own frame: every step's save opens one, and a nested context manager was a measurable
        part of the executor's overhead per step (benchmarks/executor_overhead.py)."""
        try:
            with self._lock:
                if durable:
                    self._conn.execute("PRAGMA synchronous = FULL")
                try:
                    with self._conn:  # commits on success, rolls back on any exception
                        self._conn.execute("BEGIN DEFERRED" if read else "BEGIN IMMEDIATE")
                        yield self._conn
                finally:
                    if durable:
                        self._conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.Error as exc:
            raise self._failed(exc) from exc

    def _unknown(self, what: str) -> UnknownCheckpoint:
        return UnknownCheckpoint(f"no run or checkpoint {what!r} in checkpoint store {self.path}")

    def _load_json(self, model: type[M], text: str, what: str) -> M:
        try:
            return model.model_validate_json(text)
        except ValidationError as exc:
            raise CheckpointStoreError(f"checkpoint store {self.path}: corrupt {what}: {exc}") from exc

    def _run_row(self, run_id: str) -> sqlite3.Row:
        with self._guard():
            row: sqlite3.Row | None = self._conn.execute(
                "SELECT * FROM runs WHERE run_id = ?", (run_id,)
            ).fetchone()
        if row is None:
            raise self._unknown(run_id)
        return row

    def _rows(self, sql: str, args: tuple[Any, ...]) -> list[str]:
        with self._guard():
            return [r[0] for r in self._conn.execute(sql, args).fetchall()]

    def _all(self, model: type[M], sql: str, args: tuple[Any, ...]) -> list[M]:
        return [self._load_json(model, d, model.__name__) for d in self._rows(sql, args)]

    def _load_opt(self, model: type[M], text: str | None, what: str) -> M | None:
        return None if text is None else self._load_json(model, text, what)

    # --- runs ------------------------------------------------------------------------------------

    def start_run(
        self, *, run_id: str, plan: ExecutionPlan, exec_mode: str, task: str = "", run_dir: str | None = None
    ) -> None:
        """Registers a run; for a known run_id (resume) keeps all state, counts one more leg and
        touches updated_at."""
        if not re.fullmatch(RUN_ID, run_id):  # it must fit in a chk:// ref
            raise CheckpointStoreError(f"run_id {run_id!r} must be non-empty, without '/' or spaces")
        try:
            mode = ExecMode(exec_mode).value
        except ValueError:
            raise CheckpointStoreError(f"unknown exec_mode {exec_mode!r} for run {run_id!r}") from None
        now = _now()
        with self._tx() as conn:
            row = conn.execute("SELECT plan_id FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is not None:
                if row[0] != plan.plan_id:  # resuming with another plan would mix two runs' state
                    raise CheckpointStoreError(
                        f"run {run_id!r} belongs to plan {row[0]!r}, not {plan.plan_id!r}"
                    )
                conn.execute(
                    "UPDATE runs SET updated_at = ?, legs = legs + 1 WHERE run_id = ?", (now, run_id)
                )
                return
            conn.execute(
                "INSERT INTO runs (run_id, plan_id, trace_id, task, exec_mode, status, "
                "budget_json, run_dir, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, plan.plan_id, plan.trace_id, task, mode, RUNNING,
                 BudgetStateV1().model_dump_json(), run_dir, now, now),
            )  # fmt: skip
            data = plan.model_dump_json()
            conn.execute("INSERT INTO plans (run_id, data) VALUES (?, ?)", (run_id, data))
            conn.execute("INSERT INTO approved_plans (run_id, data) VALUES (?, ?)", (run_id, data))

    def save_step(
        self,
        run_id: str,
        step_run: StepRunV1,
        *,
        new_evidence: list[EvidenceItem],
        budget: BudgetStateV1,
        last_url: str | None,
    ) -> None:
        """Appends the step run and moves the run's head in one transaction: after a kill, a step is
        either wholly saved (with its evidence and budget) or not at all. Evidence is keyed by
        evidence_id, so saving the same step again never duplicates it. actions_taken is derived from
        the step runs in order, so a save costs the same at step 10 and at step 10,000."""
        now = _now()
        with self._tx() as conn:
            row = conn.execute(
                "UPDATE runs SET budget_json = ?, last_url = ?, updated_at = ?, step_seq = step_seq + 1 "
                "WHERE run_id = ? RETURNING step_seq",
                (budget.model_dump_json(), last_url, now, run_id),
            ).fetchone()
            if row is None:
                raise self._unknown(run_id)
            seq = row[0]
            conn.execute(
                "INSERT INTO step_runs (run_id, seq, step_id, data) VALUES (?, ?, ?, ?)",
                (run_id, seq, step_run.step_id, step_run.model_dump_json()),
            )
            if new_evidence:
                conn.executemany(
                    "INSERT OR IGNORE INTO evidence (run_id, evidence_id, data, seq) VALUES (?, ?, ?, ?)",
                    [(run_id, ev.evidence_id, ev.model_dump_json(), seq) for ev in new_evidence],
                )

    def save_checkpoint(self, run_id: str, pending: PendingUserInput | None) -> str:
        """Names the run's head `chk://<run_id>/<n>`; a pending input also sets the run's status.
        Only the head is stored, so the cost does not grow with the steps already saved."""
        now = _now()
        with self._tx(durable=True) as conn:
            row = conn.execute(
                "SELECT last_checkpoint, status, step_seq, budget_json, last_url FROM runs WHERE run_id = ?",
                (run_id,),
            ).fetchone()
            if row is None:
                raise self._unknown(run_id)
            n, status = row[0] + 1, row[1]
            ref = f"chk://{run_id}/{n}"
            if pending is not None:
                status = _PENDING_STATUS[pending.kind].value
                if pending.checkpoint_ref is None:
                    pending = pending.model_copy(update={"checkpoint_ref": ref})
            budget = self._load_json(BudgetStateV1, row[3], "budget")
            head = _Head(step_seq=row[2], budget=budget, pending=pending, last_url=row[4],
                         created_at=datetime.fromisoformat(now))  # fmt: skip
            conn.execute(
                "INSERT INTO checkpoints (run_id, n, data, created_at) VALUES (?, ?, ?, ?)",
                (run_id, n, head.model_dump_json(), now),
            )
            conn.execute(
                "UPDATE runs SET last_checkpoint = ?, checkpoint_ref = ?, pending_json = ?, status = ?, "
                "updated_at = ? WHERE run_id = ?",
                (n, ref, None if pending is None else pending.model_dump_json(), status, now, run_id),
            )
        return ref

    def _state_at(self, run_id: str, ref: str, head: _Head) -> CheckpointV1:
        """The run as it stood at a head: each step's newest row up to head.step_seq."""
        row = self._run_row(run_id)
        with bulk_load():
            return self._state_rows(run_id, ref, head, row)

    def _state_rows(self, run_id: str, ref: str, head: _Head, row: sqlite3.Row) -> CheckpointV1:
        try:
            steps = self._all(StepRunV1, STEPS_SQL, (run_id, head.step_seq, run_id))
            return CheckpointV1(
                ref=ref,
                run_id=run_id,
                plan_id=row["plan_id"],
                trace_id=row["trace_id"],
                step_runs={s.step_id: s for s in steps},
                evidence=self._all(EvidenceItem, EVIDENCE_SQL, (run_id, head.step_seq)),
                budget=head.budget,
                pending=head.pending,
                actions_taken=[action for step in steps for action in step.actions],
                last_url=head.last_url,
                created_at=head.created_at,
            )
        except (ValidationError, json.JSONDecodeError) as exc:
            raise CheckpointStoreError(
                f"checkpoint store {self.path}: corrupt run {run_id!r}: {exc}"
            ) from exc

    def _live_head(self, run_id: str) -> _Head:
        """What the run last committed, dated by that commit."""
        row = self._run_row(run_id)
        return _Head(
            step_seq=row["step_seq"],
            budget=self._load_json(BudgetStateV1, row["budget_json"], "budget"),
            pending=self._load_opt(PendingUserInput, row["pending_json"], "pending"),
            last_url=row["last_url"],
            created_at=row["updated_at"],
        )

    def _checkpoint(self, run_id: str, n: int, ref: str) -> CheckpointV1:
        data = self._rows("SELECT data FROM checkpoints WHERE run_id = ? AND n = ?", (run_id, n))
        if not data:
            raise self._unknown(ref)
        if '"step_seq"' not in data[0]:  # schema 1 stored the whole snapshot
            return self._load_json(CheckpointV1, data[0], f"checkpoint {ref}")
        return self._state_at(run_id, ref, self._load_json(_Head, data[0], f"checkpoint {ref}"))

    def load(self, ref_or_run_id: str) -> CheckpointV1:
        """A `chk://` ref gives that snapshot; a bare run_id (or n = 0) gives the latest saved state,
        so a run killed between steps resumes from what save_step wrote. Approvals are always the
        run's current ones: a decision given after the pause is exactly what resume needs."""
        is_run_id = re.fullmatch(RUN_ID, ref_or_run_id) and not ref_or_run_id.lower().startswith("chk:")
        run_id, n = (ref_or_run_id, 0) if is_run_id else parse_ref(ref_or_run_id)
        with self._tx(read=True):
            if n == 0:
                state = self._state_at(run_id, f"chk://{run_id}/0", self._live_head(run_id))
            else:
                state = self._checkpoint(run_id, n, ref_or_run_id)
            return state.model_copy(update={"approvals": self.approvals(run_id)})

    def replace_plan(self, run_id: str, plan: ExecutionPlan) -> None:
        """A revised plan (same plan_id) replaces the run's plan; step runs of steps it no longer
        has are dropped, so a resume runs the revised plan and never counts a replaced failure."""
        keep = [s.step_id for s in plan.steps]
        with self._tx(durable=True) as conn:
            row = conn.execute("SELECT plan_id FROM runs WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                raise self._unknown(run_id)
            if row[0] != plan.plan_id:
                raise CheckpointStoreError(f"run {run_id!r} belongs to plan {row[0]!r}, not {plan.plan_id!r}")
            conn.execute("UPDATE plans SET data = ? WHERE run_id = ?", (plan.model_dump_json(), run_id))
            marks = ",".join("?" * len(keep))
            conn.execute(
                f"DELETE FROM step_runs WHERE run_id = ? AND step_id NOT IN ({marks})", (run_id, *keep)
            )

    def leg(self, run_id: str) -> int:
        """Which leg of the run this is: 1 for its start, 2 for its first resume, and so on."""
        return int(self._run_row(run_id)["legs"])

    def has_run(self, run_id: str) -> bool:
        """The run was opened in this store (so `waypost resume` can continue it)."""
        return bool(self._rows("SELECT run_id FROM runs WHERE run_id = ?", (run_id,)))

    def load_plan(self, run_id: str) -> ExecutionPlan:
        rows = self._rows("SELECT data FROM plans WHERE run_id = ?", (run_id,))
        if not rows:
            raise self._unknown(run_id)
        return self._load_json(ExecutionPlan, rows[0], f"plan of {run_id}")

    def load_approved_plan(self, run_id: str) -> ExecutionPlan | None:
        """The plan the run opened with (never replaced by a replan); for a run stored before this
        was kept, its plan if no replan replaced it, else None."""
        rows = self._rows("SELECT data FROM approved_plans WHERE run_id = ?", (run_id,))
        if rows:
            return self._load_json(ExecutionPlan, rows[0], f"approved plan of {run_id}")
        plan = self.load_plan(run_id)
        return plan if plan.version == 1 else None

    # --- approvals ---------------------------------------------------------------------------------

    def record_approval(self, approval: Approval) -> None:
        """Stores a decision for (run, gate, step); a later one for the same scope replaces it."""
        with self._tx(durable=True) as conn:
            if conn.execute("SELECT 1 FROM runs WHERE run_id = ?", (approval.run_id,)).fetchone() is None:
                raise self._unknown(approval.run_id)
            conn.execute(
                "INSERT INTO approvals (run_id, gate_id, step_id, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (run_id, gate_id, step_id) DO UPDATE SET data = excluded.data",
                (approval.run_id, approval.gate_id, approval.step_id, approval.model_dump_json()),
            )

    def approvals(self, run_id: str) -> list[Approval]:
        self._run_row(run_id)
        return self._all(Approval, _APPROVALS_SQL, (run_id,))

    # --- finished runs and history -----------------------------------------------------------------

    def finish_run(self, run_id: str, bundle: RunBundleV1) -> None:
        if bundle.run_id != run_id:
            raise CheckpointStoreError(f"bundle of run {bundle.run_id!r} cannot finish run {run_id!r}")
        with self._tx(durable=True) as conn:
            cur = conn.execute(
                "UPDATE runs SET status = ?, bundle_json = ?, updated_at = ? WHERE run_id = ?",
                (bundle.run_status.value, bundle.model_dump_json(), _now(), run_id),
            )
            if cur.rowcount == 0:
                raise self._unknown(run_id)

    def bundle(self, run_id: str) -> RunBundleV1 | None:
        """The stored RunBundle, or None while the run has not finished."""
        return self._load_opt(RunBundleV1, self._run_row(run_id)["bundle_json"], f"bundle of {run_id}")

    def list_runs(self, limit: int = 100) -> list[RunSummary]:
        """Newest first (creation time, then insertion order for runs started in the same instant)."""
        with self._guard():
            rows = self._conn.execute(store_schema.LIST_RUNS_SQL, (max(0, limit),)).fetchall()
        return [summary(dict(r)) for r in rows]

    def delete_run(self, run_id: str) -> None:
        with self._tx() as conn:
            if conn.execute("DELETE FROM runs WHERE run_id = ?", (run_id,)).rowcount == 0:
                raise self._unknown(run_id)

    # --- lifetime ----------------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the connection; calling it twice is harmless."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> CheckpointStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
