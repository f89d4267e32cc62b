"""The terminal's running total counts the whole batch, also after `--resume`."""

from __future__ import annotations

import io

from batch.progress import BatchProgress
from batch.results import CaseResult
from batch.runner import CaseEvent
from executor.models import RunStatus


def result(name: str, status: RunStatus, reason: str = "") -> CaseResult:
    return CaseResult(
        name=name,
        run_id=f"run_{name}",
        run_status=status,
        expected=RunStatus.SUCCESS,
        passed=status == RunStatus.SUCCESS,
        seconds=1.0,
        reason=reason,
    )


def test_a_resumed_batch_counts_the_cases_that_ended_before_it() -> None:
    out = io.StringIO()
    before = [result("a", RunStatus.SUCCESS), result("b", RunStatus.FAILED)]
    progress = BatchProgress(4, before, out=out)
    progress(CaseEvent("ended", "c", "local", result("c", RunStatus.SUCCESS)))
    assert out.getvalue().splitlines()[-1].startswith("[3/4] passed 2  failed 1")


def test_a_new_batch_starts_from_nothing() -> None:
    out = io.StringIO()
    progress = BatchProgress(2, out=out)
    progress(CaseEvent("ended", "a", "local", result("a", RunStatus.FAILED)))
    assert out.getvalue().splitlines()[-1].startswith("[1/2] passed 0  failed 1")


def test_a_failed_case_says_why_under_its_line() -> None:
    out = io.StringIO()
    progress = BatchProgress(1, out=out)
    failed = result("a", RunStatus.FAILED, "HTTP 404 for http://127.0.0.1:8765/nothing.html")
    progress(CaseEvent("ended", "a", "local", failed))
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("  FAIL  a  FAILED (expected SUCCESS)")
    assert lines[1].strip() == "HTTP 404 for http://127.0.0.1:8765/nothing.html"
