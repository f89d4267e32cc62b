"""Icons for the window's main actions: one line style, drawn from small SVG paths kept here.

Each icon is a 24x24 path drawn with a 2 px round stroke (or filled, for the few solid shapes) in the
colour of the theme's text, so it reads in light and dark alike (ui/theme.py). Rendered through Qt's
own SVG image reader when first drawn, once per size.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QByteArray, QRect, QSize, Qt
from PySide6.QtGui import QIcon, QIconEngine, QPainter, QPixmap
from PySide6.QtWidgets import QApplication

#: name -> (path data, filled?)
PATHS: dict[str, tuple[str, bool]] = {
    "run": ("M7 4.5v15l12.5-7.5z", True),
    "plan": ("M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01", False),
    "pause": ("M7 4.5h3.5v15H7zM13.5 4.5H17v15h-3.5z", True),
    "stop": ("M6 6h12v12H6z", True),
    "approve": ("M4.5 12.5l5 5L19.5 7", False),
    "deny": ("M6 6l12 12M18 6L6 18", False),
    "settings": ("M4 6h9M17 6h3M15 4v4M4 12h3M11 12h9M9 10v4M4 18h11M19 18h1M17 16v4", False),
    "verify": ("M12 3l7.5 3v6c0 4.6-3.2 8-7.5 9-4.3-1-7.5-4.4-7.5-9V6zM8.5 12l2.5 2.5 4.5-4.5", False),
    "export": ("M12 15V3M7.5 7.5L12 3l4.5 4.5M5 14v6h14v-6", False),
    "folder": ("M3 6.5h6l2 2h10V19H3z", False),
    "replay": ("M4.5 12a7.5 7.5 0 1 0 2.2-5.3M4.5 4v4h4", False),
    "refresh": ("M19.5 12a7.5 7.5 0 1 1-2.2-5.3M19.5 4v4h-4", False),
    "receipts": ("M6 3h9l4 4v14H6zM15 3v4h4M9 12h7M9 16h7", False),
    "copy": ("M9 9h11v11H9zM5 15H4V4h11v1", False),
    "examples": (
        "M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z",
        False,
    ),
    "attach": (
        "M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.3 3.3 0 0 1 4.7 4.7L9.7 17.2a1.7 1.7 0 0 1-2.4-2.4L15 7",
        False,
    ),
    "secrets": ("M6 11h12v10H6zM9 11V7.5a3 3 0 0 1 6 0V11", False),
    "resume": ("M7 4.5v15l12.5-7.5z", True),
}


def _svg(path: str, filled: bool, colour: str) -> bytes:
    paint = (
        f'fill="{colour}" stroke="none"'
        if filled
        else (
            f'fill="none" stroke="{colour}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"'
        )
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 24 24">'
        f'<path d="{path}" {paint}/></svg>'
    ).encode()


class _SvgIcon(QIconEngine):
    """Renders its SVG when first drawn, at the size asked: an icon on a hidden tab or in a closed menu
    costs nothing before the window's first paint."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data = data
        self._pixmaps: dict[tuple[int, int], QPixmap] = {}

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        key = (size.width(), size.height())
        if key not in self._pixmaps:
            drawn = QPixmap()
            drawn.loadFromData(QByteArray(self._data), "SVG")
            self._pixmaps[key] = drawn.scaled(
                size, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        picture = self._pixmaps[key]
        if mode is QIcon.Mode.Disabled:
            faded = QPixmap(picture.size())
            faded.fill(Qt.GlobalColor.transparent)
            painter = QPainter(faded)
            painter.setOpacity(0.4)
            painter.drawPixmap(0, 0, picture)
            painter.end()
            return faded
        return picture

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        painter.drawPixmap(rect, self.pixmap(rect.size(), mode, state))

    def clone(self) -> QIconEngine:
        return _SvgIcon(self._data)


@cache
def _icon(name: str, colour: str) -> QIcon:
    path, filled = PATHS[name]
    return QIcon(_SvgIcon(_svg(path, filled, colour)))


def icon(name: str, colour: str | None = None) -> QIcon:
    """The icon `name` in `colour` (default: the theme's text colour)."""
    if colour is None:
        app = QApplication.instance()
        colour = app.palette().windowText().color().name() if isinstance(app, QApplication) else "#1f2937"
    return _icon(name, colour)
