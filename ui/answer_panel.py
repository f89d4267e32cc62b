"""Answer panel: the run's final answer with numbered citations that open their source, and evidence.

Page text is untrusted data: it is escaped, and only http(s) URLs become links.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ui.open_outside import Opener, OpenNote, OpenUrl
from ui.words import outcome_words

if TYPE_CHECKING:  # the core's types: the window paints before they load (docs/architecture.md)
    from executor.journal.events import EvidenceAdded
    from executor.models import Citation, EvidenceItem, RunBundleV1

_MARKER = re.compile(r"\[(\d{1,3})\]")
EVIDENCE_COLUMNS = ("Title", "Source", "Snippet", "Confidence")


def is_web_url(url: str) -> bool:
    return url.lower().startswith(("http://", "https://"))


def answer_html(answer: str, citations: list[Citation]) -> str:
    """The answer escaped, line breaks kept, each [n] a link to citation n's source."""
    urls = {c.number: c.source_url for c in citations if is_web_url(c.source_url)}

    def link(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number not in urls:
            return match.group(0)
        return f'<a href="{escape(urls[number], quote=True)}">[{number}]</a>'

    body = _MARKER.sub(link, escape(answer, quote=False))
    return f"<div style='white-space: pre-wrap'>{body}</div>"


class AnswerPanel(QWidget):
    #: A citation or evidence source was opened (its URL).
    source_opened = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.opener = Opener(self)
        #: How a URL is opened; tests swap it to avoid launching a browser.
        self.open_url: OpenUrl = self.opener.open
        #: Says what happened when nothing could open a source (its address, Copy).
        self.open_note = OpenNote()
        self.opener.failed.connect(self.open_note.show_failure)
        self.status_label = QLabel("No answer yet.")
        self.status_label.setWordWrap(True)
        self.answer = QTextBrowser()
        self.answer.setOpenLinks(False)
        self.answer.setAccessibleName("Final answer")
        self.citations = QListWidget()
        self.citations.setAccessibleName("Citations")
        self.citations.setToolTip("Enter or double-click opens the source")
        self.evidence = QTableWidget(0, len(EVIDENCE_COLUMNS))
        self.evidence.setHorizontalHeaderLabels(EVIDENCE_COLUMNS)
        self.evidence.setAccessibleName("Evidence")
        self.evidence.verticalHeader().setVisible(False)
        self.evidence.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.evidence.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.evidence.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.answer)
        self.citations_box = self._titled("Citations", self.citations)
        self.evidence_box = self._titled("Evidence", self.evidence)
        split.addWidget(self.citations_box)
        split.addWidget(self.evidence_box)
        split.setSizes([300, 120, 160])
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.status_label)
        box.addWidget(self.open_note)
        box.addWidget(split, 1)
        self.answer.anchorClicked.connect(self._on_anchor_clicked)
        self.citations.itemActivated.connect(self._on_citation_activated)
        self.evidence.cellActivated.connect(self._on_evidence_activated)

    @staticmethod
    def _titled(title: str, widget: QWidget) -> QWidget:
        holder = QWidget()
        box = QVBoxLayout(holder)
        box.setContentsMargins(0, 4, 0, 0)
        box.addWidget(QLabel(f"<b>{title}</b>"))
        box.addWidget(widget, 1)
        return holder

    def clear(self) -> None:
        self.status_label.setText("Running…")
        self.open_note.hide()
        self.answer.clear()
        self.citations.clear()
        self.evidence.setRowCount(0)
        self._show_sources()

    def show_bundle(self, bundle: RunBundleV1, declined_step: str | None = None) -> None:
        """People's words on the label; the status code and reason stay in its tooltip."""
        self.status_label.setText(f"<b>{escape(outcome_words(bundle, declined_step))}</b>")
        self.status_label.setToolTip(f"{bundle.run_status.value}: {bundle.reason} · run {bundle.run_id}")
        question = bundle.pending_user_input.question if bundle.pending_user_input else None
        text = bundle.final_answer or question or "(no answer text)"
        self.answer.setHtml(answer_html(text, bundle.citations))
        self.citations.clear()
        for citation in bundle.citations:
            item = QListWidgetItem(f"[{citation.number}] {citation.title or citation.source_url}")
            item.setData(Qt.ItemDataRole.UserRole, citation.source_url)
            item.setToolTip(f"{citation.source_url}\n{citation.snippet}")
            self.citations.addItem(item)
        self.evidence.setRowCount(0)
        for evidence in bundle.evidence:
            self._add_evidence(evidence)
        self._show_sources()

    def _show_sources(self) -> None:
        """Citations and evidence take room only when there are some (an act-only run has none)."""
        self.citations_box.setVisible(self.citations.count() > 0)
        self.evidence_box.setVisible(self.evidence.rowCount() > 0)

    @property
    def citation_texts(self) -> list[str]:
        return [self.citations.item(i).text() for i in range(self.citations.count())]

    @Slot(object)
    def on_evidence_added(self, event: EvidenceAdded) -> None:
        self._add_evidence(event.item)

    def _add_evidence(self, item: EvidenceItem) -> None:
        self.evidence_box.show()
        row = self.evidence.rowCount()
        self.evidence.insertRow(row)
        cells = (item.title, item.source_url, item.snippet, f"{item.confidence:.2f}")
        for column, text in enumerate(cells):
            cell = QTableWidgetItem(text)
            cell.setToolTip(text)
            self.evidence.setItem(row, column, cell)

    def open_source(self, url: str) -> None:
        if is_web_url(url):
            self.open_note.hide()
            if not self.open_url(QUrl(url)):
                self.open_note.show_failure(url, "no browser on this computer opens it")
            self.source_opened.emit(url)

    @Slot(QUrl)
    def _on_anchor_clicked(self, url: QUrl) -> None:
        self.open_source(url.toString())

    @Slot(QListWidgetItem)
    def _on_citation_activated(self, item: QListWidgetItem) -> None:
        self.open_source(str(item.data(Qt.ItemDataRole.UserRole)))

    @Slot(int, int)
    def _on_evidence_activated(self, row: int, _column: int) -> None:
        cell = self.evidence.item(row, 1)
        if cell is not None:
            self.open_source(cell.text())
