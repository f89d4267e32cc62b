"""The act loop harness as a fixture (tests/support/loop_harness.py): act steps through the real
conductor, store and recorder, on a scripted driver."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.loop_harness import LoopHarness


@pytest.fixture
def loop(tmp_path: Path) -> LoopHarness:
    return LoopHarness(tmp_path)
