"""Research runs end to end: the rule planner's plans, RunConductor, a real headless Chromium per run
(launched by RunResources, as in the app), the fixture site's search engine and vendor pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from executor.research.search import BrowserSearchProvider, SearchProvider
from executor.store.checkpoint_store import CheckpointStore
from tests.support.research_run import search_template
from tests.support.site import FixtureSite


@pytest.fixture
def provider(site: FixtureSite) -> SearchProvider:
    return BrowserSearchProvider(search_template(site))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CheckpointStore]:
    with CheckpointStore(tmp_path / "db") as opened:
        yield opened
