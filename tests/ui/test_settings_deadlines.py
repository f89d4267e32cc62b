"""The window's Settings carry the model's call timeout and planning deadline (docs/architecture.md,
"Slow models"): shown from the settings, saved when changed."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from ui.settings_dialog import SettingsDialog


def test_deadlines_are_shown_and_saved(qtbot: QtBot) -> None:
    dialog = SettingsDialog({"runs_dir": "/tmp/runs", "llm_timeout_s": 120.0, "planning_deadline_s": 90.0})
    qtbot.addWidget(dialog)
    assert (dialog.call_timeout_spin.value(), dialog.planning_deadline_spin.value()) == (120, 90)
    dialog.planning_deadline_spin.setValue(150)
    values = dialog.values()
    assert (values["llm_timeout_s"], values["planning_deadline_s"]) == (120.0, 150.0)


def test_untouched_defaults_are_not_written_back(qtbot: QtBot) -> None:
    dialog = SettingsDialog({"runs_dir": "/tmp/runs"})
    qtbot.addWidget(dialog)
    assert "planning_deadline_s" not in dialog.values()
    dialog.call_timeout_spin.setValue(200)
    assert dialog.values()["llm_timeout_s"] == 200.0
