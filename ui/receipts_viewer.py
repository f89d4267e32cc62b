"""Receipts viewer: a run folder's actions, before/after screenshots, chain verification, export.

File work (parsing, hashing every screenshot, writing the report) runs in a worker thread inside a
task this widget owns and cancels on close, so a large run never freezes the window.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelection, Qt, QUrl, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from common.words import plural
from ui.icons import icon
from ui.open_outside import Opener, OpenNote, OpenUrl
from ui.receipts_model import COLUMNS, ReceiptsTableModel
from ui.screenshot import ScreenshotLabel
from ui.theme import restyle
from ui.words import history_words

if TYPE_CHECKING:  # the receipts load with the first folder opened (docs/architecture.md, "Cold start")
    from receipts.attest import RunCheck
    from receipts.layout import RunFolder
    from ui.receipts_model import Row


def _load(run_dir: Path) -> tuple[RunFolder, list[Row], int]:
    from receipts.layout import RunFolder
    from receipts.models import ActionRecord, EvidenceReadRecord
    from receipts.report import read_records

    folder = RunFolder(run_dir)
    records = [r for _, r in read_records(folder)]
    return folder, [r for r in records if isinstance(r, ActionRecord | EvidenceReadRecord)], len(records)


def describe_check(check: RunCheck) -> str:
    """The verdict `waypost receipts verify` gives, in the same words: OK only for a complete run,
    signed by a key this install trusts, with every file untouched. A key id shows its first 16
    hex digits (whole in the tooltip), so the line wraps in a narrow window; the run's status reads
    as History says it ("Done", not SUCCESS), the code stays in the tooltip."""
    text = _RUN_CODE.sub(lambda m: f"; run “{history_words(m.group(1))}”;", check.summary())
    return _LONG_HEX.sub(r"\1…", f"Verify {text}")


_LONG_HEX = re.compile(r"\b([0-9a-f]{16})[0-9a-f]{24,}\b")
_RUN_CODE = re.compile(r"; run ([A-Z_]+);")


class ReceiptsViewer(QWidget):
    #: A run folder was loaded (its path).
    loaded = Signal(str)
    #: Verification finished (receipts.attest.RunCheck: chain, signature and files).
    verified = Signal(object)
    #: The HTML report was written (its path).
    exported = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.opener = Opener(self)
        #: How folders and reports are opened; tests swap it.
        self.open_url: OpenUrl = self.opener.open
        #: Says what happened when nothing could open the folder or report (path, Copy).
        self.open_note = OpenNote()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.model = ReceiptsTableModel()
        self.title = QLabel("No run loaded: pick one in History.")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verify_label = QLabel("")
        self.verify_label.setWordWrap(True)
        self.verify_button = QPushButton(icon("verify"), "&Verify")  # short labels: 800 px fits them
        self.verify_button.setToolTip("Check the hash chain, the signature and every file the run wrote")
        self.export_button = QPushButton(icon("export"), "E&xport")
        self.export_button.setToolTip("Write an HTML report of this run and open it")
        self.folder_button = QPushButton(icon("folder"), "Open fol&der")
        self.folder_button.setToolTip("Open the run folder (receipts, screenshots, run.json)")
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Receipt actions")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column in ("Target", "Value", "URL"):  # the long ones share the width, elided in the middle
            header.setSectionResizeMode(COLUMNS.index(column), QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(64)  # narrow: the table scrolls sideways rather than cut headers
        self.before = ScreenshotLabel("No before screenshot")
        self.after = ScreenshotLabel("No after screenshot")
        self.before_caption = QLabel("<b>Before</b>")
        self.after_caption = QLabel("<b>After</b>")
        for caption in (self.before_caption, self.after_caption):
            caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._set_enabled(False)
        self._layout()
        self._connect_signals()

    def _layout(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.verify_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.folder_button)
        buttons.addStretch(1)
        shots = QWidget()
        row = QHBoxLayout(shots)
        row.setContentsMargins(0, 0, 0, 0)
        for caption, label in ((self.before_caption, self.before), (self.after_caption, self.after)):
            column = QVBoxLayout()
            column.addWidget(caption)
            column.addWidget(label, 1)
            row.addLayout(column, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(shots)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([240, 360])  # screenshots are wider than tall: no tall empty boxes
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.title)
        box.addLayout(buttons)
        box.addWidget(self.verify_label)
        box.addWidget(self.open_note)
        box.addWidget(split, 1)

    def _connect_signals(self) -> None:
        self.verify_button.clicked.connect(self._on_verify_clicked)
        self.export_button.clicked.connect(self._on_export_clicked)
        self.folder_button.clicked.connect(self._on_folder_clicked)
        self.opener.failed.connect(self.open_note.show_failure)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)

    def _set_enabled(self, enabled: bool) -> None:
        for button in (self.verify_button, self.export_button, self.folder_button):
            button.setEnabled(enabled)

    # --- async work ----------------------------------------------------------------------------

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Runs a coroutine as a task this widget keeps until it ends (cancelled by aclose)."""
        task = asyncio.get_event_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._on_task_done)
        return task

    def _on_task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            self._verdict("bad", f"Could not read this run's receipts: {exc}")

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks)

    async def load(self, run_dir: str | Path) -> None:
        folder, actions, total = await asyncio.to_thread(_load, Path(run_dir))
        self.model.set_records(folder, actions)
        reads = sum(r.kind == "evidence_read" for r in actions)
        read = [plural(reads, "page") + " read"] if reads else []
        counts = ", ".join([plural(len(actions) - reads, "action"), *read, plural(total, "record")])
        self.title.setText(f"<b>Receipts</b> · {counts}")
        self.title.setToolTip(f"run {folder.run_id}\n{folder.root}")
        self._verdict("", "")
        self.open_note.hide()
        self._set_enabled(folder.exists())
        if actions:
            self.table.selectRow(0)
        else:
            self._show_shots(None)
        self.loaded.emit(str(folder.root))

    def _verdict(self, tone: str, text: str) -> None:
        self.verify_label.setProperty("tone", tone)
        restyle(self.verify_label)
        self.verify_label.setText(text)
        self.verify_label.setVisible(bool(text))

    async def verify_run(self) -> RunCheck:
        from receipts.attest import check_run

        folder = self._folder()
        self._verdict("", "Verifying…")
        check = await asyncio.to_thread(check_run, folder.root)
        self._verdict("ok" if check.ok else "bad", describe_check(check))
        self.verify_label.setToolTip(check.summary())
        self.verified.emit(check)
        return check

    async def export(self) -> Path:
        from receipts.report import export_report

        folder = self._folder()
        path = await asyncio.to_thread(export_report, folder.root)
        self._verdict("", f"Report written: {path}")
        self.exported.emit(str(path))
        if not self.open_url(QUrl.fromLocalFile(str(path))):
            self.open_note.show_failure(str(path), "no program on this computer opens it")
        return path

    def _folder(self) -> RunFolder:
        if self.model.folder is None:
            raise LookupError("no run folder loaded")
        return self.model.folder

    # --- slots ---------------------------------------------------------------------------------

    @Slot()
    def _on_verify_clicked(self) -> None:
        self.spawn(self.verify_run())

    @Slot()
    def _on_export_clicked(self) -> None:
        self.spawn(self.export())

    @Slot()
    def _on_folder_clicked(self) -> None:
        if self.model.folder is None:
            return
        root = str(self.model.folder.root)
        self.open_note.hide()
        if not self.open_url(QUrl.fromLocalFile(root)):
            self.open_note.show_failure(root, "no program on this computer opens folders")

    @Slot(QItemSelection, QItemSelection)
    def _on_selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        rows = [i.row() for i in selected.indexes()]
        self._show_shots(self.model.records[rows[0]] if rows else None)

    def _show_shots(self, row: Row | None) -> None:
        from receipts.models import ActionRecord

        record = row if isinstance(row, ActionRecord) else None  # a research read has no screenshots
        before = self.model.shot_path(record.before.shot) if record else None
        after = self.model.shot_path(record.after.shot) if record else None
        self.before.set_image(str(before) if before else None)
        self.after.set_image(str(after) if after else None)
        if record is not None:
            reused = " (= previous after)" if record.before_shot_reused else ""
            self.before_caption.setText(f"<b>Before</b>{reused} · record {record.seq} · {record.before.url}")
            same = " (= before: nothing visible changed)" if record.after_shot_reused else ""
            self.after_caption.setText(f"<b>After</b>{same} · record {record.seq} · {record.after.url}")
        else:
            self.before_caption.setText("<b>Before</b>")
            self.after_caption.setText("<b>After</b>")
