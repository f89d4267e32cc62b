"""The Voice group of the settings dialog: microphone, engine, endpoint, language, keeping audio."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QGroupBox, QLineEdit, QWidget

if TYPE_CHECKING:
    from ui.voice_recorder import InputDevice


def input_devices() -> list[InputDevice]:
    """The system's microphones; Qt Multimedia loads when Settings opens, not with the window."""
    from ui.voice_recorder import input_devices as qt_input_devices

    return qt_input_devices()


ENGINES = (
    ("Automatic (endpoint when set, else offline)", "auto"),
    ("Offline (Whisper; pocketsphinx when it is not installed)", "offline"),
    ("Pocketsphinx (small, English task phrasings only)", "pocketsphinx"),
    ("Endpoint", "endpoint"),
)

DEFAULTS: dict[str, Any] = {
    "voice_device": None,
    "voice_engine": "auto",
    "voice_base_url": None,
    "voice_model": "whisper-1",
    "voice_language": "",
    "voice_keep_audio": False,
}


class VoiceSettingsGroup(QGroupBox):
    def __init__(
        self, devices: Callable[[], Sequence[InputDevice]] = input_devices, parent: QWidget | None = None
    ) -> None:
        super().__init__("Voice input", parent)
        self.device_combo = QComboBox()
        self.device_combo.addItem("System default", None)
        for device in devices():
            self.device_combo.addItem(device.description, device.id)
        if self.device_combo.count() == 1:
            self.device_combo.setToolTip("No microphone found")
        self.engine_combo = QComboBox()
        for label, value in ENGINES:
            self.engine_combo.addItem(label, value)
        self.url_edit = QLineEdit()
        self.url_edit.setPlaceholderText("OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
        self.model_edit = QLineEdit()
        self.language_edit = QLineEdit()
        self.language_edit.setPlaceholderText("en, vi, … (empty: English or Vietnamese, as heard)")
        self.keep_audio_check = QCheckBox("Keep the recording in the run's receipts")
        form = QFormLayout(self)
        form.addRow("&Microphone", self.device_combo)
        form.addRow("&Engine", self.engine_combo)
        form.addRow("Transcription &URL", self.url_edit)
        form.addRow("Transcription mo&del", self.model_edit)
        form.addRow("&Language", self.language_edit)
        form.addRow(self.keep_audio_check)

    def set_values(self, values: Mapping[str, Any]) -> None:
        device = values.get("voice_device")
        index = self.device_combo.findData(device) if device else 0
        if index < 0:  # a saved microphone that is unplugged now stays chosen
            self.device_combo.addItem(f"{device} (not connected)", device)
            index = self.device_combo.count() - 1
        self.device_combo.setCurrentIndex(index)
        self.engine_combo.setCurrentIndex(
            max(0, self.engine_combo.findData(values.get("voice_engine", "auto")))
        )
        self.url_edit.setText(str(values.get("voice_base_url") or ""))
        self.model_edit.setText(str(values.get("voice_model") or "whisper-1"))
        self.language_edit.setText(str(values.get("voice_language") or ""))
        self.keep_audio_check.setChecked(bool(values.get("voice_keep_audio", False)))

    def values(self, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The voice settings; with `given`, only keys it has or whose value left the default."""
        current = self._current()
        if given is None:
            return current
        return {k: v for k, v in current.items() if k in given or v != DEFAULTS[k]}

    def _current(self) -> dict[str, Any]:
        return {
            "voice_device": self.device_combo.currentData(),
            "voice_engine": self.engine_combo.currentData(),
            "voice_base_url": self.url_edit.text().strip() or None,
            "voice_model": self.model_edit.text().strip() or "whisper-1",
            "voice_language": self.language_edit.text().strip(),
            "voice_keep_audio": self.keep_audio_check.isChecked(),
        }
