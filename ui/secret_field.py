"""The window's way to give a named secret, as `--secret NAME` does on the command line.

The person names the secret and types its value into a masked field; the task refers to it as
`{{secret:NAME}}`. Values are held by this widget only until Run hands them to the bridge
(ui/controller.py), which gives them to the core's secrets owner in memory; nothing is written.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


def _name_pattern() -> re.Pattern[str]:
    """The placeholder grammar's NAME (common/secrecy.py), read when a name is typed: the window
    paints before the core's modules load (docs/architecture.md, "Cold start")."""
    from common.secrecy import NAME

    return re.compile(rf"^{NAME}$")


class SecretEntryDialog(QDialog):
    """A name and a masked value; OK only when the name is valid and a value was typed."""

    #: The person gave a secret (name, value).
    given = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Give a secret")
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("password")
        self.name_edit.setAccessibleName("Secret name")
        self.value_edit = QLineEdit()
        self.value_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.value_edit.setAccessibleName("Secret value")
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        form = QFormLayout()
        form.addRow("&Name", self.name_edit)
        form.addRow("&Value", self.value_edit)
        box = QVBoxLayout(self)
        intro = QLabel(
            "Write {{secret:NAME}} in the task where the value is typed. "
            "It is kept in memory for the next run only and never saved."
        )
        intro.setWordWrap(True)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(self.hint)
        box.addWidget(self.buttons)
        self.name_edit.textChanged.connect(self._check)
        self.value_edit.textChanged.connect(self._check)
        self.buttons.accepted.connect(self._on_ok)
        self.buttons.rejected.connect(self.reject)
        self._check()

    @property
    def ok_button(self) -> QPushButton:
        button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert button is not None
        return button

    @Slot()
    def _check(self) -> None:
        name = self.name_edit.text().strip()
        valid = bool(_name_pattern().match(name))
        self.hint.setText("" if valid or not name else "A name is lower-case letters, digits and _.")
        self.ok_button.setEnabled(valid and bool(self.value_edit.text()))

    @Slot()
    def _on_ok(self) -> None:
        self.given.emit(self.name_edit.text().strip(), self.value_edit.text())
        self.value_edit.clear()
        self.accept()


class SecretsButton(QToolButton):
    """ "Secrets" with a menu: give one (a masked dialog) or forget all; shows how many are held."""

    #: The held names changed (e.g. to say which placeholders the task still lacks).
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._values: dict[str, str] = {}
        self.dialog: SecretEntryDialog | None = None
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self)
        self.give_action = QAction("&Give a secret…", menu)
        self.forget_action = QAction("&Forget secrets", menu)
        menu.addAction(self.give_action)
        menu.addAction(self.forget_action)
        self.setMenu(menu)
        self.give_action.triggered.connect(self.ask)
        self.forget_action.triggered.connect(self.clear)
        self._show()

    def names(self) -> list[str]:
        return sorted(self._values)

    def take(self) -> dict[str, str]:
        """The values, handed over once: the button forgets them (the run's core holds them now)."""
        values, self._values = self._values, {}
        self._show()
        return values

    @Slot()
    def ask(self) -> None:
        # open(), not exec(): a nested event loop would stall the asyncio tasks on the qasync loop.
        dialog = SecretEntryDialog(self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.given.connect(self._on_given)
        self.dialog = dialog
        dialog.open()

    @Slot()
    def clear(self) -> None:
        self._values = {}
        self._show()

    @Slot(str, str)
    def _on_given(self, name: str, value: str) -> None:
        self._values[name] = value
        self._show()

    def _show(self) -> None:
        count = len(self._values)
        self.setText(f"Secrets ({count})" if count else "Secrets")
        self.setMinimumWidth(self.sizeHint().width())  # the count stays readable in a narrow window
        names = ", ".join("{{secret:" + n + "}}" for n in self.names())
        self.setToolTip(
            f"Given for the next run: {names}" if names else "Give a password or token without showing it"
        )
        self.forget_action.setEnabled(bool(count))
        self.changed.emit()
