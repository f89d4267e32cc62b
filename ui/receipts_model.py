"""The table of a run folder: one row per ActionRecord and per research read of receipts.jsonl.

Visible cells are in people's words (what was done, to which element by its name, how it went); the
record's codes are in the tooltips. The receipts types load with the first folder opened, after the
window has painted (docs/architecture.md, "Cold start").
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

from ui.theme import status_colour

if TYPE_CHECKING:
    from receipts.layout import RunFolder
    from receipts.models import ActionRecord, EvidenceReadRecord, FileRef

    #: The rows of the table: what the run did on pages, and what its research read.
    Row = ActionRecord | EvidenceReadRecord

COLUMNS = ("Time", "Action", "Target", "Value", "Outcome", "URL", "DOM hash")
_OK = {"ok", "success"}
_Index = QModelIndex | QPersistentModelIndex
ACTION_WORDS = {
    "navigate": "Open", "click": "Click", "fill": "Type", "select": "Choose", "check": "Tick",
    "press": "Press key", "scroll": "Scroll", "wait": "Wait", "extract": "Read text",
    "download": "Download", "upload": "Attach", "done": "Finish", "read": "Read page",
}  # fmt: skip
OUTCOME_WORDS = {
    "ok": "Done", "success": "Done", "not_found": "Not found", "ambiguous": "Several matched",
    "timeout": "Timed out", "blocked": "Blocked", "error": "Error",
}  # fmt: skip


def value_text(value: str | list[str] | None) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else value


def target_words(record: ActionRecord) -> str:
    """The element by its name on the page (“Email” (textbox)); by how the plan named it otherwise;
    for an Open, the page it opened."""
    from receipts.report import describe_target

    if record.action.get("kind") == "navigate":
        return str(record.action.get("url") or "")
    resolved = record.target_resolved or {}
    name, role = resolved.get("name"), resolved.get("role")
    if name:
        return f"“{name}”" + (f" ({role})" if role else "")
    requested = record.target_requested or {}
    if "index" in requested and len(requested) == 1:
        return str(resolved.get("description") or "an element of the page as the run saw it")
    return describe_target(requested or resolved)


def row_cells(record: Row) -> tuple[str, ...]:
    """The table's text for one record; the value is the stored (already redacted) one."""
    from receipts.models import EvidenceReadRecord

    if isinstance(record, EvidenceReadRecord):
        return (
            record.time.astimezone().strftime("%H:%M:%S"),
            ACTION_WORDS["read"],
            record.title,
            record.snippet[:120],
            "Done",
            record.url,
            (record.content_sha256 or "")[:10],
        )
    state = record.after if record.after.url else record.before
    dom = record.after.dom_hash or record.before.dom_hash or ""
    kind = str(record.action.get("kind", "?"))
    return (
        record.time.astimezone().strftime("%H:%M:%S"),
        ACTION_WORDS.get(kind, kind.capitalize()),
        target_words(record),
        value_text(record.value),
        OUTCOME_WORDS.get(record.outcome.status.lower(), record.outcome.status),
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
        from receipts.errors import RunFolderError

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
        from receipts.models import EvidenceReadRecord

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
                return f"{record.outcome.status}: {record.outcome.message}".rstrip(": ")
            if column == "URL":
                return f"before: {record.before.url}\nafter: {record.after.url}"
            if column == "Action":
                return f"{record.action.get('kind')} (record {record.seq})"
            if column == "Target":
                asked, found = record.target_requested, record.target_resolved
                return f"asked: {asked}\nresolved: {found}"
            return row_cells(record)[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and COLUMNS[index.column()] == "Outcome":
            ok = isinstance(record, EvidenceReadRecord) or record.outcome.status.lower() in _OK
            return QBrush(QColor(status_colour("ok" if ok else "bad")))
        return None
