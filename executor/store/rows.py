"""Reading the run store's rows back: a history line per run (`waypost receipts list`, the window's
history), where a row that does not read back is shown as UNREADABLE instead of failing the list;
and bulk loads of a long run's rows at a cost that grows linearly with the run.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from common.contracts import Contract
from executor.models import PendingUserInput


class RunSummary(Contract):
    """One line of run history (UI, `waypost receipts list`); status is RUNNING or a RunStatus value."""

    run_id: str
    plan_id: str
    trace_id: str
    task: str
    exec_mode: str
    status: str
    created_at: datetime
    updated_at: datetime
    pending: PendingUserInput | None = None
    checkpoint_ref: str | None = None
    run_dir: str | None = None
    #: The page the run was given (its task's address, the URL beside the task, or its first step's
    #: start URL); None for a run that names none, such as a web search.
    page: str | None = None


#: The status a history line shows for a run whose row cannot be read: the other runs still list.
UNREADABLE = "UNREADABLE"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def summary(row: dict[str, Any]) -> RunSummary:
    """One history line; a row that does not validate becomes an UNREADABLE line of its own, so one
    bad row never hides the others (nor stops the window that lists them)."""
    try:
        pending = row.get("pending")
        page = row.get("page")  # read out of the plan's JSON: a page only when it is text
        data = {
            **row,
            "pending": PendingUserInput.model_validate_json(pending) if pending else None,
            "page": page if isinstance(page, str) and page else None,
        }
        return RunSummary.model_validate(data)
    except (ValidationError, TypeError, ValueError):
        text = {k: v if isinstance(v, str) else "" for k, v in row.items()}
        return RunSummary(
            run_id=text.get("run_id") or "?", plan_id=text.get("plan_id", ""),
            trace_id=text.get("trace_id", ""), task=text.get("task", ""),
            exec_mode=text.get("exec_mode", ""), status=UNREADABLE,
            created_at=_EPOCH, updated_at=_EPOCH, run_dir=text.get("run_dir") or None,
        )  # fmt: skip


@contextmanager
def bulk_load() -> Iterator[None]:
    """Pauses the cyclic garbage collector while a run's rows become models: each of the thousands
    of objects a long run's load makes would otherwise trigger collections that rescan all the
    earlier ones, so the load grew faster than the run (benchmarks/checkpoint_growth.py). The models
    hold no reference cycles; anything left is collected once the collector runs again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


__all__ = ["UNREADABLE", "RunSummary", "bulk_load", "summary"]
