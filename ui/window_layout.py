"""The window's two columns (the task box over the plan on the left, the tabs on the right), and the
tabs built when first needed.

The task box keeps the height its rows need (the voice row never covers the task's last line); the
plan takes the rest of the column. Neither column can be dragged shut.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QSplitter, QTabWidget, QVBoxLayout, QWidget

from ui.icons import icon
from ui.window_rules import default_size


def two_columns(task_box: QWidget, plan: QWidget, tabs: QWidget) -> tuple[QWidget, QSplitter]:
    """The central widget, and the splitter between the columns (its sizes are the window's to set)."""
    left = QWidget()
    column = QVBoxLayout(left)
    column.setContentsMargins(0, 0, 0, 0)
    column.setSpacing(8)
    column.addWidget(task_box, 0)
    column.addWidget(plan, 1)
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.addWidget(left)
    splitter.addWidget(tabs)
    splitter.setChildrenCollapsible(False)
    splitter.setStretchFactor(0, 1)
    splitter.setStretchFactor(1, 1)
    splitter.setSizes([580, 680])
    central = QWidget()
    box = QVBoxLayout(central)
    box.setContentsMargins(10, 8, 10, 4)
    box.addWidget(splitter)
    return central, splitter


class LaterTabs:
    """Tabs whose pages are built when first needed (shown, or asked for by the window), so the
    window's first paint pays only for what it shows (docs/architecture.md, "Cold start")."""

    def __init__(self, tabs: QTabWidget, titles: list[str], build: Callable[[], list[QWidget]]) -> None:
        self.tabs, self.titles, self._build = tabs, titles, build
        self.first = tabs.count()
        for title in titles:
            tabs.addTab(QWidget(), title)
        self.built = False
        tabs.currentChanged.connect(self._on_current_changed)

    def ensure(self) -> None:
        """Builds the pages now (once), keeping the tab that is showing."""
        if self.built:
            return
        self.built = True
        current = self.tabs.currentIndex()
        for offset, (title, page) in enumerate(zip(self.titles, self._build(), strict=True)):
            index = self.first + offset
            placeholder = self.tabs.widget(index)
            self.tabs.removeTab(index)
            self.tabs.insertTab(index, page, title)
            if placeholder is not None:
                placeholder.deleteLater()
        self.tabs.setCurrentIndex(current)

    def _on_current_changed(self, index: int) -> None:
        if index >= self.first:
            self.ensure()


def file_menus(window: QMainWindow, examples: QMenu) -> tuple[QAction, QAction, QMenu]:
    """File (Settings, Quit) and Examples (the task box's examples); the two actions and the menu."""
    file_menu = window.menuBar().addMenu("&File")
    settings = QAction(icon("settings"), "&Settings…", window)
    settings.setShortcuts(
        [QKeySequence("Ctrl+,"), *QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences)]
    )
    quit_action = QAction("&Quit", window)
    quit_action.setShortcut(QKeySequence.StandardKey.Quit)
    file_menu.addAction(settings)
    file_menu.addSeparator()
    file_menu.addAction(quit_action)
    examples_menu = window.menuBar().addMenu("&Examples")
    for action in examples.actions():
        examples_menu.addAction(action)
    return settings, quit_action, examples_menu


def restore_geometry(window: QMainWindow, state: QSettings | None) -> None:
    """The size and place the window had when it was last closed, else a size that fits the screen."""
    saved = state.value("geometry") if state is not None else None
    if isinstance(saved, QByteArray) and window.restoreGeometry(saved):
        return
    window.resize(default_size(window.screen().availableGeometry().size()))
