"""The window's first paint comes before anything but Qt and the window's own modules is imported.

`waypost gui` from its entry point (app/entry.py) in a fresh process: at the main window's first
Paint event the loaded modules are read. Before, the settings (pydantic), the CLI, the demo site and
the core's models were all loaded first. Timings are in benchmarks/ui_responsiveness.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

app = QApplication([])
seen = {}

class Hook(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and type(obj).__name__ == "MainWindow" and not seen:
            seen["modules"] = sorted(sys.modules)
            QTimer.singleShot(0, obj.close)
        return False

hook = Hook()
app.installEventFilter(hook)
sys.argv = ["waypost", "gui", "--runs-dir", sys.argv[1]]
from app.entry import main
rc = main()
print(json.dumps({"rc": rc, "modules": seen.get("modules", [])}))
"""

#: Qt, its asyncio bridge, and the window's own modules; the rest must be Python's standard library.
ALLOWED = {
    "PySide6",
    "shiboken6",
    "shibokensupport",
    "signature_bootstrap",
    "__feature__",
    "qasync",
    "ui",
    "app",
    "common",  # start-up moments, paths and a bounded read: the standard library alone
}
ALLOWED |= {"__main__", "_distutils_hack"}
#: The app modules that belong to the window's start (the rest load after the first paint).
WINDOW_APP = {
    "app",
    "app.entry",
    "app.stopped",
    "app.gui_boot",
    "app.gui",
    "app.hardening",
    "app.cli_errors",  # the shared-folder refusal, before any window (app/window_folders.py)
    "app.window_folders",
}


def home_env(tmp_path: Path, config: Path | None = None) -> dict[str, str]:
    """Offscreen, with this checkout first on the path and Waypost's folders under tmp_path."""
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        "WAYPOST_CONFIG_DIR": str(config or tmp_path / "config"),
        "WAYPOST_DATA_DIR": str(tmp_path / "data"),
    }


def open_gui(tmp_path: Path, runs: Path, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    """`waypost gui --runs-dir RUNS` from its entry point in a fresh process; its last stdout line
    is the JSON of SCRIPT."""
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, str(runs)],
        cwd=ROOT, env=home_env(tmp_path, config), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_nothing_but_qt_and_the_window_is_imported_before_the_first_paint(tmp_path: Path) -> None:
    done = open_gui(tmp_path, tmp_path / "runs")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["rc"] == 0
    modules: list[str] = result["modules"]
    assert modules, "the window never painted"
    tops = {m.split(".")[0] for m in modules}
    foreign = sorted(
        t
        for t in tops
        if t not in ALLOWED and t not in sys.stdlib_module_names and not t.startswith("__editable__")
    )
    assert foreign == [], f"imported before the first paint: {foreign}"
    assert {m for m in modules if m.split(".")[0] == "app"} <= WINDOW_APP


def test_a_settings_file_that_cannot_be_read_is_a_sentence_and_exit_2(tmp_path: Path) -> None:
    """The settings load after the first paint now: a bad file is said in the window and on stderr."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text("planner = [not toml", encoding="utf-8")
    done = open_gui(tmp_path, tmp_path / "runs", config=config)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["rc"] == 2
    assert "waypost: cannot read settings" in done.stderr and "Traceback" not in done.stderr


def test_a_shared_runs_folder_is_refused_before_any_window(tmp_path: Path) -> None:
    """`waypost gui` refuses a runs folder other users can write, as every other command does, with
    the same sentence and exit 2, and builds no window (before, the window opened on it)."""
    from app.hardening import shared_folder

    shared = tmp_path / "shared-runs"
    shared.mkdir()
    shared.chmod(0o777)
    done = open_gui(tmp_path, shared)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"rc": 2, "modules": []}  # no window ever painted
    assert done.stderr.strip() == f"waypost: {shared_folder(shared, 'runs folder')}"
    cli = subprocess.run(
        [sys.executable, "-m", "app", "receipts", "list", "--runs-dir", str(shared)],
        cwd=ROOT, env=home_env(tmp_path), capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (cli.returncode, cli.stderr) == (2, done.stderr)
