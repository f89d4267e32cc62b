"""Answer panel, settings dialog, history panel and live view, each on its own."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from executor.journal.events import ActionRecorded
from executor.models import BudgetStateV1, Citation, EvidenceItem, ExecMode, RunBundleV1, RunStatus
from executor.store.checkpoint_store import CheckpointStore
from executor.store.rows import RunSummary
from planner.models import Budget
from tests.support.window import cell_text, png_bytes, record
from ui.answer_panel import AnswerPanel, answer_html
from ui.history_panel import HistoryPanel
from ui.live_view import LiveView
from ui.settings_dialog import SettingsDialog


def bundle_with_citations() -> RunBundleV1:
    citations = [
        Citation(number=1, source_url="http://127.0.0.1:8000/pricing", title="Pricing"),
        Citation(number=2, source_url="https://example.test/terms", title="Terms"),
        Citation(number=3, source_url="javascript:alert(1)", title="Bad"),
    ]
    return RunBundleV1(
        trace_id="t",
        run_id="run_1",
        plan_id="p",
        exec_mode=ExecMode.RESEARCH_ONLY,
        run_status=RunStatus.SUCCESS,
        final_answer="Basic costs $10 [1]; Pro <b>costs</b> $30 [2] [3].",
        citations=citations,
        evidence=[EvidenceItem(source_url="http://127.0.0.1:8000/pricing", title="Pricing", snippet="$10")],
    )


def test_answer_shows_numbered_citations_that_open_their_source(qtbot: QtBot) -> None:
    panel = AnswerPanel()
    qtbot.addWidget(panel)
    opened: list[QUrl] = []
    panel.open_url = lambda url: record(opened, url)
    panel.show_bundle(bundle_with_citations())
    assert panel.citation_texts == ["[1] Pricing", "[2] Terms", "[3] Bad"]
    assert panel.evidence.rowCount() == 1 and cell_text(panel.evidence, 0, 1).endswith("/pricing")
    html = panel.answer.toHtml()
    assert 'href="http://127.0.0.1:8000/pricing"' in html
    assert "javascript:" not in html  # only web URLs become links
    panel.citations.itemActivated.emit(panel.citations.item(1))
    assert opened == [QUrl("https://example.test/terms")]
    panel.citations.itemActivated.emit(panel.citations.item(2))
    assert len(opened) == 1
    panel.answer.anchorClicked.emit(QUrl("http://127.0.0.1:8000/pricing"))
    assert opened[-1] == QUrl("http://127.0.0.1:8000/pricing")


def test_answer_text_is_escaped() -> None:
    html = answer_html("a <script>x</script> [1]", [Citation(number=1, source_url="http://h/")])
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<a href="http://h/">[1]</a>' in html


def test_settings_round_trip_keeps_the_key_hidden(qtbot: QtBot) -> None:
    given = {
        "model": "gpt-4o-mini",
        "base_url": None,
        "api_key_set": True,
        "safe_mode": True,
        "headless": True,
        "trace": False,
        "max_time_ms": 300_000,
        "max_tool_calls": 100,
        "max_tokens": 200_000,
        "search_provider": "browser",
        "search_url": None,
        "runs_dir": "/tmp/runs",
        "planner": "auto",
        "cdp_url": "http://127.0.0.1:9222",
    }
    dialog = SettingsDialog(given)
    qtbot.addWidget(dialog)
    assert dialog.api_key_edit.echoMode() is QLineEdit.EchoMode.Password
    assert dialog.api_key_edit.text() == ""
    assert "stored" in dialog.api_key_edit.placeholderText()
    unchanged = dialog.values()
    assert unchanged == {k: v for k, v in given.items() if k != "api_key_set"}
    dialog.model_edit.setText("llama3")
    dialog.base_url_edit.setText("http://127.0.0.1:11434/v1")
    dialog.api_key_edit.setText("sk-test")
    dialog.safe_mode_check.setChecked(False)
    dialog.headless_check.setChecked(False)
    dialog.trace_check.setChecked(True)
    dialog.time_spin.setValue(60)
    dialog.provider_combo.setCurrentText("searxng")
    dialog.search_url_edit.setText("http://127.0.0.1:8080/search?q={query}")
    with qtbot.waitSignal(dialog.saved, timeout=1000) as saved:
        dialog.buttons.accepted.emit()
    assert saved.args is not None
    values = saved.args[0]
    assert values["model"] == "llama3" and values["api_key"] == "sk-test"
    assert (values["safe_mode"], values["headless"], values["max_time_ms"]) == (False, False, 60_000)
    assert values["trace"] is True
    assert values["search_provider"] == "searxng" and values["cdp_url"] == "http://127.0.0.1:9222"
    again = SettingsDialog(values)
    qtbot.addWidget(again)
    assert again.values() == {k: v for k, v in values.items() if k != "api_key"}


def test_settings_refuses_a_search_url_without_query(qtbot: QtBot) -> None:
    dialog = SettingsDialog({"runs_dir": "/tmp/runs"})
    qtbot.addWidget(dialog)
    dialog.search_url_edit.setText("http://127.0.0.1/search")
    emitted: list[dict[str, object]] = []
    dialog.saved.connect(emitted.append)
    dialog.buttons.accepted.emit()
    assert emitted == []
    assert "{query}" in dialog.error_label.text()


def summary(run_id: str, status: str, minute: int) -> RunSummary:
    when = datetime(2026, 1, 1, 12, minute, tzinfo=UTC)
    return RunSummary(
        run_id=run_id,
        plan_id="p",
        trace_id="t",
        task=f"task of {run_id}",
        exec_mode="HYBRID",
        status=status,
        created_at=when,
        updated_at=when,
        run_dir=f"/tmp/runs/{run_id}",
    )


def test_history_lists_runs_and_routes_intents(qtbot: QtBot) -> None:
    panel = HistoryPanel()
    qtbot.addWidget(panel)
    panel.set_runs([summary("run_a", "NEEDS_CONFIRMATION", 2), summary("run_b", "SUCCESS", 1)])
    assert [cell_text(panel.table, r, 0) for r in range(2)] == ["Waiting for you", "Done"]
    item = panel.table.item(0, 0)
    assert item is not None and "NEEDS_CONFIRMATION" in item.toolTip()  # the code, one hover away
    assert not panel.replay_button.isEnabled()  # nothing selected yet
    panel.select_run("run_b")
    assert not panel.resume_button.isEnabled()
    with qtbot.waitSignal(panel.replay_requested, timeout=1000) as replayed:
        panel.replay_button.click()
    assert replayed.args == ["run_b"]
    with qtbot.waitSignal(panel.receipts_requested, timeout=1000) as opened:
        panel.receipts_button.click()
    assert opened.args == ["run_b", "/tmp/runs/run_b"]
    panel.select_run("run_a")
    with qtbot.waitSignal(panel.resume_requested, timeout=1000) as resumed:
        panel.resume_button.click()
    assert resumed.args == ["run_a"]
    panel.set_busy(True, "run_c")
    assert not panel.resume_button.isEnabled()
    assert not panel.replay_button.isEnabled()


def test_live_view_shows_action_screenshot_and_budget(qtbot: QtBot, tmp_path: Path) -> None:
    view = LiveView()
    qtbot.addWidget(view)
    shot = tmp_path / "shot.png"
    shot.write_bytes(png_bytes())
    view.set_budget(Budget(max_time_ms=10_000, max_tool_calls=10, max_tokens=1000))
    view.on_action_recorded(
        ActionRecorded(
            run_id="r",
            step_id="a1",
            seq=1,
            action={"kind": "fill", "target": {"label": "Email"}, "value": "a@b.co"},
            status="ok",
            url="http://127.0.0.1/signup",
            screenshot_path=str(shot),
        )
    )
    assert view.action_label.text() == "Typed a@b.co into “Email”"  # the codes are in its tooltip
    assert view.screenshot.has_image and view.latest_screenshot == str(shot)
    view.on_budget_updated(BudgetStateV1(time_ms_used=2500, tool_calls_used=5, token_est_used=1500))
    assert view.time_bar.text() == "2.5 s / 10.0 s"
    assert view.calls_bar.value() == 500
    assert view.tokens_bar.value() == 1000  # over budget: the bar is full, the text tells by how much
    assert view.tokens_bar.text() == "1,500 / 1,000"
    assert view.screenshot.alignment() & Qt.AlignmentFlag.AlignCenter


def test_plan_view_shows_a_revised_plan_as_v2_and_keeps_finished_steps(qtbot: QtBot) -> None:
    from executor.journal.events import PlanRevised
    from executor.models import StepRunV1, StepStatus
    from planner.models import ExecutionPlan
    from ui.plan_view import PlanView

    gate = {"gate_id": "g", "kind": "action", "blocked_actions": ["delete"]}
    search = {"step_id": "s1", "type": "WEB_SEARCH", "inputs": {"query": "x"}}
    act = {"step_id": "a1", "type": "ACT", "policy_gate_id": "g", "inputs": {"goal": "x"}}
    first = ExecutionPlan.model_validate({"mode": "C", "steps": [search, act], "policy_gates": [gate]})
    view = PlanView()
    qtbot.addWidget(view)
    view.set_plan(first)
    view.on_step_recorded(StepRunV1(step_id="s1", step_type="WEB_SEARCH", status=StepStatus.SUCCESS))
    second = first.model_copy(update={"version": 2, "steps": [first.steps[0], first.steps[1].model_copy(
        update={"step_id": "a2"})]})  # fmt: skip
    view.on_plan_revised(
        PlanRevised(
            run_id="r", plan=second, version=2, reason="STEP_FAILED: a1 <failed>", replaced_step_id="a1"
        )
    )
    assert view.version == 2 and "Plan v2" in view.summary.text() and "&lt;failed&gt;" in view.summary.text()
    assert view.model.status_of("s1") == StepStatus.SUCCESS  # the finished step kept its result
    assert view.model.status_of("a2") == StepStatus.PENDING and view.model.rowCount() == 2


def test_history_rows_that_begin_alike_show_what_sets_them_apart(qtbot: QtBot) -> None:
    """The example tasks begin with the same words and address: each row shows its site, its time to
    the second, and the task from where it differs, with addresses shortened to their page."""
    from app.demo.flows import FLOWS
    from ui.history_panel import COLUMNS

    base = "http://127.0.0.1:8765"
    research, recommend = (f.task(base) for f in FLOWS if f.mode in {"A", "C"})
    runs = [summary("run_a", "SUCCESS", 3), summary("run_c", "SUCCESS", 2), summary("run_c2", "SUCCESS", 2)]
    runs[0] = runs[0].model_copy(update={"task": research})
    runs[1] = runs[1].model_copy(update={"task": recommend})
    runs[2] = runs[2].model_copy(
        update={"task": recommend, "updated_at": runs[2].updated_at.replace(second=41)}
    )
    panel = HistoryPanel()
    qtbot.addWidget(panel)
    panel.set_runs(runs)
    task, site, when = (COLUMNS.index(c) for c in ("Task", "Site", "When"))
    shown = [cell_text(panel.table, r, task) for r in range(3)]
    assert shown[0][:30] != shown[1][:30]  # the first words a narrow column shows differ
    assert "compare their prices" in shown[0][:40]
    assert "recommend one" in shown[1][:40]
    assert all(base not in text and text.startswith("… ") for text in shown)
    assert [cell_text(panel.table, r, site) for r in range(3)] == ["127.0.0.1:8765"] * 3
    assert cell_text(panel.table, 1, when) != cell_text(panel.table, 2, when)  # same task, told apart by time
    item = panel.table.item(1, task)
    assert (
        item is not None and item.toolTip() == f"{recommend}\nrun run_c · SUCCESS · HYBRID"
    )  # one hover away


def test_history_site_is_the_page_the_run_was_given(qtbot: QtBot, tmp_path: Path) -> None:
    """A page given in the URL field, or in the task without http://, shows its host in the Site
    column (both said "web search" before); only a run given no page that searched says so."""
    from executor.models import EXEC_MODE_FOR_PLAN
    from planner.context import build_context
    from planner.rules import plan_rules
    from ui.history_panel import COLUMNS

    given = [
        ("Summarise this page", "http://127.0.0.1:8765/docs.html"),
        ("Summarise example.com/docs for me", None),
        ("research the datafeed packages", None),
    ]
    store = CheckpointStore(tmp_path / "runs.sqlite3")
    try:
        for n, (task, url) in enumerate(given):
            plan = plan_rules(task, build_context(task, url=url))
            mode = str(EXEC_MODE_FOR_PLAN[plan.mode])
            store.start_run(run_id=f"run_{n}", plan=plan, exec_mode=mode, task=task)
        runs = store.list_runs()
    finally:
        store.close()
    panel = HistoryPanel()
    qtbot.addWidget(panel)
    panel.set_runs(sorted(runs, key=lambda r: r.run_id))
    site = COLUMNS.index("Site")
    shown = [cell_text(panel.table, r, site) for r in range(3)]
    assert shown == ["127.0.0.1:8765", "example.com", "web search"]
