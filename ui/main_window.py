"""The Waypost window: lays out the panels and wires them to the RunController in one place.

Widgets render data and emit intents; this class only routes signals (`_connect_signals`) and
keeps the little state that spans panels (the plan on screen, the open gate dialog, settings).
It imports nothing of the core at module level: the window paints first, and the settings, the
examples and the core arrive afterwards (`apply_settings`, `set_examples`, `RunController.set_core`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt, Signal, Slot
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow, QMessageBox, QTabWidget, QWidget

from common.words import plural
from ui.answer_panel import AnswerPanel
from ui.controller import RunController
from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.gate_flow import GateFlow
from ui.history_panel import HistoryPanel
from ui.icons import icon
from ui.kept_secrets import KeptSecrets
from ui.live_view import LiveView
from ui.plan_view import PlanView
from ui.receipts_viewer import ReceiptsViewer
from ui.resume_flow import ResumeFlow
from ui.resume_offer import WAITS_IN_HISTORY, ResumeOffer
from ui.search_words import search_note
from ui.task_panel import TaskInput, TaskPanel
from ui.window_layout import LaterTabs, file_menus, restore_geometry, two_columns
from ui.window_rules import MIN_WIDTH, cap_budget, changed_settings, saved_words
from ui.words import mode_words, named_steps, outcome_words, replay_words

if TYPE_CHECKING:  # the core's types and the late parts: the window paints first (architecture.md)
    from executor.gates.confirm import ConfirmRequest
    from executor.journal.events import RunOpened
    from executor.models import RunBundleV1
    from executor.run.replay import ReplayReport
    from executor.store.rows import RunSummary
    from planner.models import ExecutionPlan
    from planner.service import PlannerChoice, PlanResult
    from ui.gate_dialog import GateDialog
    from ui.secrets_prompt import SecretsDialog
    from ui.settings_dialog import SettingsDialog
    from ui.voice_bar import VoiceBar
    from ui.voice_controller import VoiceController

_PLANNERS: dict[str, PlannerChoice] = {"rules": "rules", "llm": "llm", "auto": "auto"}


class MainWindow(QMainWindow):
    #: Settings were edited and saved (plain values; app/ persists them).
    settings_saved = Signal(dict)
    #: The window closed; the bootstrap then waits for the controller to wind down.
    closed = Signal()

    def __init__(
        self,
        controller: RunController,
        settings: Mapping[str, Any],
        parent: QWidget | None = None,
        *,
        examples: Sequence[ExampleTask] = EXAMPLE_TASKS,
        voice: VoiceController | None = None,
        window_state: QSettings | None = None,
        kept_secrets: KeptSecrets | None = None,
    ) -> None:
        """`window_state` remembers the window's geometry between launches (none: default size);
        `kept_secrets` is where a paused run's secrets may wait for a later resume (the OS keyring)."""
        super().__init__(parent)
        self.controller = controller
        self.settings: dict[str, Any] = dict(settings)
        self.plan: ExecutionPlan | None = None
        self._planned_text: str | None = None
        self._review_only = False
        self.gate_flow = GateFlow(self, controller)
        self.settings_dialog: SettingsDialog | None = None
        self.resume_offer: QMessageBox | None = None
        self._declined_step: str | None = None
        self.setWindowTitle("Waypost")
        self.setWindowIcon(icon("verify", "#2457d6"))
        self._window_state = window_state
        self.task_panel = TaskPanel(examples)
        self.task_panel.set_planner(str(self.settings.get("planner", "auto")))
        self._show_search_note()
        self.plan_view = PlanView()
        self.live_view = LiveView()
        self.resume_flow = ResumeFlow(self, controller, self.task_panel.show_notice, kept_secrets)
        self._resume_offer = ResumeOffer(
            self, controller.history, window_state, self._on_resume_requested, self._not_now
        )
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.live_view, "&Live")
        self._later = LaterTabs(self.tabs, ["A&nswer", "Rece&ipts", "&History"], self._make_tabs)
        central, self.splitter = two_columns(self.task_panel, self.plan_view, self.tabs)
        self.setCentralWidget(central)
        self.settings_action, self.quit_action, self.examples_menu = file_menus(
            self, self.task_panel.examples_menu
        )
        self._connect_signals()
        self.voice_bar: VoiceBar | None = None
        if voice is not None:
            self.attach_voice(voice)
        self.setMinimumWidth(MIN_WIDTH)
        restore_geometry(self, window_state)
        if controller.core_is_ready:
            self.refresh_history()
            self._show_ready()
        else:
            self.statusBar().showMessage("Starting…")

    def _show_ready(self) -> None:
        self.statusBar().showMessage("Ready. Safe mode is " + ("on" if self.safe_mode else "off"))

    @Slot()
    def _on_core_ready(self) -> None:
        """The core was built after the window showed: the history can load now."""
        self.refresh_history()
        self._show_ready()

    def attach_voice(self, voice: VoiceController) -> None:
        """Voice input joins the task box; the window may be showing already (voice loads late)."""
        from ui.voice_bar import install_voice

        self.voice_bar = install_voice(self, self.task_panel, self.controller, voice)

    def apply_settings(self, values: Mapping[str, Any]) -> None:
        """The settings in effect (read after first paint, or saved): the planner, the search line."""
        self.settings = {k: v for k, v in values.items() if k != "api_key"}
        self.task_panel.set_planner(str(self.settings.get("planner", "auto")))
        self._show_search_note()
        if self.controller.core_is_ready and not self.controller.busy:
            self._show_ready()

    def set_examples(self, examples: Sequence[ExampleTask]) -> None:
        """The example tasks (the bundled site's, once it serves) in the button and the menu."""
        self.task_panel.set_examples(examples)
        self.examples_menu.clear()
        for action in self.task_panel.examples_menu.actions():
            self.examples_menu.addAction(action)

    @property
    def safe_mode(self) -> bool:
        return bool(self.settings.get("safe_mode", True))

    def _connect_signals(self) -> None:
        c = self.controller
        self.task_panel.plan_requested.connect(self._on_plan_requested)
        self.task_panel.run_requested.connect(self._on_run_requested)
        c.plan_ready.connect(self._on_plan_ready)
        c.plan_loaded.connect(self._on_plan_loaded)
        c.run_opened.connect(self._on_run_opened)
        c.step_begun.connect(self.plan_view.on_step_begun)
        c.step_begun.connect(self.live_view.on_step_begun)
        c.step_recorded.connect(self.plan_view.on_step_recorded)
        c.plan_revised.connect(self.plan_view.on_plan_revised)
        c.gate_requested.connect(self._on_gate_requested)
        c.gate_closed.connect(self._on_gate_closed)
        c.action_recorded.connect(self.live_view.on_action_recorded)
        c.source_read.connect(self.live_view.on_source_read)
        c.budget_updated.connect(self.live_view.on_budget_updated)
        c.run_finished.connect(self._on_run_finished)
        c.run_finished.connect(self.resume_flow.on_run_finished)
        c.run_cancelled.connect(self._on_run_cancelled)
        c.failed.connect(self._on_failed)
        c.busy_changed.connect(self._on_busy_changed)
        c.history_changed.connect(self.refresh_history)
        c.core_ready.connect(self._on_core_ready)
        self.live_view.pause_requested.connect(c.pause)
        self.live_view.resume_requested.connect(c.resume)
        c.paused_changed.connect(self._on_paused_changed)
        c.held.connect(self._on_held)
        self.live_view.stop_requested.connect(c.stop)
        c.replay_finished.connect(self._on_replay_finished)
        self.settings_action.triggered.connect(self._on_settings_triggered)
        self.quit_action.triggered.connect(self.close)

    def _make_tabs(self) -> list[QWidget]:
        """The Answer, Receipts and History pages, built after the first paint (ui/window_layout.py)."""
        self._answer, self._receipts, self._history = AnswerPanel(), ReceiptsViewer(), HistoryPanel()
        self.controller.evidence_added.connect(self._answer.on_evidence_added)
        self._history.receipts_requested.connect(self._on_receipts_requested)
        self._history.resume_requested.connect(self._on_resume_requested)
        self._history.replay_requested.connect(self._on_replay_requested)
        self._history.refresh_requested.connect(self.refresh_history)
        from ui.channel_runs_view import WaitingRunsView  # the run store's modules: after first paint

        self.waiting_view = WaitingRunsView.into(self.tabs, self._on_resume_requested, self.refresh_history)
        return [self._answer, self._receipts, self._history]

    @property
    def answer_panel(self) -> AnswerPanel:
        self._later.ensure()
        return self._answer

    @property
    def receipts_viewer(self) -> ReceiptsViewer:
        self._later.ensure()
        return self._receipts

    @property
    def history_panel(self) -> HistoryPanel:
        self._later.ensure()
        return self._history

    def finish_tabs(self) -> None:
        """Builds the pages of the tabs not showing (the bootstrap calls it after the first paint)."""
        self._later.ensure()
        self.refresh_history()

    # --- public --------------------------------------------------------------------------------

    def refresh_history(self) -> None:
        active = self.controller.current_run_id if self.controller.busy else None
        self.history_panel.set_runs(self.controller.history(), active)  # builds the later tabs
        self.waiting_view.show_waiting(self.controller)

    def paused_run(self) -> RunSummary | None:
        """The newest run that can be continued (ui/resume_offer.py), if any."""
        return self._resume_offer.run()

    def offer_resume(self) -> bool:
        """On start: if a run can be continued, ask (without blocking) whether to resume it."""
        offered = self._resume_offer.offer()
        self.resume_offer = self._resume_offer.box
        return offered

    def _not_now(self, run_id: str) -> None:
        """No: the run stays in History, shown there selected, and the notice says so."""
        self.tabs.setCurrentWidget(self.history_panel)
        self.history_panel.select_run(run_id)
        self.task_panel.show_notice(WAITS_IN_HISTORY, "info")
        self.statusBar().showMessage(WAITS_IN_HISTORY)

    # --- slots ---------------------------------------------------------------------------------

    def _capped(self, plan: ExecutionPlan) -> ExecutionPlan:
        return cap_budget(plan, self.settings)

    @Slot(object)
    def _on_plan_requested(self, data: TaskInput) -> None:
        self._planned_text = None
        self._review_only = True
        self.statusBar().showMessage("Planning…")
        planner = _PLANNERS.get(data.planner, "auto")
        self.controller.plan_task(data.text, url=data.url, files=data.files, planner=planner)

    @Slot(object)
    def _on_run_requested(self, data: TaskInput) -> None:
        reviewed = self.plan if self._planned_text == data.text else None
        self._planned_text = None  # a plan runs once; Run again plans afresh
        self._review_only = False
        if reviewed is not None:
            self.controller.run_plan(self._capped(reviewed), safe_mode=self.safe_mode, secrets=data.secrets)
            return
        self.statusBar().showMessage("Planning…")
        self.controller.plan_and_run(
            data.text,
            url=data.url,
            files=data.files,
            planner=_PLANNERS.get(data.planner, "auto"),
            safe_mode=self.safe_mode,
            adjust=self._capped,
            secrets=data.secrets,
        )

    @Slot(object)
    def _on_plan_ready(self, result: PlanResult) -> None:
        self.plan = result.plan
        if self._review_only:  # shown for review: Run on the same text runs this very plan
            self._planned_text = self.task_panel.current_input().text
        self.plan_view.set_plan(result.plan, result.planner_used)
        self.live_view.set_budget(self._capped(result.plan).budget)
        steps = plural(len(result.plan.steps), "step")
        if result.plan.clarification_question:
            self.task_panel.show_notice(result.plan.clarification_question, "question")
        self.statusBar().showMessage(f"Plan ready: {mode_words(result.plan.mode.value)}, {steps}")

    @Slot(object)
    def _on_plan_loaded(self, plan: ExecutionPlan) -> None:
        self.plan = plan
        if self.plan_view.model.plan_id != plan.plan_id:  # keep the mode line of a plan just shown
            self.plan_view.set_plan(plan)
        else:
            self.plan_view.model.set_plan(plan)
        self.live_view.set_budget(plan.budget)

    @Slot(object)
    def _on_run_opened(self, event: RunOpened) -> None:
        self.answer_panel.clear()
        self.task_panel.clear_notice()  # an earlier note (where a run waited) is past
        self._declined_step = None
        if not event.resumed:
            self.live_view.reset()
        self.tabs.setCurrentWidget(self.live_view)
        verb = "Resumed" if event.resumed else "Running"
        mode = mode_words(self.plan.mode.value) if self.plan is not None else "the task"
        self.statusBar().showMessage(f"{verb}: {mode}")
        self.statusBar().setToolTip(f"run {event.run_id} · {event.exec_mode}")

    @Slot(object)
    def _on_gate_requested(self, request: ConfirmRequest) -> None:
        if not self.controller.replaying:  # a replay's gate is not a step of the plan on screen
            self.plan_view.mark_waiting(request.step_id)
        self.live_view.set_clock_running(False)  # a person's time is not the run's
        self._declined_step = request.step_name  # named if the person declines
        self.live_view.set_status_text(f"Waiting for your confirmation: {request.step_name}")
        self.gate_flow.open(request)

    @property
    def gate_dialog(self) -> GateDialog | None:
        """The open gate question, if any."""
        return self.gate_flow.dialog

    @Slot(str)
    def _on_gate_closed(self, answer: str) -> None:
        self.statusBar().showMessage(self.gate_flow.close(answer))

    @Slot(object)
    def _on_run_finished(self, bundle: RunBundleV1) -> None:
        self.answer_panel.show_bundle(bundle, self._declined_step)
        for run in bundle.step_runs:
            self.plan_view.on_step_recorded(run)
        self.plan_view.model.stop_unfinished()
        self.tabs.setCurrentWidget(self.answer_panel)
        # Receipts shows the run that just finished (not whatever was opened before).
        self.receipts_viewer.spawn(self.receipts_viewer.load(self.controller.run_dir(bundle.run_id)))
        words = outcome_words(bundle, self._declined_step)
        question = bundle.pending_user_input.question if bundle.pending_user_input else None
        status = bundle.run_status.value
        if status == "NEEDS_CLARIFICATION" and question:
            self.task_panel.show_notice(question, "question")
        elif status in ("FAILED", "ABORTED_BUDGET"):
            reason = named_steps(bundle.reason, self.plan_view.model.names())
            self.task_panel.show_notice(f"{words}: {reason}")
        self.live_view.set_status_text(words)
        self.statusBar().showMessage(words)
        self.statusBar().setToolTip(f"{bundle.run_status.value} · {bundle.reason} · run {bundle.run_id}")

    @Slot(str)
    def _on_replay_requested(self, run_id: str) -> None:
        if not self.controller.busy:
            self.statusBar().showMessage("Replaying the recorded actions without a model…")
            self.controller.replay_run(run_id)

    @Slot(object)
    def _on_replay_finished(self, report: ReplayReport) -> None:
        """The replay's own receipts open, so QA sees the drifted step beside its screenshots."""
        self.statusBar().showMessage(replay_words(report))
        self.statusBar().setToolTip(report.summary())
        self.refresh_history()
        self._on_receipts_requested(report.replay_run, str(self.controller.run_dir(report.replay_run)))

    @Slot(str)
    def _on_run_cancelled(self, run_id: str) -> None:
        self.plan_view.model.stop_unfinished()
        self.live_view.set_status_text("Stopped; the run can be resumed from History")
        self.statusBar().showMessage("Stopped; the run waits in History" if run_id else "Stopped")

    @Slot(bool)
    def _on_paused_changed(self, paused: bool) -> None:
        self.statusBar().showMessage(self.live_view.show_paused(paused))

    @Slot()
    def _on_held(self) -> None:
        self.live_view.show_held()
        self.statusBar().showMessage("Paused")

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        """What happened and where to fix it (ui/error_words.py); the code is in the tooltip."""
        self.plan_view.model.stop_unfinished()
        self.task_panel.show_notice(message)
        self.task_panel.notice.setToolTip(self.controller.last_error)
        if (
            self.controller.current_run_id is None
        ):  # planning failed: no old plan stays as if it were this one
            self.plan_view.set_plan(None)
        self.statusBar().showMessage("Could not finish; see the note under the task box")
        self.live_view.set_status_text(message)

    @Slot(bool)
    def _on_busy_changed(self, busy: bool) -> None:
        self.task_panel.set_busy(busy)
        self.live_view.set_running(busy)
        self.history_panel.set_busy(busy, self.controller.current_run_id if busy else None)

    @Slot(str, str)
    def _on_receipts_requested(self, _run_id: str, run_dir: str) -> None:
        self.tabs.setCurrentWidget(self.receipts_viewer)
        self.receipts_viewer.spawn(self.receipts_viewer.load(run_dir))

    @Slot(str)
    def _on_resume_requested(self, run_id: str) -> None:
        """A run whose task declared secrets, resumed in a new process, asks for them again first
        (or takes them from the OS keyring, where the person chose to keep them)."""
        self.resume_flow.request(run_id, self.safe_mode)

    @property
    def secrets_dialog(self) -> SecretsDialog | None:
        return self.resume_flow.dialog

    @Slot()
    def _on_settings_triggered(self) -> None:
        from ui.settings_dialog import SettingsDialog  # built when opened, after first paint

        dialog = SettingsDialog(self.settings, self)
        dialog.saved.connect(self._on_settings_saved)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.settings_dialog = dialog
        dialog.open()

    @Slot(dict)
    def _on_settings_saved(self, values: dict[str, Any]) -> None:
        changed = changed_settings(self.settings, values)
        chosen = {k: v for k, v in values.items() if k != "api_key"}
        if "api_key" in values:
            chosen["api_key_set"] = True
        self.apply_settings(chosen)
        self.settings_saved.emit(values)  # app/ saves them and may give back the values in effect
        text = saved_words(changed, self.controller.busy)
        self.task_panel.show_notice(text, "info")
        self.statusBar().showMessage(text)

    def _show_search_note(self) -> None:
        """Where research goes, once the settings are known (they arrive after first paint)."""
        if self.settings:
            site = self.controller.site.base_url if self.controller.site is not None else None
            self.task_panel.set_search_note(search_note(self.settings, site))

    def closeEvent(self, event: QCloseEvent) -> None:
        """A gate waiting for an answer pauses (resumable later); other work is cancelled."""
        if self._window_state is not None:
            self._window_state.setValue("geometry", self.saveGeometry())
            self._window_state.sync()
        self.controller.shutdown()
        event.accept()
        self.closed.emit()

    async def aclose(self) -> None:
        """Waits until the run and any receipts work have wound down (after close)."""
        await self.controller.aclose()
        if self._later.built:
            await self._receipts.aclose()
        if self.voice_bar is not None:
            await self.voice_bar.voice.aclose()
