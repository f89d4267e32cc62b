"""Secrets on resume from the OS keyring, when the person chose so; said plainly when there is none.

The keyring package is real; its backend is an in-memory one registered for the test (the machine has
no desktop keyring), so what Waypost asks of the keyring is what a real backend would receive.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail
from keyring.errors import PasswordDeleteError
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.secret_keyring import SERVICE, KeyringSecrets
from executor.models import RunStatus
from executor.run.service import AgentCore
from planner.models import SecretRef, TaskSpecV1
from tests.support.window import next_emit, open_window, research_then_act
from ui.secrets_prompt import SecretsDialog

VALUE = "Zq7-correct-horse-91"


class MemoryKeyring(KeyringBackend):
    """A keyring backend in this process's memory: what a desktop keyring would hold."""

    priority = 1.0

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.items.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.items[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.items.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    before = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(before)


def _plan_with_secret() -> TaskSpecV1:
    return TaskSpecV1(
        user_query="Sign in with the password", secrets=[SecretRef(name="password", kind="password")]
    )


def _files_holding(root: Path, value: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and value.encode() in p.read_bytes()]


async def _paused(make_core: Callable[..., AgentCore]) -> str:
    """Session one: a run with a declared secret, closed at its gate (paused, resumable)."""
    plan = research_then_act().model_copy(update={"task": _plan_with_secret()})
    async with open_window(make_core()) as window:
        asked = next_emit(window.controller.gate_requested)
        window.controller.run_plan(plan)
        await asyncio.wait_for(asked, 10)
        run_id = window.controller.current_run_id
    assert run_id is not None
    return run_id


async def test_secrets_kept_in_the_keyring_resume_without_asking_then_are_removed(
    qtbot: QtBot, make_core: Callable[..., AgentCore], memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    run_id = await _paused(make_core)
    kept_secrets = KeyringSecrets()
    async with open_window(make_core(), kept_secrets=kept_secrets) as window:  # session two: asked, and kept
        assert window.offer_resume() and window.resume_offer is not None
        window.resume_offer.button(QMessageBox.StandardButton.Yes).click()
        dialog = window.secrets_dialog
        assert isinstance(dialog, SecretsDialog) and dialog.keep_box.isEnabled()
        qtbot.keyClicks(dialog.fields["password"], VALUE)
        dialog.keep_box.setChecked(True)
        asked = next_emit(window.controller.gate_requested)
        dialog.resume_button.click()
        await asyncio.wait_for(asked, 10)  # closing now pauses the run at its gate again
    assert memory_keyring.items == {(SERVICE, f"{run_id}/password"): VALUE}
    assert _files_holding(tmp_path, VALUE) == []  # in the keyring only, never in a file
    restarted = make_core()
    async with open_window(restarted, kept_secrets=kept_secrets) as window:  # session three: not asked
        asked = next_emit(window.controller.gate_requested)
        finished = next_emit(window.controller.run_finished)
        window.history_panel.resume_requested.emit(run_id)
        await asyncio.wait_for(asked, 10)
        assert window.secrets_dialog is None
        assert restarted.missing_secrets(run_id) == []
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS
    assert memory_keyring.items == {}  # the run ended: nothing waits for it any more


async def test_without_a_keyring_the_dialog_says_so_and_keeps_nothing(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    run_id = await _paused(make_core)
    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        async with open_window(make_core(), kept_secrets=KeyringSecrets()) as window:
            window.history_panel.resume_requested.emit(run_id)
            dialog = window.secrets_dialog
            assert isinstance(dialog, SecretsDialog)
            assert not dialog.keep_box.isEnabled()
            assert "No OS keyring is available" in dialog.keep_note.text()
            assert not dialog.keep()
            dialog.reject()
    finally:
        keyring.set_keyring(before)
