"""Fixtures for receipts tests: a run folder in tmp_path and a recorder writing it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from receipts.keys import install_key
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from tests.unit.receipts._helpers import SECRET


@pytest.fixture(autouse=True)
def _own_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This install's receipt key lives in tmp_path: tests never touch the person's data folder."""
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return RunFolder.for_run(tmp_path, "run_test01").root


@pytest.fixture
async def recorder(run_dir: Path) -> AsyncIterator[JsonlRecorder]:
    rec = await JsonlRecorder.open(run_dir, redactor=Redactor([SECRET]), signer=install_key())
    yield rec
    await rec.aclose()
