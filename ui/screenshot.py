"""A page picture that fits its box: scaled with its aspect ratio kept as panels and dialogs resize.

The stored picture is read once (a later change of the file never shows); `scaled` is the hook a
subclass uses to draw over the shown picture (ui/gate_picture.py boxes the elements a gate names).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ScreenshotLabel(QLabel):
    """Shows a pixmap scaled to fit, keeping its aspect ratio as the splitter moves."""

    def __init__(self, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(placeholder, parent)
        self._pixmap: QPixmap | None = None
        self.setObjectName("screenshot")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setMinimumSize(160, 100)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def set_image(self, path: str | None) -> bool:
        pixmap = QPixmap(path) if path else QPixmap()
        if pixmap.isNull():
            self._pixmap = None
            self.setPixmap(QPixmap())
            return False
        self._pixmap = pixmap
        self._rescale()
        return True

    @property
    def has_image(self) -> bool:
        return self._pixmap is not None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._rescale()

    def scaled(self, pixmap: QPixmap) -> QPixmap:
        return pixmap.scaled(
            self.size(), Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )

    def _rescale(self) -> None:
        if self._pixmap is not None:
            self.setPixmap(self.scaled(self._pixmap))
