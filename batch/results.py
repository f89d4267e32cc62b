"""What a batch reports: one result per case and the totals, as the `--json` document prints them."""

from __future__ import annotations

from pydantic import Field

from common.contracts import Contract
from executor.models import RunStatus


class CaseResult(Contract):
    """A case that ended: its run's true status against the one it expected."""

    name: str
    run_id: str | None
    run_status: RunStatus
    expected: RunStatus
    passed: bool
    seconds: float = Field(ge=0)
    endpoint: str | None = None
    reason: str = ""
    answer: str | None = None  # the run's final answer, as `waypost run` prints it
    report: str | None = None  # the run's report.html, when its receipts could be rendered
    attempts: int = Field(default=1, ge=1)


class BatchSummary(Contract):
    batch_id: str
    runs: list[CaseResult]
    passed: int
    failed: int
    seconds: float

    @classmethod
    def of(cls, batch_id: str, runs: list[CaseResult], seconds: float) -> BatchSummary:
        passed = sum(r.passed for r in runs)
        return cls(batch_id=batch_id, runs=runs, passed=passed, failed=len(runs) - passed, seconds=seconds)

    @property
    def exit_code(self) -> int:
        """0 when every case met its expectation, 1 otherwise (2, a bad suite, never gets here)."""
        return 0 if self.failed == 0 else 1

    def document(self) -> dict[str, object]:
        keys = {"name", "run_id", "run_status", "expected", "passed", "seconds", "endpoint"}
        keys |= {"reason", "answer"}  # in words, for a person reading the document
        runs = [{k: v for k, v in r.model_dump(mode="json").items() if k in keys} for r in self.runs]
        return {
            "batch_id": self.batch_id,
            "runs": runs,
            "passed": self.passed,
            "failed": self.failed,
            "seconds": round(self.seconds, 3),
        }
