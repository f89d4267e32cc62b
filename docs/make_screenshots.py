"""Makes docs/screenshot-{gate,answer,receipts,history}.png from real runs in the real window.

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/make_screenshots.py
    WAYPOST_THEME=dark xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/make_screenshots.py --dark
    xvfb-run -a -s "-screen 0 800x600x24" .venv/bin/python docs/make_screenshots.py --out /tmp/shots

The default size is the window's own (it fits the screen); `--out` writes the pictures elsewhere
(the 800x600 check is looked at, not kept in docs/); `--dark` makes only the gate picture, as
screenshot-gate-dark.png (run it with WAYPOST_THEME=dark).

The window drives example flow C (research, recommend, prefill, don't submit) through the real core:
the bundled demo site, headless Chromium, the rule planner and real receipts. The first picture is
taken while the gate dialog asks before the form is touched, the fields it will fill boxed on the
form; the second shows the answer, the third the receipts of the finished run with its screenshots
side by side. A research run (flow A) follows, and the last picture is the History list.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import TypeVar

from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.demo.flows import FLOWS  # noqa: E402
from app.demo.server import DemoSite  # noqa: E402
from app.demo.sites import DemoSites  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.voice_gui import voice_factory  # noqa: E402
from app.wiring import build_core  # noqa: E402
from executor.models import RunBundleV1  # noqa: E402
from ui.controller import RunController  # noqa: E402
from ui.event_loop import new_event_loop  # noqa: E402
from ui.examples import ExampleTask  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402
from ui.receipts_model import ACTION_WORDS, COLUMNS  # noqa: E402
from ui.theme import apply_theme  # noqa: E402
from ui.words import mode_words  # noqa: E402

DOCS = ROOT / "docs"
T = TypeVar("T")


async def settle() -> None:
    """Lets the window lay out before the grab (this makes a picture; it is not a test)."""
    await asyncio.sleep(0.5)


def resolve(future: asyncio.Future[T], value: T) -> None:
    if not future.done():
        future.set_result(value)


async def main(tmp: Path, out: Path, dark: bool = False) -> None:
    with DemoSite() as site:
        settings = Settings(runs_dir=tmp / "runs", search_url=site.search_template, planner="rules")
        core = build_core(settings)
        examples = [
            ExampleTask(f.mode, f"{mode_words(f.mode)} · {f.title}", f.task(site.base_url)) for f in FLOWS
        ]
        controller = RunController(core, site=DemoSites(site))
        window = MainWindow(controller, settings.model_dump(mode="json"), examples=examples)
        window.show()
        window.attach_voice(voice_factory(settings)())  # the Speak row, as `waypost gui` adds it
        window.task_panel.use_example(examples[2])
        asked: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        finished: asyncio.Future[RunBundleV1] = asyncio.get_running_loop().create_future()
        window.controller.gate_requested.connect(lambda r: resolve(asked, r))
        window.controller.run_finished.connect(lambda b: resolve(finished, b))
        window.task_panel.run_button.click()
        await asyncio.wait_for(asked, 120)
        await settle()
        name = "screenshot-gate-dark.png" if dark else "screenshot-gate.png"
        QApplication.primaryScreen().grabWindow(0).save(str(out / name))
        print("wrote", out / name)
        if dark:
            window.controller.deny()
            await window.controller.wait_idle()
            window.close()
            await window.aclose()
            return
        window.controller.approve()
        bundle = await asyncio.wait_for(finished, 120)
        await window.controller.wait_idle()
        await settle()
        QApplication.primaryScreen().grabWindow(0).save(str(out / "screenshot-answer.png"))
        print("wrote", out / "screenshot-answer.png", bundle.run_status)
        window.tabs.setCurrentWidget(window.receipts_viewer)
        window.splitter.setSizes([window.width() * 3 // 10, window.width() * 7 // 10])  # bigger pictures
        await window.receipts_viewer.load(core.run_dir(bundle.run_id))
        await window.receipts_viewer.verify_run()
        window.receipts_viewer.table.selectRow(
            first_fill(window)
        )  # its before/after pictures show the change
        await settle()
        QApplication.primaryScreen().grabWindow(0).save(str(out / "screenshot-receipts.png"))
        print("wrote", out / "screenshot-receipts.png")
        await research_then_history(window, examples[0], out)
        window.close()
        await window.aclose()


def first_fill(window: MainWindow) -> int:
    """The receipts row of the first fill (reads come first in a research-then-act run)."""
    model = window.receipts_viewer.model
    action = COLUMNS.index("Action")
    rows = range(model.rowCount())
    return next((r for r in rows if model.index(r, action).data() == ACTION_WORDS["fill"]), 0)


async def research_then_history(window: MainWindow, research: ExampleTask, out: Path) -> None:
    finished: asyncio.Future[RunBundleV1] = asyncio.get_running_loop().create_future()
    window.controller.run_finished.connect(lambda b: resolve(finished, b))
    window.task_panel.use_example(research)
    window.task_panel.run_button.click()
    await asyncio.wait_for(finished, 120)
    await window.controller.wait_idle()
    window.tabs.setCurrentWidget(window.history_panel)
    await settle()
    QApplication.primaryScreen().grabWindow(0).save(str(out / "screenshot-history.png"))
    print("wrote", out / "screenshot-history.png")


if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    apply_theme(app)
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    out = Path(sys.argv[sys.argv.index("--out") + 1]) if "--out" in sys.argv else DOCS
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, loop:
        loop.run_until_complete(main(Path(tmp), out, "--dark" in sys.argv))
