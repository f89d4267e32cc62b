"""app/gui.py's run_gui in a fresh process: the real bootstrap, a run to the gate, close, exit 0.

A subprocess because run_gui owns its QApplication loop from start to end, as `waypost gui` does;
closing while a gate is open must leave a resumable run and no "Event loop stopped" error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: What both scripts share: the QApplication, and a hook run once at the main window's first event
#: of a kind (shown, painted), before anything else of the window happens.
PRELUDE = """
import json, sys
from pathlib import Path
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

app = QApplication([])

class OnFirst(QObject):
    def __init__(self, kind, then):
        super().__init__()
        self.kind, self.then, self.seen = kind, then, False

    def eventFilter(self, obj, event):
        if event.type() == self.kind and type(obj).__name__ == "MainWindow" and not self.seen:
            self.seen = True
            self.then(obj)
        return False
"""


def run_script(script: str, tmp_path: Path, **env: str) -> dict[str, Any]:
    """Runs PRELUDE + `script` in a fresh Python (Qt offscreen) and returns the JSON it prints last."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + script, str(tmp_path)],
        cwd=ROOT,
        env={
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "PYTHONPATH": str(ROOT),
            "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),  # the window's saved geometry goes here
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Event loop stopped" not in done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


SCRIPT = """
from app.gui import run_gui
from executor.store.checkpoint_store import CheckpointStore
from executor.run.service import AgentCore
from tests.support.fake_tools import fake_toolbox
from tests.support.window import research_then_act

tmp = Path(sys.argv[1])
tools = fake_toolbox()
core = AgentCore(store=CheckpointStore(tmp / "db.sqlite3"), tools=tools, runs_dir=tmp / "runs",
                 rate_overrides={k: (1e9, 10**6) for k in tools})
saved = []

def drive(window):
    window.controller.gate_requested.connect(lambda request: window.close())
    window.settings_saved.connect(saved.append)
    window._on_settings_saved({"safe_mode": True, "runs_dir": "x"})
    window.controller.run_plan(research_then_act())

hook = OnFirst(QEvent.Type.Show, lambda window: QTimer.singleShot(0, lambda: drive(window)))
app.installEventFilter(hook)
def on_saved(values):
    saved.append(values)
    return core

rc = run_gui(lambda: core, {"safe_mode": True, "runs_dir": str(tmp / "runs")}, on_saved)
history = [(r.status, r.pending.step_id if r.pending else None) for r in core.history()]
print(json.dumps({"rc": rc, "saved": len(saved), "history": history}))
"""


def test_run_gui_closes_at_a_gate_and_leaves_a_resumable_run(tmp_path: Path) -> None:
    result = run_script(SCRIPT, tmp_path)
    assert result == {"rc": 0, "saved": 2, "history": [["NEEDS_CONFIRMATION", "a1"]]}


FIRST_PAINT_SCRIPT = """
HEAVY = ("executor.run.service", "playwright", "openai", "numpy", "pocketsphinx", "PySide6.QtMultimedia")
seen = {}
built = []

def on_paint(window):
    seen["loaded"] = sorted(m for m in HEAVY if m in sys.modules)
    seen["core_built"] = bool(built)
    seen["window"] = window

def core():
    from app.wiring import build_core
    from app.settings import Settings
    built.append(True)
    QTimer.singleShot(0, seen["window"].close)
    return build_core(Settings(runs_dir=Path(sys.argv[1]) / "runs", planner="rules"))

hook = OnFirst(QEvent.Type.Paint, on_paint)
app.installEventFilter(hook)
from app.gui import run_gui
from app.voice_gui import voice_factory
from app.settings import Settings
rc = run_gui(core, {"safe_mode": True}, lambda values: None, voice=voice_factory(Settings()))
print(json.dumps({"rc": rc, "loaded": seen["loaded"], "core_built": seen["core_built"], "built": built}))
"""


def test_the_window_paints_before_the_core_and_heavy_libraries_load(tmp_path: Path) -> None:
    """First paint comes first: the core, Playwright, the model client, numpy and Qt Multimedia are
    loaded after the person sees the window (the timing is benchmarks/cold_start.py's)."""
    result = run_script(FIRST_PAINT_SCRIPT, tmp_path, WAYPOST_CONFIG_DIR=str(tmp_path / "config"))
    assert result == {"rc": 0, "loaded": [], "core_built": False, "built": [True]}
