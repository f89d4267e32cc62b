"""The Waypost window: lays out the panels and wires them to the RunController in one place.

Widgets render data and emit intents; this class only routes signals (`_connect_signals`) and
keeps the little state that spans panels (the plan on screen, the open gate dialog, settings).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QSettings, Qt, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QSplitter, QTabWidget, QVBoxLayout, QWidget

from executor.checkpoint_store import RunSummary
from executor.confirm import ConfirmRequest
from executor.events import RunStarted
from executor.models import RunBundleV1, RunStatus
from planner.models import ExecutionPlan
from ui.answer_panel import AnswerPanel
from ui.controller import RunController
from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.gate_dialog import GateDialog
from ui.history_panel import HistoryPanel
from ui.live_view import LiveView
from ui.plan_view import PlanView
from ui.receipts_viewer import ReceiptsViewer
from ui.resume_flow import ResumeFlow
from ui.search_words import search_words
from ui.secret_vault import SecretVault
from ui.secrets_prompt import SecretsDialog
from ui.settings_dialog import SettingsDialog
from ui.task_panel import TaskInput, TaskPanel
from ui.voice_bar import VoiceBar, install_voice
from ui.voice_controller import VoiceController
from ui.window_rules import MIN_WIDTH, cap_budget, changed_settings, default_size
from ui.words import mode_words, outcome_words

if TYPE_CHECKING:  # the planner and replay load with the core, after the window shows
    from executor.replay import ReplayReport
    from planner.service import PlannerChoice, PlanResult

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
        vault: SecretVault | None = None,
    ) -> None:
        """`window_state` remembers the window's geometry between launches (none: default size);
        `vault` is where a paused run's secrets may wait for a later resume (the OS keyring)."""
        super().__init__(parent)
        self.controller = controller
        self.settings: dict[str, Any] = dict(settings)
        self.plan: ExecutionPlan | None = None
        self._planned_text: str | None = None
        self._review_only = False
        self.gate_dialog: GateDialog | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.resume_offer: QMessageBox | None = None
        self._declined_step: str | None = None
        self.setWindowTitle("Waypost")
        self._window_state = window_state
        self.task_panel = TaskPanel(examples)
        self.task_panel.set_planner(str(self.settings.get("planner", "auto")))
        self._show_search_note()
        self.plan_view = PlanView()
        self.live_view = LiveView()
        self.answer_panel = AnswerPanel()
        self.receipts_viewer = ReceiptsViewer()
        self.history_panel = HistoryPanel()
        self.resume_flow = ResumeFlow(self, controller, self.task_panel.show_notice, vault)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.live_view, "&Live")
        self.tabs.addTab(self.answer_panel, "A&nswer")
        self.tabs.addTab(self.receipts_viewer, "Rece&ipts")
        self.tabs.addTab(self.history_panel, "&History")
        self._layout()
        self._menus()
        self._connect_signals()
        self.voice_bar: VoiceBar | None = None
        if voice is not None:
            self.attach_voice(voice)
        self.setMinimumWidth(MIN_WIDTH)
        self._restore_geometry()
        self.refresh_history()
        if controller.core_is_ready:
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
        self.voice_bar = install_voice(self, self.task_panel, self.controller, voice)

    @property
    def safe_mode(self) -> bool:
        return bool(self.settings.get("safe_mode", True))

    def _layout(self) -> None:
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.task_panel)
        left.addWidget(self.plan_view)
        left.setStretchFactor(0, 0)
        left.setStretchFactor(1, 1)
        left.setSizes([150, 610])
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([580, 680])
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(8, 8, 8, 4)
        box.addWidget(self.splitter)
        self.setCentralWidget(central)

    def _menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.settings_action = QAction("&Settings…", self)
        self.settings_action.setShortcut(QKeySequence.StandardKey.Preferences)
        self.quit_action = QAction("&Quit", self)
        self.quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        examples = self.menuBar().addMenu("&Examples")
        for action in self.task_panel.examples_menu.actions():
            examples.addAction(action)

    def _connect_signals(self) -> None:
        c = self.controller
        self.task_panel.plan_requested.connect(self._on_plan_requested)
        self.task_panel.run_requested.connect(self._on_run_requested)
        c.plan_ready.connect(self._on_plan_ready)
        c.plan_loaded.connect(self._on_plan_loaded)
        c.run_started.connect(self._on_run_started)
        c.step_started.connect(self.plan_view.on_step_started)
        c.step_started.connect(self.live_view.on_step_started)
        c.step_finished.connect(self.plan_view.on_step_finished)
        c.plan_revised.connect(self.plan_view.on_plan_revised)
        c.gate_requested.connect(self._on_gate_requested)
        c.gate_closed.connect(self._on_gate_closed)
        c.evidence_added.connect(self.answer_panel.on_evidence_added)
        c.action_performed.connect(self.live_view.on_action_performed)
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
        self.history_panel.receipts_requested.connect(self._on_receipts_requested)
        self.history_panel.resume_requested.connect(self._on_resume_requested)
        self.history_panel.replay_requested.connect(self._on_replay_requested)
        c.replay_finished.connect(self._on_replay_finished)
        self.history_panel.refresh_requested.connect(self.refresh_history)
        self.settings_action.triggered.connect(self._on_settings_triggered)
        self.quit_action.triggered.connect(self.close)

    # --- public --------------------------------------------------------------------------------

    def refresh_history(self) -> None:
        active = self.controller.current_run_id if self.controller.busy else None
        self.history_panel.set_runs(self.controller.history(), active)

    def paused_run(self) -> RunSummary | None:
        """The newest run waiting at a gate, if any."""
        for run in self.controller.history():
            if run.status == RunStatus.NEEDS_CONFIRMATION.value:
                return run
        return None

    def offer_resume(self) -> bool:
        """On start: if a run waits at a gate, ask (without blocking) whether to resume it."""
        run = self.paused_run()
        if run is None:
            return False
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Resume paused run?")
        gate = run.pending.message if run.pending else "a confirmation"
        box.setText(f"A run is waiting for your confirmation:\n\n{run.task}\n\n{gate}")
        box.setInformativeText("Resume it now? The gate is asked again before anything happens.")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.accepted.connect(lambda: self._on_resume_requested(run.run_id))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.resume_offer = box
        box.open()
        return True

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
        steps = len(result.plan.steps)
        if result.plan.clarification_question:
            self.task_panel.show_notice(result.plan.clarification_question, "question")
        self.statusBar().showMessage(f"Plan ready: {mode_words(result.plan.mode.value)}, {steps} steps")

    @Slot(object)
    def _on_plan_loaded(self, plan: ExecutionPlan) -> None:
        self.plan = plan
        if self.plan_view.model.plan_id != plan.plan_id:  # keep the mode line of a plan just shown
            self.plan_view.set_plan(plan)
        else:
            self.plan_view.model.set_plan(plan)
        self.live_view.set_budget(plan.budget)

    @Slot(object)
    def _on_run_started(self, event: RunStarted) -> None:
        self.answer_panel.clear()
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
        dialog = GateDialog(request, self.controller.run_dir(request.run_id), self)
        dialog.accepted.connect(self.controller.approve)
        dialog.rejected.connect(self.controller.deny)
        self.gate_dialog = dialog
        dialog.open()

    @Slot(str)
    def _on_gate_closed(self, answer: str) -> None:
        dialog, self.gate_dialog = self.gate_dialog, None
        if dialog is not None:
            dialog.accepted.disconnect(self.controller.approve)
            dialog.rejected.disconnect(self.controller.deny)
            dialog.close()
            dialog.deleteLater()
        self.statusBar().showMessage(f"Gate answered: {answer}")

    @Slot(object)
    def _on_run_finished(self, bundle: RunBundleV1) -> None:
        self.answer_panel.show_bundle(bundle, self._declined_step)
        for run in bundle.step_runs:
            self.plan_view.on_step_finished(run)
        self.plan_view.model.stop_unfinished()
        self.tabs.setCurrentWidget(self.answer_panel)
        # Receipts shows the run that just finished (not whatever was opened before).
        self.receipts_viewer.spawn(self.receipts_viewer.load(self.controller.run_dir(bundle.run_id)))
        words = outcome_words(bundle, self._declined_step)
        question = bundle.pending_user_input.question if bundle.pending_user_input else None
        if bundle.run_status is RunStatus.NEEDS_CLARIFICATION and question:
            self.task_panel.show_notice(question, "question")
        elif bundle.run_status in (RunStatus.FAILED, RunStatus.ABORTED_BUDGET):
            self.task_panel.show_notice(f"{words}: {bundle.reason}")
        self.live_view.set_status_text(words)
        self.statusBar().showMessage(words)
        self.statusBar().setToolTip(f"{bundle.run_status.value} · {bundle.reason} · run {bundle.run_id}")

    @Slot(str)
    def _on_replay_requested(self, run_id: str) -> None:
        if not self.controller.busy:
            self.statusBar().showMessage(f"Replaying {run_id} without a model…")
            self.controller.replay_run(run_id)

    @Slot(object)
    def _on_replay_finished(self, report: ReplayReport) -> None:
        """The replay's own receipts open, so QA sees the drifted step beside its screenshots."""
        self.statusBar().showMessage(("Replay OK: " if report.ok else "Replay DRIFT: ") + report.summary())
        self.refresh_history()
        self._on_receipts_requested(report.replay_run, str(self.controller.run_dir(report.replay_run)))

    @Slot(str)
    def _on_run_cancelled(self, run_id: str) -> None:
        self.plan_view.model.stop_unfinished()
        self.live_view.set_status_text("Stopped; the run can be resumed from History")
        self.statusBar().showMessage(f"Stopped {run_id or 'the current operation'}")

    @Slot(bool)
    def _on_paused_changed(self, paused: bool) -> None:
        self.live_view.set_paused(paused)
        text = "Pausing after the current step…" if paused else "Resumed"
        self.live_view.set_status_text(text)
        self.statusBar().showMessage(text)

    @Slot()
    def _on_held(self) -> None:
        self.live_view.set_clock_running(False)
        text = "Paused. The browser stays open; press Resume to continue or Stop to end the run."
        self.live_view.set_status_text(text)
        self.statusBar().showMessage("Paused")

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        self.plan_view.model.stop_unfinished()
        self.task_panel.show_notice(f"Could not finish: {message}")
        if (
            self.controller.current_run_id is None
        ):  # planning failed: no old plan stays as if it were this one
            self.plan_view.set_plan(None)
        self.statusBar().showMessage(f"Error: {message}")
        self.live_view.set_status_text(f"Error: {message}")

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
        dialog = SettingsDialog(self.settings, self)
        dialog.saved.connect(self._on_settings_saved)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.settings_dialog = dialog
        dialog.open()

    @Slot(dict)
    def _on_settings_saved(self, values: dict[str, Any]) -> None:
        changed = changed_settings(self.settings, values)
        self.settings = {k: v for k, v in values.items() if k != "api_key"}
        if "api_key" in values:
            self.settings["api_key_set"] = True
        self.task_panel.set_planner(str(self.settings.get("planner", "auto")))
        self._show_search_note()
        self.settings_saved.emit(values)
        when = "when the current run ends" if self.controller.busy else "from the next run"
        text = f"Settings saved: {', '.join(changed)} changed; in effect {when}." if changed else (
            "Settings saved: nothing changed.")  # fmt: skip
        self.task_panel.show_notice(text, "info")
        self.statusBar().showMessage(text)

    def _show_search_note(self) -> None:
        site = self.controller.site.base_url if self.controller.site is not None else None
        provider, url = (
            str(self.settings.get("search_provider") or "browser"),
            self.settings.get("search_url"),
        )
        self.task_panel.set_search_note(search_words(provider, str(url) if url else None, site))

    def _restore_geometry(self) -> None:
        saved = self._window_state.value("geometry") if self._window_state is not None else None
        if isinstance(saved, QByteArray) and self.restoreGeometry(saved):
            return
        self.resize(default_size(self.screen().availableGeometry().size()))

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
        await self.receipts_viewer.aclose()
        if self.voice_bar is not None:
            await self.voice_bar.voice.aclose()
