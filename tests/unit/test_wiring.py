"""The composition root picks the search provider the settings name (one place builds it)."""

from __future__ import annotations

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
