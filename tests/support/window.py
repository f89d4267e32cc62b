"""Helpers of the window tests: a core on fake tools, plans, an open window, Qt signals awaited as futures,
recorded runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QUrl, SignalInstance
from PySide6.QtGui import QColor, QImage, QImageWriter
from PySide6.QtWidgets import QTableWidget

from executor.run.service import AgentCore
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan
from receipts import Capture, JsonlRecorder, RunFolder
from receipts.keys import install_key
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool, fake_toolbox
from ui.controller import RunController
from ui.kept_secrets import KeptSecrets
from ui.main_window import MainWindow

if TYPE_CHECKING:
    from app.demo.server import DemoSite


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


def prefill_task(site: DemoSite) -> str:
    """The demo's flow B task (prefill the signup form, never send it) on `site`."""
    from app.demo.flows import FLOWS

    (flow,) = [f for f in FLOWS if f.mode == "B"]
    return flow.task(site.base_url)


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
    core: AgentCore, settings: dict[str, Any] | None = None, kept_secrets: KeptSecrets | None = None
) -> AsyncIterator[MainWindow]:
    """A shown MainWindow on its own controller, closed and wound down at the end."""
    window = MainWindow(RunController(core), settings or DEFAULT_SETTINGS, kept_secrets=kept_secrets)
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
