"""The whole window on the real core: gate dialog, approve/deny, live plan status, close, stop, keys."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from executor.models import RunStatus, StepStatus
from executor.run.service import AgentCore
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool
from tests.support.window import cell_text, next_emit, open_window, research_then_act
from ui.gate_dialog import GateDialog
from ui.main_window import MainWindow

RESEARCH_TASK = "Research the datafeed packages on the demo site and compare their prices, with sources"
HYBRID_TASK = (
    "Research the datafeed packages, recommend one for a small fintech, then open the signup page "
    "and prefill the form for it, don't submit"
)


async def run_to_gate(window: MainWindow) -> None:
    asked = next_emit(window.controller.gate_requested)
    window.controller.run_plan(research_then_act(), safe_mode=window.safe_mode)
    await asyncio.wait_for(asked, 10)
    assert window.gate_dialog is not None and window.gate_dialog.isVisible()


async def test_gate_dialog_shows_the_question_and_approving_succeeds(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        await run_to_gate(window)
        dialog = window.gate_dialog
        assert dialog is not None
        assert dialog.isModal()
        assert dialog.heading.text() == "Approve “Prefill signup”?"
        assert "gate_action (action)" in dialog.heading.toolTip()  # codes stay in the tooltip
        assert dialog.reason_label.text() == "About to fill the signup form"
        blocked = "Whatever you answer, these stay blocked: sending a form, buying and deleting."
        assert dialog.blocked_label.text() == blocked
        assert "Type into “Email”: a@b.co" in dialog.touch_label.text()
        assert "http://127.0.0.1/signup" in dialog.touch_label.text()
        assert dialog.deny_button.isDefault() and not dialog.approve_button.isDefault()
        # live status: research done, the action waits for the person
        model = window.plan_view.model
        assert (model.status_of("r1"), model.status_of("c1"), model.status_of("a1")) == (
            StepStatus.SUCCESS,
            StepStatus.SUCCESS,
            "WAITING",
        )
        finished = next_emit(window.controller.run_finished)
        dialog.approve_button.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS
        assert model.status_of("a1") == StepStatus.SUCCESS
        assert window.gate_dialog is None
        assert window.tabs.currentWidget() is window.answer_panel


async def test_escape_asks_then_declining_ends_the_run_blocked_policy(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        await run_to_gate(window)
        dialog = window.gate_dialog
        assert dialog is not None
        finished = next_emit(window.controller.run_finished)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert dialog.decline_box is not None and dialog.decline_box.text() == "Decline this step?"
        assert window.controller.gate_pending  # nothing declined yet: the question still stands
        decline = next(b for b in dialog.decline_box.buttons() if "Decline" in b.text())
        decline.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.BLOCKED_POLICY
        assert window.plan_view.model.status_of("a1") == StepStatus.BLOCKED_GATE
        label = window.answer_panel.status_label
        assert label.text() == "<b>You declined “Prefill signup”. Nothing more was done on the page.</b>"
        assert label.toolTip().startswith("BLOCKED_POLICY: ")  # the code stays in the tooltip


async def test_enter_on_the_dialog_denies_too(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        await run_to_gate(window)
        assert window.gate_dialog is not None
        finished = next_emit(window.controller.run_finished)
        qtbot.keyClick(window.gate_dialog, Qt.Key.Key_Return)
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.BLOCKED_POLICY


async def test_closing_mid_run_leaves_a_resumable_checkpoint(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        await run_to_gate(window)
        run_id = window.controller.current_run_id
        assert run_id is not None
        window.close()
        await asyncio.wait_for(window.aclose(), 10)
    (summary,) = core.history()
    assert (summary.run_id, summary.status) == (run_id, RunStatus.NEEDS_CONFIRMATION)
    assert summary.pending is not None and summary.pending.step_id == "a1"
    bundle = await core.resume(run_id, approve_pending=True)
    assert bundle.run_status is RunStatus.SUCCESS


async def test_reopening_offers_to_resume_and_asks_the_gate_again(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as first:
        await run_to_gate(first)
        run_id = first.controller.current_run_id
    async with open_window(core) as window:
        assert window.offer_resume()
        box = window.resume_offer
        assert box is not None and box.isVisible()
        assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
        asked = next_emit(window.controller.gate_requested)
        box.button(QMessageBox.StandardButton.Yes).click()
        (request,) = await asyncio.wait_for(asked, 10)
        assert (request.run_id, request.step_id) == (run_id, "a1")
        # the earlier leg's finished steps show as done, not as pending
        assert [window.plan_view.model.status_of(s) for s in ("r1", "c1")] == [StepStatus.SUCCESS] * 2


async def test_no_resume_offer_without_a_paused_run(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        assert not window.offer_resume()
        assert window.resume_offer is None


async def test_stop_cancels_and_history_offers_resume(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    async with open_window(core) as window:
        started = next_emit(window.controller.step_begun)
        window.controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]))
        await asyncio.wait_for(started, 10)
        assert window.live_view.stop_button.isEnabled()
        assert window.plan_view.model.status_of("r1") == StepStatus.RUNNING
        idle = next_emit(window.controller.busy_changed)
        window.live_view.stop_button.click()
        assert (await asyncio.wait_for(idle, 10)) == (False,)
        assert not window.live_view.stop_button.isEnabled()
        assert window.task_panel.run_button.isEnabled()
        panel = window.history_panel
        assert cell_text(panel.table, 0, 0) == "Stopped; can resume"
        panel.table.selectRow(0)
        assert panel.resume_button.isEnabled()


async def test_ctrl_enter_plans_and_runs_the_task(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        finished = next_emit(window.controller.run_finished)
        window.task_panel.task_edit.setPlainText(RESEARCH_TASK)
        window.task_panel.task_edit.setFocus()
        qtbot.keyClick(window.task_panel.task_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS
        assert window.plan is not None and window.plan.mode.value == "A"
        assert window.answer_panel.citation_texts[0].startswith("[1] ")
        assert window.task_panel.task_edit.toPlainText() == RESEARCH_TASK  # no newline typed


async def test_plan_first_then_run_runs_the_reviewed_plan(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        window.task_panel.task_edit.setPlainText(HYBRID_TASK)
        ready = next_emit(window.controller.plan_ready)
        window.task_panel.plan_button.click()
        (result,) = await asyncio.wait_for(ready, 10)
        assert not window.controller.busy or window.controller.task is not None
        assert window.plan_view.model.rowCount() == len(result.plan.steps)
        assert "Research, then act" in window.plan_view.summary.text()
        assert "MODE_C" not in window.plan_view.summary.text()
        assert "MODE_C:research_then_action" in window.plan_view.summary.toolTip()
        await window.controller.wait_idle()
        assert core.history() == []  # planning never runs anything
        asked = next_emit(window.controller.gate_requested)
        window.task_panel.run_button.click()
        (request,) = await asyncio.wait_for(asked, 10)
        (summary,) = core.history()
        assert summary.plan_id == result.plan.plan_id
        assert request.decision.blocked_actions == ["submit", "purchase", "delete"]


async def test_budget_bars_follow_the_run(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        plan = make_plan(
            "A",
            [
                {"step_id": "r1", "type": "WEB_SEARCH"},
                {"step_id": "s1", "type": "SUMMARIZE", "depends_on": ["r1"]},
            ],
            budget={"max_tool_calls": 4},
        )
        window.live_view.set_budget(plan.budget)
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(plan)
        await asyncio.wait_for(finished, 10)
        assert window.live_view.calls_bar.text() == "2 / 4"
        assert window.live_view.calls_bar.value() == 500


async def test_example_menu_fills_the_task(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        actions = window.task_panel.examples_menu.actions()
        assert [a.data() for a in actions] == ["A", "B", "C", "D"]
        actions[2].trigger()
        assert window.task_panel.task_edit.toPlainText() == HYBRID_TASK


async def test_pause_at_the_gate_ends_needs_confirmation_and_closes_the_dialog(
    qtbot: QtBot, core: AgentCore
) -> None:
    async with open_window(core) as window:
        await run_to_gate(window)
        dialog = window.gate_dialog
        assert dialog is not None and window.live_view.pause_button.isEnabled()
        finished = next_emit(window.controller.run_finished)
        window.live_view.pause_button.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION
        assert window.gate_dialog is None
        assert [d for d in window.findChildren(GateDialog) if d.isVisible()] == []
        await window.controller.wait_idle()
        window.history_panel.select_run(bundle.run_id)
        assert window.history_panel.resume_button.isEnabled()


async def test_settings_dialog_from_the_menu_updates_safe_mode(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        saved: list[dict[str, object]] = []
        window.settings_saved.connect(saved.append)
        window.settings_action.trigger()
        dialog = window.settings_dialog
        assert dialog is not None and dialog.isVisible()
        dialog.safe_mode_check.setChecked(False)
        dialog.buttons.accepted.emit()
        assert saved and saved[0]["safe_mode"] is False
        assert not window.safe_mode
        finished = next_emit(window.controller.run_finished)
        plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
        window.controller.run_plan(plan, safe_mode=window.safe_mode)
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS  # no gate asked with safe mode off


async def test_receipts_show_the_run_that_just_finished(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        loaded = next_emit(window.receipts_viewer.loaded)
        await run_to_gate(window)
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
        (run_dir,) = await asyncio.wait_for(loaded, 10)
        assert run_dir == str(window.controller.run_dir(window.controller.current_run_id or ""))
        assert window.receipts_viewer.model.folder is not None
