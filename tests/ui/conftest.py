"""UI tests: every async test runs on a qasync loop over the one QApplication, with a real AgentCore.

pytest-asyncio's loop-factory hook puts Qt and asyncio on one loop (docs/architecture.md, "Platform
notes"), so a test can click with qtbot and await the core; Qt signals are awaited through futures,
never with sleeps. The helpers the tests import are in tests/support/window.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from executor.run.service import AgentCore
from tests.support.fake_tools import FakeTool
from ui.event_loop import new_event_loop

if TYPE_CHECKING:
    from app.demo.server import DemoSite
from tests.support.window import Core


def _qasync_loop() -> asyncio.AbstractEventLoop:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([])
    # As in app/gui.py: closing a window must not quit the app under a pending run_until_complete.
    app.setQuitOnLastWindowClosed(False)
    return new_event_loop(app)


@pytest.fixture(autouse=True, scope="session")
def _own_window_settings(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The window saves its geometry in QSettings when it closes: under tests, in a temporary
    folder, never the person's ~/.config (fresh processes get XDG_CONFIG_HOME, test_gui_bootstrap)."""
    folder = str(tmp_path_factory.mktemp("qt-settings"))
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, folder)


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    return {"qasync": _qasync_loop}


@pytest.fixture
def make_core(tmp_path: Path) -> Iterator[Callable[..., AgentCore]]:
    made: list[Core] = []

    def build(*, clock: Callable[[], float] = time.monotonic, **overrides: FakeTool) -> AgentCore:
        made.append(Core(tmp_path, clock, **overrides))
        return made[-1].core

    yield build
    for item in made:
        item.store.close()


@pytest.fixture
def core(make_core: Callable[..., AgentCore]) -> AgentCore:
    return make_core()


@pytest.fixture(scope="module")
def demo_site() -> Iterator[DemoSite]:
    """The bundled demo site, one per module (imported here only when a test asks for it)."""
    from app.demo.server import DemoSite

    with DemoSite(port=None) as site:
        yield site


@pytest.fixture
def demo_core(demo_site: DemoSite, tmp_path: Path) -> Iterator[AgentCore]:
    """The real core as the app wires it (rule planner, real Chromium), searching the demo site."""
    from app.settings import Settings
    from app.wiring import build_core

    core = build_core(
        Settings(runs_dir=tmp_path / "runs", search_url=demo_site.search_template, planner="rules")
    )
    yield core
    core.store.close()
