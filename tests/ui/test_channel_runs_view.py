"""The window's "Waiting for you" tab lists runs an assistant started over MCP that wait at a gate
(and no other run), and opening one asks to resume it through the window's own gate dialog."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from pytestqt.qtbot import QtBot

from executor.models import PendingUserInput
from executor.store.channel_runs import note_channel_run, waiting_channel_runs
from executor.store.rows import RunSummary
from ui.channel_runs_view import EMPTY, WaitingRunsView

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def summary(run_id: str, status: str, pending: PendingUserInput | None = None) -> RunSummary:
    return RunSummary(
        run_id=run_id, plan_id="p", trace_id="t", task=f"task of {run_id}", exec_mode="ACTION_ONLY",
        status=status, created_at=NOW, updated_at=NOW, pending=pending,
    )  # fmt: skip


def test_only_waiting_mcp_runs_are_listed_and_opening_one_asks_to_resume(
    qtbot: QtBot, tmp_path: Path
) -> None:
    gate = PendingUserInput(
        kind="CONFIRMATION", message="safe mode: every action step needs a confirmation", step_name="fill"
    )
    note_channel_run(tmp_path, "run_mcp_waiting", "fill the form")
    note_channel_run(tmp_path, "run_mcp_done", "read the page")
    (tmp_path / "mcp-runs.jsonl").open("a").write("not json\n")  # a torn line is skipped
    history = [
        summary("run_mcp_waiting", "NEEDS_CONFIRMATION", gate),
        summary("run_mcp_done", "SUCCESS"),
        summary("run_window_waiting", "NEEDS_CONFIRMATION", gate),  # the window's own: History has it
    ]
    view = WaitingRunsView()
    qtbot.addWidget(view)
    view.set_runs(waiting_channel_runs(tmp_path, history))
    assert view.runs.count() == 1
    assert "task of run_mcp_waiting" in view.runs.item(0).text()
    assert "every action step needs a confirmation" in view.runs.item(0).text()
    with qtbot.waitSignal(view.resume_requested) as asked:
        view.open_button.click()
    assert asked.args == ["run_mcp_waiting"]

    view.set_runs(waiting_channel_runs(tmp_path, history[1:]))
    assert view.runs.item(0).text() == EMPTY
    assert not view.open_button.isEnabled()
