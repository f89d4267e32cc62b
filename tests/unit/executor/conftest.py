"""Fixtures of the executor tests: a real SQLite store and the conductor harness on it
(tests/support/conductor_harness.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from executor.store.checkpoint_store import CheckpointStore
from tests.support.conductor_harness import Harness
from tests.support.fake_tools import fake_toolbox


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CheckpointStore]:
    with CheckpointStore(tmp_path / "waypost.sqlite3") as opened:
        yield opened


@pytest.fixture
def harness(store: CheckpointStore) -> Harness:
    return Harness(store, fake_toolbox())
