"""UI tests: every async test runs on a qasync loop over the one QApplication, with a real AgentCore.

pytest-asyncio's loop-factory hook puts Qt and asyncio on one loop (docs/architecture.md, "Platform
notes"), so a test can
click with qtbot and await the core; Qt signals are awaited through futures, never with sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, QUrl, SignalInstance
from PySide6.QtGui import QColor, QImage, QImageWriter
from PySide6.QtWidgets import QApplication, QTableWidget

from executor.checkpoint_store import CheckpointStore
from executor.service import AgentCore
from planner.models import ExecutionPlan
from receipts import Capture, JsonlRecorder, RunFolder
from receipts.keys import install_key
from tests.support.fake_tools import FakeTool, fake_toolbox
from ui.controller import RunController
from ui.event_loop import new_event_loop
from ui.main_window import MainWindow
from ui.secret_vault import SecretVault

if TYPE_CHECKING:
    from app.demo.server import DemoSite


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


class Core:
    """A real AgentCore on fake tools, a real SQLite store and a runs folder under tmp_path."""

    def __init__(self, tmp_path: Path, clock: Callable[[], float], **overrides: FakeTool) -> None:
        self.tools = fake_toolbox(**overrides)
        self.store = CheckpointStore(tmp_path / "db.sqlite3")
        self.core = AgentCore(
            store=self.store,
            tools=self.tools,
            runs_dir=tmp_path / "runs",
            rate_overrides={k: (1e9, 10**6) for k in self.tools},
            clock=clock,
        )


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


def prefill_task(site: DemoSite) -> str:
    """The demo's flow B task (prefill the signup form, never send it) on `site`."""
    from app.demo.flows import FLOWS

    (flow,) = [f for f in FLOWS if f.mode == "B"]
    return flow.task(site.base_url)


def make_plan(mode: str, steps: list[dict[str, Any]], **extra: Any) -> ExecutionPlan:
    """`steps` as compact dicts: {"step_id": "r1", "type": "WEB_SEARCH", "depends_on": [...]}."""
    return ExecutionPlan.model_validate({"mode": mode, "steps": steps, **extra})


def research_then_act() -> ExecutionPlan:
    """Mode C: two research steps, then one gated form fill (blocked: submit)."""
    return make_plan(
        "C",
        [
            {"step_id": "r1", "type": "WEB_SEARCH", "name": "Search packages"},
            {"step_id": "c1", "type": "COMPUTE", "name": "Compare prices", "depends_on": ["r1"]},
            {
                "step_id": "a1",
                "type": "FORM_FILL",
                "name": "Prefill signup",
                "depends_on": ["c1"],
                "policy_gate_id": "gate_action",
                "inputs": {
                    "url": "http://127.0.0.1/signup",
                    "actions": [{"kind": "fill", "target": {"label": "Email"}, "value": "a@b.co"}],
                },
            },
        ],
        policy_gates=[
            {
                "gate_id": "gate_action",
                "kind": "action",
                "reason": "About to fill the signup form",
                "blocked_actions": ["submit"],
            }
        ],
    )


def next_emit(signal: SignalInstance) -> asyncio.Future[tuple[Any, ...]]:
    """A future resolved with the arguments of the signal's next emission."""
    future: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def resolve(*args: Any) -> None:
        if not future.done():
            future.set_result(args)
        signal.disconnect(resolve)

    signal.connect(resolve)
    return future


def png_bytes(colour: str = "#3b82f6", size: tuple[int, int] = (320, 200)) -> bytes:
    """A real PNG of one colour, as a browser screenshot would be."""
    image = QImage(size[0], size[1], QImage.Format.Format_RGB32)
    image.fill(QColor(colour))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    QImageWriter(buffer, QByteArray(b"PNG")).write(image)
    buffer.close()
    return bytes(data.data())


async def record_run(runs_dir: Path, run_id: str = "run_recorded") -> Path:
    """A run folder written by the real JsonlRecorder: two actions with screenshots, a gate, the end."""
    folder = RunFolder.for_run(runs_dir, run_id).create()
    recorder = await JsonlRecorder.open(folder, signer=install_key())  # signed as every run is
    signup = "http://127.0.0.1:8000/signup"
    await recorder.record_action(
        action={"kind": "navigate", "url": signup},
        outcome={"status": "ok"},
        before=Capture(url="about:blank", dom_hash="a" * 64, screenshot=png_bytes("#e5e7eb")),
        after=Capture(url=signup, title="Sign up", dom_hash="b" * 64, screenshot=png_bytes("#93c5fd")),
        step_id="a1",
    )
    await recorder.record_gate_decision(gate_id="gate_action", decision="ALLOW", step_id="a1")
    await recorder.record_action(
        action={"kind": "fill", "target": {"label": "Password"}, "value": "hunter2-secret"},
        outcome={"status": "ok"},
        before=Capture(url=signup, title="Sign up", dom_hash="b" * 64, screenshot=png_bytes("#93c5fd")),
        after=Capture(url=signup, title="Sign up", dom_hash="c" * 64, screenshot=png_bytes("#86efac")),
        step_id="a1",
        field_type="password",
    )
    await recorder.finish("SUCCESS", reason="all steps finished")
    return folder.root


DEFAULT_SETTINGS: dict[str, Any] = {"safe_mode": True, "planner": "rules", "runs_dir": "/tmp/runs"}


@contextlib.asynccontextmanager
async def open_window(
    core: AgentCore, settings: dict[str, Any] | None = None, vault: SecretVault | None = None
) -> AsyncIterator[MainWindow]:
    """A shown MainWindow on its own controller, closed and wound down at the end."""
    window = MainWindow(RunController(core), settings or DEFAULT_SETTINGS, vault=vault)
    window.show()
    try:
        yield window
    finally:
        window.close()
        await asyncio.wait_for(window.aclose(), 10)
        window.deleteLater()


def record(into: list[QUrl], url: QUrl) -> bool:
    """An `open_url` stand-in: notes the URL instead of launching a browser."""
    into.append(url)
    return True


def cell_text(table: QTableWidget, row: int, column: int) -> str:
    item = table.item(row, column)
    assert item is not None, f"no cell at {row},{column}"
    return item.text()
