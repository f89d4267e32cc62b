"""Task input: the task text, the active tab URL, attached files, planner choice, Plan and Run.

It only emits intents (`plan_requested`, `run_requested`); the window decides what they do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.icons import icon
from ui.secret_field import SecretsButton
from ui.theme import restyle, tokens

#: Planner choices shown to a person, and what the core calls them.
PLANNERS: tuple[tuple[str, str], ...] = (("Rules", "rules"), ("Model", "llm"), ("Auto", "auto"))


@dataclass(frozen=True, slots=True)
class TaskInput:
    """Everything the planner gets from the window."""

    text: str
    url: str | None = None
    files: tuple[str, ...] = field(default_factory=tuple)
    planner: str = "auto"
    #: Values for the task's {{secret:NAME}} placeholders (ui/secret_field.py); never in a repr.
    secrets: Mapping[str, str] = field(default_factory=dict, repr=False)


class TaskEdit(QPlainTextEdit):
    """Multi-line task text where Ctrl+Enter submits instead of adding a line."""

    #: Ctrl+Enter (or Ctrl+Return) was pressed.
    submitted = Signal()
    #: Lines the box asks room for: a long task fits, and the plan keeps most of the column.
    LINES = 4

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        margins = self.contentsMargins()
        lines = self.fontMetrics().lineSpacing() * self.LINES + 2 * self.document().documentMargin()
        return QSize(hint.width(), int(lines) + margins.top() + margins.bottom())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        submit_keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if event.key() in submit_keys and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            event.accept()
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class TaskPanel(QWidget):
    #: Plan only, to review the steps first (TaskInput).
    plan_requested = Signal(object)
    #: Plan and run at once: Run button or Ctrl+Enter (TaskInput).
    run_requested = Signal(object)

    def __init__(
        self, examples: Sequence[ExampleTask] = EXAMPLE_TASKS, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._files: list[str] = []
        self._examples = tuple(examples)
        #: The task text the URL was last used with: typing another task clears the URL.
        self._url_task: str | None = None
        self.task_edit = TaskEdit()
        self.task_edit.setPlaceholderText("What should Waypost do? (Ctrl+Enter runs)")
        self.task_edit.setTabChangesFocus(True)
        self.task_edit.setAccessibleName("Task")
        self.task_edit.setMinimumHeight(76)
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("Active page URL (optional)")
        self.url_edit.setAccessibleName("Active URL")
        self.files_label = QLabel("No files")
        self.files_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # gives way
        self.attach_button = QPushButton(icon("attach"), "&Attach…")
        self.clear_files_button = QToolButton()
        self.clear_files_button.setText("×")
        self.clear_files_button.setToolTip("Remove attached files")
        self.planner_combo = QComboBox()
        for label, value in PLANNERS:
            self.planner_combo.addItem(label, value)
        self.planner_combo.setCurrentIndex(self.planner_combo.findData("auto"))
        self.planner_combo.setToolTip("Rules work offline; Model needs an endpoint in Settings")
        self.examples_button = QToolButton()
        self.examples_button.setText("Examples")
        self.examples_button.setIcon(icon("examples"))
        self.examples_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.examples_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.examples_menu = QMenu(self.examples_button)
        self.set_examples(self._examples)
        self.examples_button.setMenu(self.examples_menu)
        self.secrets_button = SecretsButton()
        self.plan_button = QPushButton(icon("plan"), "&Plan")
        self.plan_button.setToolTip("Show the plan before running")
        self.run_button = QPushButton(icon("run", tokens().accent_text), "&Run")
        self.run_button.setProperty("role", "primary")
        self.run_button.setDefault(True)
        self.run_button.setToolTip("Plan and run (Ctrl+Enter)")
        self.notice = QLabel("")
        self.notice.setObjectName("notice")
        self.notice.setWordWrap(True)
        self.notice.setAccessibleName("Notice")
        self.notice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.notice.hide()
        self.search_note = QLabel("")
        self.search_note.setWordWrap(True)
        self.search_note.setAccessibleName("Where research searches")
        self.search_note.setProperty("role", "muted")
        self.search_note.hide()
        self._layout()
        self._connect_signals()

    def _layout(self) -> None:
        """Three rows under the task: the page it starts from; what goes with it (files, secrets,
        an example); how to plan and run it. Each fits in the left column of an 800 px window."""
        address = QHBoxLayout()
        address.addWidget(QLabel("URL"))
        address.addWidget(self.url_edit, 1)
        extras = QHBoxLayout()
        extras.addWidget(self.examples_button)
        extras.addWidget(self.attach_button)
        extras.addWidget(self.files_label, 1)
        extras.addWidget(self.clear_files_button)
        extras.addWidget(self.secrets_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(QLabel("Planner"))
        buttons.addWidget(self.planner_combo)
        buttons.addWidget(self.plan_button)
        buttons.addWidget(self.run_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(6)
        box.addWidget(self.task_edit, 1)
        box.addWidget(self.notice)
        box.addLayout(address)
        box.addLayout(extras)
        box.addLayout(buttons)
        box.addWidget(self.search_note)

    def _connect_signals(self) -> None:
        self.plan_button.clicked.connect(self._on_plan_clicked)
        self.run_button.clicked.connect(self._on_run_clicked)
        self.attach_button.clicked.connect(self._on_attach_clicked)
        self.clear_files_button.clicked.connect(self._on_clear_files)
        self.examples_menu.triggered.connect(self._on_example_chosen)
        self.task_edit.submitted.connect(self._on_run_clicked)
        self.task_edit.textChanged.connect(self._on_task_changed)

    def minimumSizeHint(self) -> QSize:
        """Tall enough for its wrapped lines at its width (the voice note, the search line): the
        column must never lay the next row over the task box."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), self.heightForWidth(max(self.width(), hint.width()))))

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), max(hint.height(), self.minimumSizeHint().height()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()  # wrapped lines changed: the column asks again

    # --- data ----------------------------------------------------------------------------------

    def current_input(self) -> TaskInput:
        """What the boxes hold; secrets are left out (only a Run takes them, see _on_run_clicked)."""
        return TaskInput(
            text=self.task_edit.toPlainText().strip(),
            url=self.url_edit.text().strip() or None,
            files=tuple(self._files),
            planner=str(self.planner_combo.currentData()),
        )

    def set_files(self, files: list[str]) -> None:
        self._files = list(files)
        names = ", ".join(f.rsplit("/", 1)[-1] for f in self._files)
        self.files_label.setText(names or "No files")
        self.files_label.setToolTip("\n".join(self._files))

    def set_planner(self, planner: str) -> None:
        index = self.planner_combo.findData(planner)
        if index >= 0:
            self.planner_combo.setCurrentIndex(index)

    def set_examples(self, examples: Sequence[ExampleTask]) -> None:
        """The Examples menu (the bundled site's tasks arrive once it is serving, after first paint)."""
        self._examples = tuple(examples)
        self.examples_menu.clear()
        for example in self._examples:
            action = QAction(example.title, self.examples_menu)
            action.setData(example.key)
            action.setToolTip(example.text)
            self.examples_menu.addAction(action)
        self.examples_button.setEnabled(bool(self._examples))

    def use_example(self, example: ExampleTask) -> None:
        """An example is a new task: the URL given with the last one goes."""
        self.url_edit.clear()
        self._url_task = None
        self.task_edit.setPlainText(example.text)
        self.task_edit.setFocus()

    def show_notice(self, text: str, kind: str = "error") -> None:
        """An error or a question, right under the task box where the person is looking."""
        self.notice.setProperty("kind", kind if kind in ("error", "question", "info") else "error")
        restyle(self.notice)
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def set_search_note(self, text: str) -> None:
        """Which search engine research uses and how to change it (always in view, from the first run)."""
        self.search_note.setText(text)
        self.search_note.setVisible(bool(text))

    def clear_notice(self) -> None:
        self.show_notice("")

    def set_busy(self, busy: bool) -> None:
        for widget in (self.plan_button, self.run_button, self.examples_button, self.secrets_button):
            widget.setEnabled(not busy)

    # --- slots ---------------------------------------------------------------------------------

    @Slot()
    def _on_plan_clicked(self) -> None:
        data = self.current_input()
        if not data.text:
            self.show_notice("Type a task first: what should Waypost do?")
        elif self.plan_button.isEnabled():
            self.clear_notice()
            self._url_task = data.text if data.url else None
            self.plan_requested.emit(data)

    @Slot()
    def _on_run_clicked(self) -> None:
        data = self.current_input()
        if not data.text:
            self.show_notice("Type a task first: what should Waypost do?")
        elif self.run_button.isEnabled():
            self.clear_notice()
            self._url_task = data.text if data.url else None
            self.run_requested.emit(replace(data, secrets=self.secrets_button.take()))

    @Slot()
    def _on_task_changed(self) -> None:
        """A new task (emptied, or no longer beginning as the one the URL went with) drops the URL:
        it belonged to that task. An edit further on in the same task keeps it."""
        if self._url_task is None:
            return
        words = self.task_edit.toPlainText().split()
        if not words or words[0] != self._url_task.split()[0]:
            self.url_edit.clear()
            self._url_task = None

    @Slot()
    def _on_attach_clicked(self) -> None:
        # open(), not exec(): a nested event loop would stall the asyncio tasks on the qasync loop.
        dialog = QFileDialog(self, "Attach files")
        dialog.setFileMode(QFileDialog.FileMode.ExistingFiles)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.filesSelected.connect(self._on_files_selected)
        dialog.open()

    @Slot(list)
    def _on_files_selected(self, files: list[str]) -> None:
        self.set_files([*self._files, *files])

    @Slot()
    def _on_clear_files(self) -> None:
        self.set_files([])

    @Slot(QAction)
    def _on_example_chosen(self, action: QAction) -> None:
        key = action.data()
        for example in self._examples:
            if example.key == key:
                self.use_example(example)
