"""Attack tests: each reproduces an attack as it was found and checks it now does no harm."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def waypost_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "data"))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WAYPOST_RUNS_DIR", "WAYPOST_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


# One shared Chromium and the act harness, as the act integration tests use them.
from tests.integration.act.conftest import act_harness as act_harness  # noqa: E402
from tests.integration.act.conftest import chromium as chromium  # noqa: E402
