"""Secrets for a run resumed in a new process: asked again, held in memory only, never written.

A run's declared secrets (a password typed in the task) live only in the process that planned it.
After a restart the plan still names them; this dialog asks the person for each one again and
the bridge (ui/controller.py) hands the values to the core's secrets owner for the resumed run.
Nothing is stored on disk. If the person ticks the box, the values also wait in the OS keyring
(ui/kept_secrets.py) until the run ends, so a later resume does not ask again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ui.kept_secrets import KeptSecrets

if TYPE_CHECKING:
    from planner.models import SecretRef


class SecretsDialog(QDialog):
    """One masked field per missing secret; accepted() -> `values()`, rejected() -> not resumed."""

    #: The person entered every value and pressed Resume (name -> value).
    provided = Signal(dict)

    def __init__(
        self,
        refs: list[SecretRef],
        task: str,
        parent: QWidget | None = None,
        *,
        kept_secrets: KeptSecrets | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Resume: enter the secrets again")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        intro = QLabel(
            "This run was paused before Waypost restarted. The secrets its task declared were kept "
            f"only in memory, so enter them again to continue:\n\n{task}"
        )
        intro.setWordWrap(True)
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        for ref in refs:
            edit = QLineEdit()
            edit.setEchoMode(QLineEdit.EchoMode.Password)
            edit.setAccessibleName(ref.name)
            edit.textChanged.connect(self._update_ok)
            self.fields[ref.name] = edit
            form.addRow(f"{ref.name} ({ref.kind.replace('_', ' ')})", edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.resume_button = self.buttons.addButton("&Resume", QDialogButtonBox.ButtonRole.AcceptRole)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(QLabel("They are used for this run only and are never saved to disk."))
        self.keep_box = QCheckBox(
            "Keep them in the OS keyring until this run ends (a later resume won't ask)"
        )
        self.keep_note = QLabel("")
        self.keep_note.setWordWrap(True)
        if kept_secrets is not None:
            box.addWidget(self.keep_box)
            if not kept_secrets.available:
                self.keep_box.setEnabled(False)
                self.keep_note.setText(kept_secrets.unavailable_reason)
                box.addWidget(self.keep_note)
        box.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.accepted.connect(lambda: self.provided.emit(self.values()))
        self._update_ok()

    def keep(self) -> bool:
        """The person chose to keep the values in the OS keyring until the run ends."""
        return self.keep_box.isEnabled() and self.keep_box.isChecked()

    def values(self) -> dict[str, str]:
        return {name: edit.text() for name, edit in self.fields.items()}

    def _update_ok(self) -> None:
        self.resume_button.setEnabled(all(edit.text() for edit in self.fields.values()))
