"""Settings dialog over plain values: ui/ never imports app/, so app/gui.py converts to Settings.

The API key is write-only here: the field starts empty, and a key is only emitted when typed, so an
existing key (kept in the OS keyring by app/) is never shown or echoed back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ui.voice_settings import VoiceSettingsGroup

SEARCH_PROVIDERS = ("browser", "searxng", "local")
PLANNERS = ("auto", "rules", "llm")


def _spin(maximum: int, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(0, maximum)
    box.setSuffix(suffix)
    box.setGroupSeparatorShown(True)
    return box


def validate(values: Mapping[str, Any]) -> str | None:
    """A message naming the first bad field, or None."""
    base_url = str(values.get("base_url") or "")
    if base_url and not base_url.lower().startswith(("http://", "https://")):
        return "Base URL must start with http:// or https://"
    search_url = str(values.get("search_url") or "")
    if search_url and "{query}" not in search_url:
        return "The search URL template must contain {query}"
    if not str(values.get("runs_dir") or "").strip():
        return "Choose a runs folder"
    return None


class SettingsDialog(QDialog):
    #: The edited values (same keys as given, plus api_key only when a new key was typed).
    saved = Signal(dict)

    def __init__(self, values: Mapping[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Waypost settings")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(520)
        self._given = dict(values)
        self.model_edit = QLineEdit()
        self.base_url_edit = QLineEdit()
        self.base_url_edit.setPlaceholderText("e.g. http://127.0.0.1:11434/v1 (empty: the default endpoint)")
        self.api_key_edit = QLineEdit()
        self.api_key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        has_key = bool(values.get("api_key_set") or values.get("api_key"))
        self.api_key_edit.setPlaceholderText("A key is stored: type to replace it" if has_key else "Not set")
        self.planner_combo = QComboBox()
        self.planner_combo.addItems(PLANNERS)
        # Sized to the endpoint's speed: `waypost doctor` measures it and says which values it needs.
        self.call_timeout_spin = _spin(3600, " s")
        self.call_timeout_spin.setMinimum(1)
        self.call_timeout_spin.setToolTip("How long one model call may take before the rules decide instead")
        self.planning_deadline_spin = _spin(3600, " s")
        self.planning_deadline_spin.setMinimum(1)
        self.planning_deadline_spin.setToolTip(
            "How long the model may take to plan before the rules plan; the run's own time budget "
            "starts after planning"
        )
        self.safe_mode_check = QCheckBox("Safe mode: ask before every action on a page")
        self.headless_check = QCheckBox("Headless browser (no visible window)")
        self.trace_check = QCheckBox("Record a Pla&ywright trace of each run (kept with its receipts)")
        self.time_spin = _spin(24 * 3600, " s")
        self.calls_spin = _spin(100_000)
        self.tokens_spin = _spin(100_000_000)
        self.provider_combo = QComboBox()
        self.provider_combo.addItems(SEARCH_PROVIDERS)
        self.search_url_edit = QLineEdit()
        self.search_url_edit.setPlaceholderText("Empty: the default (the bundled demo site in the window)")
        self.runs_dir_edit = QLineEdit()
        self.runs_browse = QPushButton("Browse…")
        self.voice_group = VoiceSettingsGroup()
        self.error_label = QLabel("")
        self.error_label.setProperty("role", "danger")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self._layout()
        self.set_values(values)
        self.buttons.accepted.connect(self._on_save_clicked)
        self.buttons.rejected.connect(self.reject)
        self.runs_browse.clicked.connect(self._on_browse_clicked)

    def _layout(self) -> None:
        model = QGroupBox("Model")
        form = QFormLayout(model)
        form.addRow("Model &name", self.model_edit)  # mnemonics unlike the voice group's (&Microphone)
        form.addRow("&Base URL", self.base_url_edit)
        form.addRow("API &key", self.api_key_edit)
        form.addRow("&Planner", self.planner_combo)
        form.addRow("Model call time&out", self.call_timeout_spin)
        form.addRow("Plannin&g deadline", self.planning_deadline_spin)
        browser = QGroupBox("Browser and safety")
        form = QFormLayout(browser)
        form.addRow(self.safe_mode_check)
        form.addRow(self.headless_check)
        form.addRow(self.trace_check)
        form.addRow("Search pro&vider", self.provider_combo)
        form.addRow("Searc&h URL", self.search_url_edit)
        runs = QHBoxLayout()
        runs.addWidget(self.runs_dir_edit, 1)
        runs.addWidget(self.runs_browse)
        runs_label = QLabel("&Runs folder")
        runs_label.setBuddy(self.runs_dir_edit)
        form.addRow(runs_label, runs)
        budgets = QGroupBox("Budgets (caps for every run)")
        form = QFormLayout(budgets)
        form.addRow("&Time", self.time_spin)
        form.addRow("Tool &calls", self.calls_spin)
        form.addRow("Token&s", self.tokens_spin)
        groups = QWidget()
        column = QVBoxLayout(groups)
        column.setContentsMargins(0, 0, 8, 0)
        for group in (model, browser, budgets, self.voice_group):
            column.addWidget(group)
        column.addStretch(1)
        scroll = QScrollArea()  # on a small screen the groups scroll; Save and Cancel stay in view
        scroll.setWidget(groups)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        box = QVBoxLayout(self)
        box.addWidget(scroll, 1)
        box.addWidget(self.error_label)
        box.addWidget(self.buttons)
        available = self.screen().availableGeometry()
        wanted = groups.sizeHint()
        self.resize(min(640, available.width() - 20), min(wanted.height() + 90, available.height() - 40))

    def set_values(self, values: Mapping[str, Any]) -> None:
        self.model_edit.setText(str(values.get("model") or ""))
        self.base_url_edit.setText(str(values.get("base_url") or ""))
        self.planner_combo.setCurrentText(str(values.get("planner", "auto")))
        self.call_timeout_spin.setValue(round(float(values.get("llm_timeout_s", 60.0))))
        self.planning_deadline_spin.setValue(round(float(values.get("planning_deadline_s", 45.0))))
        self.safe_mode_check.setChecked(bool(values.get("safe_mode", True)))
        self.headless_check.setChecked(bool(values.get("headless", True)))
        self.trace_check.setChecked(bool(values.get("trace", False)))
        self.time_spin.setValue(int(values.get("max_time_ms", 300_000)) // 1000)
        self.calls_spin.setValue(int(values.get("max_tool_calls", 100)))
        self.tokens_spin.setValue(int(values.get("max_tokens", 200_000)))
        self.provider_combo.setCurrentText(str(values.get("search_provider", "browser")))
        self.search_url_edit.setText(str(values.get("search_url") or ""))
        self.runs_dir_edit.setText(str(values.get("runs_dir") or ""))
        self.voice_group.set_values(values)

    def values(self) -> dict[str, Any]:
        out = {k: v for k, v in self._given.items() if k not in {"api_key", "api_key_set"}}
        out.update(
            model=self.model_edit.text().strip(),
            base_url=self.base_url_edit.text().strip() or None,
            planner=self.planner_combo.currentText(),
            safe_mode=self.safe_mode_check.isChecked(),
            headless=self.headless_check.isChecked(),
            trace=self.trace_check.isChecked(),
            max_time_ms=self.time_spin.value() * 1000,
            max_tool_calls=self.calls_spin.value(),
            max_tokens=self.tokens_spin.value(),
            search_provider=self.provider_combo.currentText(),
            search_url=self.search_url_edit.text().strip() or None,
            runs_dir=self.runs_dir_edit.text().strip(),
        )
        out.update(self._deadlines())
        out.update(self.voice_group.values(self._given))
        key = self.api_key_edit.text().strip()
        if key:
            out["api_key"] = key
        return out

    def _deadlines(self) -> dict[str, float]:
        """The model's call timeout and planning deadline, when given or changed from the defaults."""
        shown = {
            "llm_timeout_s": (float(self.call_timeout_spin.value()), 60.0),
            "planning_deadline_s": (float(self.planning_deadline_spin.value()), 45.0),
        }
        return {k: v for k, (v, default) in shown.items() if k in self._given or v != default}

    @Slot()
    def _on_save_clicked(self) -> None:
        values = self.values()
        problem = validate(values)
        if problem is not None:
            self.error_label.setText(problem)
            return
        self.saved.emit(values)
        self.accept()

    @Slot()
    def _on_browse_clicked(self) -> None:
        dialog = QFileDialog(self, "Runs folder", self.runs_dir_edit.text())
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.runs_dir_edit.setText)
        dialog.open()
