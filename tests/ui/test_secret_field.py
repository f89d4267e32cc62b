"""The window's secret field: a named secret typed without echo fills the task's {{secret:NAME}}
in a real sign-in (real Chromium, the fixture site), as `--secret NAME` does; it is stored nowhere."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.settings import Settings
from app.wiring import build_core
from executor.models import RunStatus
from executor.run.service import AgentCore
from tests.support.site import FixtureSite
from tests.support.window import DEFAULT_SETTINGS, next_emit
from ui.controller import RunController
from ui.main_window import MainWindow
from ui.secret_field import SecretEntryDialog

pytestmark = pytest.mark.browser

VALUE = "Zq7-horse-battery-91"


@pytest.fixture
def real_core(tmp_path: Path) -> Iterator[AgentCore]:
    core = build_core(Settings(runs_dir=tmp_path / "runs", planner="rules", approve="all"))
    yield core
    core.store.close()


def _files_holding(root: Path, value: str) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and value.encode() in p.read_bytes()]


async def test_a_secret_given_in_the_window_signs_in_and_is_stored_nowhere(
    qtbot: QtBot, real_core: AgentCore, site: FixtureSite, tmp_path: Path
) -> None:
    site.clear_posts()
    window = MainWindow(RunController(real_core), {**DEFAULT_SETTINGS, "runs_dir": str(tmp_path / "runs")})
    qtbot.addWidget(window)
    window.show()
    panel = window.task_panel
    panel.task_edit.setPlainText(
        f"Log in to {site.url('/login.html')} with username bob and password {{{{secret:password}}}}"
    )
    panel.secrets_button.give_action.trigger()
    dialog = panel.secrets_button.dialog
    assert isinstance(dialog, SecretEntryDialog) and dialog.isVisible()
    assert dialog.value_edit.echoMode() is QLineEdit.EchoMode.Password  # typed without echo
    assert not dialog.ok_button.isEnabled()
    qtbot.keyClicks(dialog.name_edit, "password")
    qtbot.keyClicks(dialog.value_edit, VALUE)
    dialog.ok_button.click()
    assert panel.secrets_button.text() == "Secrets (1)"
    assert VALUE not in panel.secrets_button.toolTip()
    asked = next_emit(window.controller.gate_requested)
    finished = next_emit(window.controller.run_finished)
    panel.run_button.click()
    assert panel.secrets_button.text() == "Secrets"  # handed to this run; the window holds it no more
    done, _ = await asyncio.wait([asked, finished], timeout=60, return_when=asyncio.FIRST_COMPLETED)
    if asked in done:
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
    (bundle,) = await asyncio.wait_for(finished, 60)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert site.post_count("/login") == 1
    assert f"password={VALUE}".encode() in site.post_bodies("/login")[0]  # typed where it was meant
    await window.controller.wait_idle()
    assert _files_holding(tmp_path, VALUE) == []  # no run file, store or log holds it
    window.close()
    await window.aclose()


async def test_a_bad_name_is_refused_before_anything_is_held(qtbot: QtBot, core: AgentCore) -> None:
    window = MainWindow(RunController(core), DEFAULT_SETTINGS)
    qtbot.addWidget(window)
    button = window.task_panel.secrets_button
    button.give_action.trigger()
    dialog = button.dialog
    assert dialog is not None
    qtbot.keyClicks(dialog.name_edit, "My Password")
    qtbot.keyClicks(dialog.value_edit, VALUE)
    assert not dialog.ok_button.isEnabled()
    assert "lower-case" in dialog.hint.text()
    dialog.reject()
    assert button.names() == []
