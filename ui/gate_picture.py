"""The gate's picture: the page with a numbered box around each element the step will act on, and the
list beside it saying what happens to each (the values to be typed, secrets masked).

The boxes come from the gate's note (executor/gates/look.py): the resolved elements' bounding boxes in
the page's CSS pixels, drawn here over the picture scaled to fit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from common.secrecy import PLACEHOLDER, REDACTED  # the gate dialog loads after first paint
from ui.screenshot import ScreenshotLabel

if TYPE_CHECKING:
    from executor.gates.preview import GateMark

#: The colour of the boxes and their numbers: seen on light and dark pages alike.
MARK_COLOUR = "#f97316"
MASK = "••••••"
#: Room kept around the marked elements, and the least of the page shown (CSS pixels).
MARGIN = (160.0, 120.0)
MIN_VIEW = (800.0, 500.0)
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
        #: Where the shown picture starts, in CSS pixels, and how many shown pixels a CSS pixel is.
        self._origin = (0.0, 0.0, 1.0)

    def set_marks(self, marks: list[GateMark], viewport_width: int | None) -> None:
        self.marks = list(marks)
        self.viewport_width = viewport_width
        self._rescale()

    def region(self, pixmap: QPixmap) -> QRect:
        """The part of the picture shown: around the marked elements (with room for the page around
        them, at least MIN_VIEW CSS pixels), or all of it when nothing is marked."""
        boxed = [m.box for m in self.marks if m.box is not None]
        whole = pixmap.rect()
        if not boxed:
            return whole
        k = pixmap.width() / (self.viewport_width or pixmap.width())
        left, top = min(b[0] for b in boxed), min(b[1] for b in boxed)
        right, bottom = max(b[0] + b[2] for b in boxed), max(b[1] + b[3] for b in boxed)
        width, height = (
            max(right - left + 2 * MARGIN[0], MIN_VIEW[0]),
            max(bottom - top + 2 * MARGIN[1], MIN_VIEW[1]),
        )
        x = max(0.0, (left + right) / 2 - width / 2)
        y = max(0.0, (top + bottom) / 2 - height / 2)
        return QRect(round(x * k), round(y * k), round(width * k), round(height * k)).intersected(whole)

    def scaled(self, pixmap: QPixmap) -> QPixmap:
        """The marked region, scaled, with the boxes drawn in (the stored picture is never changed)."""
        shown = self.region(pixmap)
        out = super().scaled(pixmap.copy(shown))
        boxed = [m for m in self.marks if m.box is not None]
        if not boxed or out.isNull():
            return out
        k = pixmap.width() / (self.viewport_width or pixmap.width())  # CSS px -> picture px
        scale = out.width() / shown.width() if shown.width() else 1.0
        self._origin = (shown.x() / k, shown.y() / k, k * scale)
        painter = QPainter(out)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(MARK_COLOUR)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(11)
        painter.setFont(font)
        for mark in boxed:
            assert mark.box is not None
            x, y, w, h = self._shown(mark.box)
            painter.setPen(QPen(colour, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(x - 2, y - 2, w + 4, h + 4), 3, 3)
            # the number left of the box, beside it: never over the element's own label
            badge = QRectF(x - 24 if x >= 24 else x + 2, y + h / 2 - 9, 18, 18)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(colour))
            painter.drawEllipse(badge.center(), 9, 9)
            painter.setPen(QPen(QColor("#ffffff")))
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(mark.n))
        painter.end()
        return out

    def _shown(self, box: list[float]) -> tuple[float, float, float, float]:
        """A box in CSS pixels, where it lands in the shown picture."""
        ox, oy, scale = self._origin
        return (box[0] - ox) * scale, (box[1] - oy) * scale, box[2] * scale, box[3] * scale

    def mark_centre(self, n: int) -> QPointF | None:
        """Where mark `n`'s box centre lands in the shown picture, for tests and tooltips."""
        mark = next((m for m in self.marks if m.n == n and m.box is not None), None)
        if mark is None or mark.box is None or self.pixmap().isNull():
            return None
        x, y, w, h = self._shown(mark.box)
        return QPointF(x + w / 2, y + h / 2)
