"""What a person sees on a terminal while a batch runs: a line per case as it starts and ends, and
a total (done/total, passed, failed, time left) after each case that ends."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable
from typing import TextIO

from batch.results import CaseResult
from batch.runner import CaseEvent
from common.secrecy import scrub


class BatchProgress:
    def __init__(self, total: int, ended: Iterable[CaseResult] = (), out: TextIO | None = None) -> None:
        """`ended`: cases a resumed batch already finished, so the totals count the whole batch."""
        ended = list(ended)
        self.total = total
        self.done = len(ended)
        self.passed = sum(1 for result in ended if result.passed)
        self.failed = self.done - self.passed
        self._began = time.monotonic()
        self._ended_here = 0
        self._out = out or sys.stderr

    def __call__(self, event: CaseEvent) -> None:
        if event.kind == "started":
            self._say(f"  run   {event.case}  on {event.endpoint}")
            return
        if event.kind == "moved":
            self._say(f"  moved {event.case}  to {event.endpoint} (its browser endpoint stopped answering)")
            return
        result = event.result
        assert result is not None
        self.done += 1
        self._ended_here += 1
        if result.passed:
            self.passed += 1
        else:
            self.failed += 1
        verdict = "PASS" if result.passed else "FAIL"
        expected = "" if result.passed else f" (expected {result.expected})"
        self._say(f"  {verdict}  {result.name}  {result.run_status}{expected}  {result.seconds:.1f} s")
        if not result.passed and result.reason:  # why, in words, where the person is looking
            self._say(f"        {result.reason}")
        self._say(self.total_line())

    def total_line(self) -> str:
        elapsed = time.monotonic() - self._began
        left = self.total - self.done
        eta = f"about {elapsed / self._ended_here * left:.0f} s left" if self._ended_here and left else ""
        return f"[{self.done}/{self.total}] passed {self.passed}  failed {self.failed}" + (
            f"  {eta}" if eta else ""
        )

    def _say(self, line: str) -> None:
        print(scrub(line), file=self._out, flush=True)
