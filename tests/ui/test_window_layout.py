"""Nothing overlaps at 1280x800 or 800x600, the voice row included; long words wrap rather than cut.

Before, the voice row was laid over the task box's last line (the task box sat in a splitter sized
below what its rows need), step names were cut ("Open the datafeed p…") and the microphone note was
cut mid-word at 800 px.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QLayout, QWidget
from pytestqt.exceptions import TimeoutError as WaitTimeout
from pytestqt.qtbot import QtBot

from executor.run.service import AgentCore
from planner.models import ExecutionPlan
from tests.support.fake_mic import FakeMicRecorder
from tests.support.window import DEFAULT_SETTINGS
from ui.controller import RunController
from ui.main_window import MainWindow
from ui.theme import apply_theme
from ui.voice_controller import VoiceController

LONG_STEPS = [
    "Open the datafeed packages page and read every plan it lists",
    "Search the web for independent reviews of the datafeed packages",
    "Score, recommend and prepare the signup details for the chosen package",
]


class QuietEngine:
    """A transcriber that is never asked: the bar only names it."""

    name = "quiet"
    languages = ("en",)


def overlaps(root: QWidget) -> list[str]:
    """Pairs of visible widgets laid out side by side (in one layout) whose rectangles intersect."""
    found = []
    for layout in root.findChildren(QLayout):
        items = [item.widget() for i in range(layout.count()) if (item := layout.itemAt(i)) is not None]
        shown = [w for w in items if w is not None and w.isVisible() and w.width() > 0 and w.height() > 0]
        for a, b in itertools.combinations(shown, 2):
            if QRect(a.geometry()).intersects(b.geometry()):
                found.append(f"{type(a).__name__} {a.geometry()} x {type(b).__name__} {b.geometry()}")
    return found


@pytest.fixture
def themed(qapp: QApplication) -> Iterator[None]:
    """The app's style sheet, as the window runs (its padding makes every row taller)."""
    style, palette = qapp.style().name(), qapp.palette()
    apply_theme(qapp)
    yield
    qapp.setStyleSheet("")
    qapp.setStyle(style)
    qapp.setPalette(palette)


@pytest.mark.parametrize("size", [(1280, 800), (800, 600), (800, 560)])
@pytest.mark.usefixtures("themed")
def test_nothing_overlaps_and_the_voice_row_sits_under_the_task_box(
    qtbot: QtBot, core: AgentCore, size: tuple[int, int]
) -> None:
    """800x560 is what the window takes on an 800x600 screen; there a long task with the search note
    over a plan whose table asked for its full height laid the voice row over the task box."""
    mic = FakeMicRecorder(available=False)  # "No microphone found…": the longest note the row shows
    voice = VoiceController(mic, QuietEngine())  # type: ignore[arg-type]
    window = MainWindow(RunController(core), DEFAULT_SETTINGS, voice=voice)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    window.task_panel.task_edit.setPlainText(" ".join(LONG_STEPS))  # more lines than the box shows
    window.task_panel.set_search_note("Research searches the bundled demo site (offline: nothing leaves "
                                      "this computer). To change: File › Settings › Search.")  # fmt: skip
    plan = ExecutionPlan.model_validate(
        {
            "mode": "A",
            "steps": [{"step_id": f"s{i}", "type": "OPEN_URL", "name": n} for i, n in enumerate(LONG_STEPS)],
        }
    )
    window.plan_view.set_plan(plan, "rules")
    for tab in range(window.tabs.count()):  # every page laid out at this size
        window.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(lambda: window.tabs.currentWidget().isVisible())
        with contextlib.suppress(WaitTimeout):  # the layout settles (wrapped lines re-measured)
            qtbot.waitUntil(lambda: overlaps(window) == [], timeout=2000)
        assert overlaps(window) == [], f"tab {window.tabs.tabText(tab)} at {size}"
    bar, edit = window.voice_bar, window.task_panel.task_edit
    assert bar is not None
    below = bar.mapTo(window, bar.rect().topLeft()).y()
    assert edit.mapTo(window, edit.rect().bottomLeft()).y() < below, "the voice row covers the task box"
    note = bar.status_label
    assert note.wordWrap() and note.heightForWidth(note.width()) <= note.height() + 1  # all of it shows
    table = window.plan_view.table
    for row, name in enumerate(LONG_STEPS):
        index = window.plan_view.model.index(row, 0)
        assert index.data() == name and name in str(
            index.data(Qt.ItemDataRole.ToolTipRole)
        )  # whole, and whole in the tooltip
        assert table.rowHeight(row) >= table.fontMetrics().height()
    assert table.wordWrap()


def _mnemonic(text: str) -> str | None:
    at = text.replace("&&", "").find("&")
    return text.replace("&&", "")[at + 1].lower() if 0 <= at < len(text) - 1 else None


def test_every_alt_key_reaches_one_thing(qtbot: QtBot, core: AgentCore) -> None:
    """Alt+P meant both Plan and History's Replay, Alt+R both Run and History's Receipts, Alt+F both the
    File menu and Open folder: a person pressing them got the other one."""
    from PySide6.QtWidgets import QAbstractButton, QLabel

    from ui.settings_dialog import SettingsDialog

    window = MainWindow(RunController(core), DEFAULT_SETTINGS)
    qtbot.addWidget(window)
    window.finish_tabs()
    pages = [window.tabs.widget(i) for i in range(window.tabs.count())]

    def page_of(button: QWidget) -> int:
        return next((i for i, page in enumerate(pages) if page is not None and page.isAncestorOf(button)), -1)

    buttons = [b for b in window.findChildren(QAbstractButton) if b.text()]
    always = [b.text() for b in buttons if page_of(b) < 0]
    always += [window.tabs.tabText(i) for i in range(window.tabs.count())]
    always += [a.text() for a in window.menuBar().actions()]
    for shown in range(len(pages)):  # what one tab shows, with what is always there
        texts = always + [b.text() for b in buttons if page_of(b) == shown]
        letters = [m for m in map(_mnemonic, texts) if m]
        assert sorted(m for m in set(letters) if letters.count(m) > 1) == [], texts
    dialog = SettingsDialog(DEFAULT_SETTINGS, window)
    labels = [w.text() for w in dialog.findChildren(QLabel)] + [
        b.text() for b in dialog.findChildren(QAbstractButton)
    ]
    letters = [m for m in map(_mnemonic, labels) if m]
    assert sorted(m for m in set(letters) if letters.count(m) > 1) == [], labels


@pytest.mark.parametrize("size", [(1280, 800), (800, 560)])
@pytest.mark.usefixtures("themed")
def test_every_tab_title_shows_whole(qtbot: QtBot, core: AgentCore, size: tuple[int, int]) -> None:
    """At 800 px the tab row needed scroll arrows and "Waiting for you" was cut to "Waiting f"."""
    window = MainWindow(RunController(core), DEFAULT_SETTINGS)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    bar = window.tabs.tabBar()
    assert "&Waiting for you" in [bar.tabText(i) for i in range(bar.count())]
    for tab in range(window.tabs.count()):  # the selected title is bold: every one may be selected
        window.tabs.setCurrentIndex(tab)
        qtbot.waitUntil(lambda: window.tabs.currentWidget().isVisible())
        shown = [bar.tabText(i) for i in range(bar.count()) if bar.tabRect(i).right() > bar.width()]
        assert bar.sizeHint().width() <= bar.width() and shown == [], f"{shown} cut at {size}"
