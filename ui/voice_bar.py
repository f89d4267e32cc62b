"""The voice bar beside the task box: Speak button, level meter, elapsed time, Cancel, status, and
which engine listens in which language (the language it heard, once it has).

Click Speak to start and again to stop, or hold Ctrl+Space (push to talk). The transcript lands in the
task box, editable; Run stays the person's click. Without a microphone the button is disabled and
its tooltip and the status line say why.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtGui import QKeyEvent, QPalette, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from executor.models import RunBundleV1
from ui.controller import RunController
from ui.task_panel import TaskInput, TaskPanel
from ui.voice_controller import IDLE, RECORDING, TRANSCRIBING, VoiceController

SPEAK_TIP = "Speak a task (click, or hold Ctrl+Space). What is heard goes into the task box for review."


class VoiceBar(QWidget):
    def __init__(self, voice: VoiceController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.voice = voice
        self.speak_button = QToolButton()
        self.speak_button.setText("● Speak")
        self.speak_button.setAccessibleName("Speak a task")
        self.level_meter = QProgressBar()
        self.level_meter.setRange(0, 100)
        self.level_meter.setTextVisible(False)
        self.level_meter.setMaximumWidth(120)
        self.level_meter.setMaximumHeight(10)
        self.level_meter.setAccessibleName("Microphone level")
        self.elapsed_label = QLabel("")
        self.cancel_button = QToolButton()
        self.cancel_button.setText("Cancel")
        self.cancel_button.setToolTip("Discard this recording")
        self.status_label = QLabel("")
        self.push_to_talk: PushToTalk | None = None
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label.setWordWrap(True)  # a long note (no microphone…) wraps, never cut mid-word
        self.status_label.setProperty("role", "muted")
        self.engine_label = QLabel(voice.engine_label)
        self.engine_label.setAccessibleName("Voice engine and language")
        self.engine_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # quieter than the status
        self.engine_label.setToolTip(voice.options.note or "The speech engine and the language it hears")
        row = QHBoxLayout()
        for widget in (self.speak_button, self.level_meter, self.elapsed_label, self.cancel_button):
            row.addWidget(widget)
        row.addWidget(self.status_label, 1)
        column = QVBoxLayout(self)  # the engine on a line of its own: the row is full while listening
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(row)
        column.addWidget(self.engine_label, 0, Qt.AlignmentFlag.AlignRight)
        self.speak_button.clicked.connect(voice.toggle)
        self.cancel_button.clicked.connect(voice.cancel)
        voice.state_changed.connect(self._on_state_changed)
        voice.level_changed.connect(self._on_level)
        voice.elapsed_changed.connect(self._on_elapsed)
        voice.failed.connect(self._on_failed)
        voice.transcript_ready.connect(self._on_transcript)
        voice.availability_changed.connect(self._on_availability)
        voice.engine_changed.connect(self.engine_label.setText)
        self._on_state_changed(voice.state)
        self._on_availability(voice.available)

    @Slot(bool)
    def _on_availability(self, available: bool) -> None:
        self.speak_button.setEnabled(available and self.voice.state != TRANSCRIBING)
        if available:
            self.speak_button.setToolTip(SPEAK_TIP)
            if self.status_label.text() == self.voice.recorder.unavailable_reason:
                self.status_label.setText("")
        else:
            reason = self.voice.recorder.unavailable_reason
            self.speak_button.setToolTip(reason)
            self.status_label.setText(reason)

    @Slot(str)
    def _on_state_changed(self, state: str) -> None:
        recording = state == RECORDING
        self.speak_button.setText("■ Stop" if recording else "● Speak")
        self.speak_button.setEnabled(state != TRANSCRIBING and self.voice.available)
        self.level_meter.setVisible(recording)
        self.elapsed_label.setVisible(recording)
        self.cancel_button.setVisible(state != IDLE)
        if recording:
            self.status_label.setText("Listening… (release Ctrl+Space or click Stop)")
        elif state == TRANSCRIBING:
            self.status_label.setText("Transcribing…")
        elif self.status_label.text() in ("Transcribing…",) or self.status_label.text().startswith(
            "Listening"
        ):
            self.status_label.setText("")

    @Slot(float)
    def _on_level(self, level: float) -> None:
        self.level_meter.setValue(round(100 * min(1.0, max(0.0, level))))

    @Slot(float)
    def _on_elapsed(self, seconds: float) -> None:
        self.elapsed_label.setText(f"{seconds:4.1f} s")

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.status_label.setText(message)

    @Slot(str)
    def _on_transcript(self, _text: str) -> None:
        self.status_label.setText("Heard. Check the task, edit it if needed, then press Run.")


class PushToTalk(QObject):
    """Ctrl+Space held down records; releasing Space stops. Only for keys sent to this window."""

    def __init__(self, window: QWidget, voice: VoiceController) -> None:
        super().__init__(window)
        self.window = window
        self.voice = voice
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        assert isinstance(event, QKeyEvent)
        if event.key() != Qt.Key.Key_Space:
            return False
        if kind == QEvent.Type.KeyPress and event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            if not event.isAutoRepeat() and self.voice.state == IDLE:
                self.voice.start()
            return True
        if kind == QEvent.Type.KeyRelease and self.voice.state == RECORDING:
            if not event.isAutoRepeat():
                self.voice.stop()
            return True
        return False

    def detach(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)


def install_voice(
    window: QMainWindow, task_panel: TaskPanel, controller: RunController, voice: VoiceController
) -> VoiceBar:
    """Puts the bar under the task box and wires it: transcript -> task box, Run -> spoken receipts."""
    bar = VoiceBar(voice)
    layout = task_panel.layout()
    if isinstance(layout, QBoxLayout):
        layout.insertWidget(1, bar)
    bar.push_to_talk = PushToTalk(window, voice)

    def on_transcript(text: str) -> None:
        task_panel.task_edit.setPlainText(text)
        task_panel.task_edit.moveCursor(QTextCursor.MoveOperation.End)  # ready to edit or add to it
        task_panel.task_edit.setFocus()

    def on_run_requested(data: TaskInput) -> None:
        voice.note_run_requested(data.text)

    def on_run_finished(bundle: RunBundleV1) -> None:
        voice.note_run_finished(bundle, Path(controller.run_dir(bundle.run_id)))

    def on_text_changed() -> None:
        if not task_panel.task_edit.toPlainText().strip():
            voice.last = None  # the spoken task was cleared: what is typed next is not spoken

    def on_settings_saved(values: dict[str, object]) -> None:
        device = values.get("voice_device")
        voice.set_device(str(device) if device else None)

    settings_saved = getattr(window, "settings_saved", None)  # MainWindow's; absent on a bare window
    if settings_saved is not None:
        settings_saved.connect(on_settings_saved)
    voice.transcript_ready.connect(on_transcript)
    task_panel.run_requested.connect(on_run_requested)
    task_panel.task_edit.textChanged.connect(on_text_changed)
    controller.run_finished.connect(on_run_finished)
    return bar
