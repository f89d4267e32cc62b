"""The gate's picture: the page with a numbered box around each element the step will act on, and the
list beside it saying what happens to each (the values to be typed, secrets masked).

The boxes come from the gate's note (executor/gate_look.py): the resolved elements' bounding boxes in
the page's CSS pixels, drawn here over the picture scaled to fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from common.secrecy import PLACEHOLDER, REDACTED  # the gate dialog loads after first paint
from ui.screenshot import ScreenshotLabel

if TYPE_CHECKING:
    from executor.gate_preview import GateMark

#: The colour of the boxes and their numbers: seen on light and dark pages alike.
MARK_COLOUR = "#f97316"
MASK = "••••••"
_VERBS = {
    "fill": "Type into",
    "select": "Choose in",
    "check": "Tick",
    "click": "Click",
    "press": "Press a key in",
    "upload": "Attach a file to",
    "download": "Download from",
}


def shown_value(value: str | None) -> str:
    """A value as the person sees it: a secret (its placeholder, or already redacted) is masked."""
    if value is None:
        return ""
    if REDACTED in value:
        return f"{MASK} (hidden)"
    return PLACEHOLDER.sub(lambda m: f"{MASK} (secret “{m.group(1)}”)", value)


def mark_line(mark: GateMark) -> str:
    """`1. Type into “Email”: alice@example.com`; says when the element is not on this page."""
    verb = _VERBS.get(mark.kind, mark.kind.capitalize())
    if mark.kind == "check":
        verb = "Untick" if mark.value == "untick" else "Tick"
    line = f"{mark.n}. {verb} “{mark.label}”"
    if mark.value and mark.kind not in ("check",):
        line += f": {shown_value(mark.value)}"
    if mark.box is None:
        line += {
            "ambiguous": " (several elements match: it will ask or stop)",
            "hidden": " (not visible on the page now)",
        }.get(mark.found, " (not on this page yet: after an earlier action)")
    return line


class MarkedScreenshot(ScreenshotLabel):
    """A ScreenshotLabel that draws the marks' numbered boxes over the scaled picture."""

    def __init__(self, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(placeholder, parent)
        self.marks: list[GateMark] = []
        self.viewport_width: int | None = None

    def set_marks(self, marks: list[GateMark], viewport_width: int | None) -> None:
        self.marks = list(marks)
        self.viewport_width = viewport_width
        self._rescale()

    def scaled(self, pixmap: QPixmap) -> QPixmap:
        """The scaled picture with the boxes drawn in (the stored picture itself is never changed)."""
        out = super().scaled(pixmap)
        boxed = [m for m in self.marks if m.box is not None]
        if not boxed or out.isNull():
            return out
        css_width = self.viewport_width or pixmap.width()
        scale = out.width() / css_width if css_width else 1.0
        painter = QPainter(out)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(MARK_COLOUR)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(11)
        painter.setFont(font)
        for mark in boxed:
            assert mark.box is not None
            x, y, w, h = (v * scale for v in mark.box)
            painter.setPen(QPen(colour, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(x - 2, y - 2, w + 4, h + 4), 3, 3)
            badge = QRectF(x - 9, y - 9, 18, 18)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colour))
            painter.drawEllipse(badge.center(), 9, 9)
            painter.setPen(QPen(QColor("#ffffff")))
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(mark.n))
        painter.end()
        return out

    def mark_centre(self, n: int) -> QPointF | None:
        """Where mark `n`'s box centre lands in the shown (scaled) picture, for tests and tooltips."""
        shown = self.pixmap()
        mark = next((m for m in self.marks if m.n == n and m.box is not None), None)
        if mark is None or mark.box is None or shown.isNull():
            return None
        css_width = self.viewport_width or (self._pixmap.width() if self._pixmap else shown.width())
        scale = shown.width() / css_width
        x, y, w, h = mark.box
        return QPointF((x + w / 2) * scale, (y + h / 2) * scale)
