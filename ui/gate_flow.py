"""The gate dialog's life in the window: opened when a run asks, closed when the question ends.

The dialog answers through the controller (Approve, Deny); however the question ends (answered,
paused by closing the window, the run stopped) the dialog is closed without asking "Decline?".
The dialog's module loads with the first question, after the window has painted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from ui.controller import RunController

if TYPE_CHECKING:
    from executor.gates.confirm import ConfirmRequest
    from ui.gate_dialog import GateDialog

ANSWERED = {"approve": "Approved", "deny": "Declined", "pause": "Paused; the run waits in History"}


class GateFlow:
    def __init__(self, window: QWidget, controller: RunController) -> None:
        self.window, self.controller = window, controller
        self.dialog: GateDialog | None = None

    def open(self, request: ConfirmRequest) -> GateDialog:
        from ui.gate_dialog import GateDialog

        dialog = GateDialog(request, self.controller.run_dir(request.run_id), self.window)
        dialog.accepted.connect(self.controller.approve)
        dialog.rejected.connect(self.controller.deny)
        self.dialog = dialog
        dialog.open()
        return dialog

    def close(self, answer: str) -> str:
        """Closes the dialog; what the answer was, in words."""
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.accepted.disconnect(self.controller.approve)
            dialog.rejected.disconnect(self.controller.deny)
            dialog.settle()  # answered, or the run stopped: close without asking "Decline?"
            dialog.close()
            dialog.deleteLater()
        return ANSWERED.get(answer, "The question was closed")
