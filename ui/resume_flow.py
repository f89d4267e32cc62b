"""Resuming a run from the window: its secrets come from memory, the OS keyring (if the person chose
so earlier) or the secrets dialog, in that order; then the bridge resumes it.

Kept apart from the main window so that the window stays a list of wiring, and so the keyring path
is tested on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from ui.controller import RunController
from ui.kept_secrets import KeptSecrets, KeptSecretsError

if TYPE_CHECKING:
    from executor.models import RunBundleV1
    from ui.secrets_prompt import SecretsDialog

#: A run that ended with one of these can be resumed again; its kept secrets stay in the keyring.
_RESUMABLE = frozenset({"NEEDS_CONFIRMATION", "NEEDS_CLARIFICATION"})


class ResumeFlow(QObject):
    def __init__(
        self,
        window: QWidget,
        controller: RunController,
        notice: Callable[[str], None],
        kept_secrets: KeptSecrets | None = None,
    ) -> None:
        super().__init__(window)
        self.window, self.controller, self.notice, self.kept_secrets = (
            window,
            controller,
            notice,
            kept_secrets,
        )
        self.dialog: SecretsDialog | None = None

    def request(self, run_id: str, safe_mode: bool) -> None:
        """Resumes now when every declared secret is at hand, else asks for the rest first."""
        if self.controller.busy:
            return
        missing = self.controller.missing_secrets(run_id)
        if missing and self.kept_secrets is not None and self.kept_secrets.available:
            try:
                kept = self.kept_secrets.load(run_id, [ref.name for ref in missing])
            except KeptSecretsError as exc:
                kept = {}
                self.notice(f"The secrets kept for this run could not be read: {exc}")
            if kept:
                self.controller.supply_secrets(run_id, kept)
                missing = [ref for ref in missing if ref.name not in kept]
        if not missing:
            self.controller.resume_run(run_id, safe_mode=safe_mode)
            return
        from ui.secrets_prompt import SecretsDialog  # opened only when a resume needs secrets

        plan = self.controller.core.store.load_plan(run_id)
        dialog = SecretsDialog(
            missing,
            plan.task.user_query if plan.task else run_id,
            self.window,
            kept_secrets=self.kept_secrets,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.provided.connect(lambda values: self._resume_with(run_id, values, dialog.keep(), safe_mode))
        dialog.rejected.connect(lambda: self.notice("Not resumed: the run needs its secrets to continue."))
        self.dialog = dialog
        dialog.open()

    def _resume_with(self, run_id: str, values: dict[str, str], keep: bool, safe_mode: bool) -> None:
        self.controller.supply_secrets(run_id, values)
        if keep and self.kept_secrets is not None:
            try:
                self.kept_secrets.keep(run_id, values)
            except KeptSecretsError as exc:
                self.notice(f"Resumed, but {exc}; a later resume will ask again.")
        if not self.controller.busy:
            self.controller.resume_run(run_id, safe_mode=safe_mode)

    def on_run_finished(self, bundle: RunBundleV1) -> None:
        """A run that cannot be resumed any more leaves nothing in the keyring."""
        if (
            self.kept_secrets is None
            or not self.kept_secrets.available
            or bundle.run_status.value in _RESUMABLE
        ):
            return
        plan = self.controller.core.store.load_plan(bundle.run_id)
        names = [ref.name for ref in (plan.task.secrets if plan.task else [])]
        if names:
            try:
                self.kept_secrets.forget(bundle.run_id, names)
            except KeptSecretsError as exc:
                self.notice(f"The secrets kept for this run are still in the OS keyring: {exc}")
