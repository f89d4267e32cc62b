"""The composition root picks the search provider the settings name (one place builds it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings import Settings
from app.wiring import search_provider
from executor.research.defaults import DEFAULT_SEARCH_URL
from executor.research.search import BrowserSearchProvider, LocalFolderProvider, SearxngProvider


def test_search_provider_from_settings(tmp_path: Path) -> None:
    browser = search_provider(Settings(runs_dir=tmp_path))
    assert isinstance(browser, BrowserSearchProvider) and browser.url_template == DEFAULT_SEARCH_URL
    assert isinstance(
        search_provider(Settings(runs_dir=tmp_path, search_url="http://s/?q={query}")), BrowserSearchProvider
    )
    searx = search_provider(Settings(runs_dir=tmp_path, search_provider="searxng", search_url="http://sx"))
    assert isinstance(searx, SearxngProvider)
    local = search_provider(Settings(runs_dir=tmp_path, search_provider="local", search_url=str(tmp_path)))
    assert isinstance(local, LocalFolderProvider)
    with pytest.raises(ValueError, match="needs a search URL"):
        search_provider(Settings(runs_dir=tmp_path, search_provider="searxng"))


def test_building_a_core_freezes_the_loaded_code_once(tmp_path: Path) -> None:
    """Every full garbage collection of a run would walk the modules and schemas again otherwise
    (docs/architecture.md, "Per-step cost"). A fresh interpreter, so no other test froze it first."""
    script = (
        "import gc, sys\n"
        "from app.settings import Settings\n"
        "from app.wiring import build_core\n"
        "assert gc.get_freeze_count() == 0\n"
        "build_core(Settings(runs_dir=sys.argv[1]))\n"
        "frozen = gc.get_freeze_count()\n"
        "build_core(Settings(runs_dir=sys.argv[1]))\n"
        "print(frozen, gc.get_freeze_count())\n"
    )
    env = {**os.environ, "WAYPOST_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "runs")], env=env,
                          capture_output=True, text=True, check=True, timeout=120)  # fmt: skip
    frozen, again = (int(n) for n in done.stdout.split())
    assert frozen > 10_000 and again == frozen  # the core's modules, once
