"""The table of a run folder: one row per ActionRecord and per research read of receipts.jsonl."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from receipts.errors import RunFolderError
from receipts.layout import RunFolder
from receipts.models import ActionRecord, EvidenceReadRecord, FileRef
from receipts.report import describe_target

COLUMNS = ("Time", "Action", "Target", "Value", "Outcome", "URL", "DOM hash")
_OK = {"ok", "success"}
_Index = QModelIndex | QPersistentModelIndex


def value_text(value: str | list[str] | None) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else value


#: The rows of the table: what the run did on pages, and what its research read.
Row = ActionRecord | EvidenceReadRecord


def row_cells(record: Row) -> tuple[str, ...]:
    """The table's text for one record; the value is the stored (already redacted) one."""
    if isinstance(record, EvidenceReadRecord):
        return (
            record.time.astimezone().strftime("%H:%M:%S"),
            "read",
            record.title,
            record.snippet[:120],
            "ok",
            record.url,
            (record.content_sha256 or "")[:10],
        )
    state = record.after if record.after.url else record.before
    dom = record.after.dom_hash or record.before.dom_hash or ""
    return (
        record.time.astimezone().strftime("%H:%M:%S"),
        str(record.action.get("kind", "?")),
        describe_target(record.target_resolved or record.target_requested),
        value_text(record.value),
        record.outcome.status,
        state.url,
        dom[:10],
    )


class ReceiptsTableModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.folder: RunFolder | None = None
        self.records: list[Row] = []

    def set_records(self, folder: RunFolder | None, records: list[Row]) -> None:
        self.beginResetModel()
        self.folder = folder
        self.records = records
        self.endResetModel()

    def shot_path(self, ref: FileRef | None) -> Path | None:
        if ref is None or self.folder is None:
            return None
        try:
            return self.folder.resolve(ref.path)
        except RunFolderError:
            return None  # a ref outside the folder is never opened

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's own default
        return 0 if parent.isValid() else len(self.records)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation is Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        record = self.records[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return row_cells(record)[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            if isinstance(record, EvidenceReadRecord):
                return f"research read: {record.url}\n{record.snippet}"
            column = COLUMNS[index.column()]
            if column == "DOM hash":
                return f"after: {record.after.dom_hash}\nbefore: {record.before.dom_hash}"
            if column == "Outcome":
                return record.outcome.message or record.outcome.status
            if column == "URL":
                return f"before: {record.before.url}\nafter: {record.after.url}"
            return row_cells(record)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and COLUMNS[index.column()] == "Outcome":
            ok = isinstance(record, EvidenceReadRecord) or record.outcome.status.lower() in _OK
            return QBrush(QColor("#15803d" if ok else "#b91c1c"))
        return None
