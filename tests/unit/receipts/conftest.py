"""Fixtures for receipts tests: a run folder in tmp_path and a recorder writing it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from tests.unit.receipts._helpers import SECRET


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return RunFolder.for_run(tmp_path, "run_test01").root


@pytest.fixture
async def recorder(run_dir: Path) -> AsyncIterator[JsonlRecorder]:
    rec = await JsonlRecorder.open(run_dir, redactor=Redactor([SECRET]))
    yield rec
    await rec.aclose()
