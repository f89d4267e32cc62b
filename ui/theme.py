"""The window's one look: a palette and a style sheet, light and dark, applied to the whole app.

Widgets do not carry colours of their own: they say what they are with a property (`role` on labels
and buttons: heading, subheading, muted, danger, primary; `kind` on the notice under the task box:
error, question, info; `tone` on status text: ok, warn, bad, info, muted) and this sheet gives each its
colour, size and spacing. Dark follows the desktop's colour scheme (Qt 6.5's style hints), or
WAYPOST_THEME=light|dark.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget


@dataclass(frozen=True)
class Tokens:
    window: str
    surface: str
    alt_row: str
    border: str
    text: str
    muted: str
    accent: str
    accent_text: str
    ok: str
    warn: str
    bad: str
    info: str
    error_bg: str
    question_bg: str
    info_bg: str
    selection: str


LIGHT = Tokens(
    window="#f4f5f7", surface="#ffffff", alt_row="#f8f9fb", border="#d5d9e0", text="#1d2330",
    muted="#5a6374", accent="#2457d6", accent_text="#ffffff", ok="#15803d", warn="#b45309",
    bad="#b91c1c", info="#1d4ed8", error_bg="#fdecec", question_bg="#e9f0fd", info_bg="#e8f5ec",
    selection="#d6e2fb",
)  # fmt: skip
DARK = Tokens(
    window="#17191e", surface="#20232a", alt_row="#252830", border="#3a3f4b", text="#e5e7eb",
    muted="#9aa2b1", accent="#5b8def", accent_text="#0b1020", ok="#4ade80", warn="#fbbf24",
    bad="#f87171", info="#7aa7ff", error_bg="#3b1f22", question_bg="#1e2a44", info_bg="#1c3326",
    selection="#2c3b5c",
)  # fmt: skip

_current: Tokens = LIGHT


def is_dark() -> bool:
    chosen = os.environ.get("WAYPOST_THEME", "").lower()
    if chosen in ("light", "dark"):
        return chosen == "dark"
    hints = QGuiApplication.styleHints()
    return hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark


def tokens() -> Tokens:
    return _current


def status_colour(tone: str) -> str:
    """The colour of a status tone (ok, warn, bad, info, muted) in the theme in use."""
    t = _current
    return {"ok": t.ok, "warn": t.warn, "bad": t.bad, "info": t.info}.get(tone, t.muted)


def palette(t: Tokens) -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: t.window,
        QPalette.ColorRole.WindowText: t.text,
        QPalette.ColorRole.Base: t.surface,
        QPalette.ColorRole.AlternateBase: t.alt_row,
        QPalette.ColorRole.Text: t.text,
        QPalette.ColorRole.Button: t.surface,
        QPalette.ColorRole.ButtonText: t.text,
        QPalette.ColorRole.Highlight: t.selection,
        QPalette.ColorRole.HighlightedText: t.text,
        QPalette.ColorRole.ToolTipBase: t.surface,
        QPalette.ColorRole.ToolTipText: t.text,
        QPalette.ColorRole.PlaceholderText: t.muted,
        QPalette.ColorRole.Link: t.accent,
        QPalette.ColorRole.Mid: t.border,
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(t.muted))
    return p


def style_sheet(t: Tokens) -> str:
    """Spacing 4/8/12 px, radius 6 px; type scale 12 px muted, 13 px body, 15 px subheading, 18 px
    heading."""
    return f"""
QWidget {{ font-size: 13px; }}
QMainWindow, QDialog {{ background: {t.window}; }}
QToolTip {{ background: {t.surface}; color: {t.text}; border: 1px solid {t.border}; padding: 4px; }}
QLabel[role="heading"] {{ font-size: 18px; font-weight: 600; }}
QLabel[role="subheading"] {{ font-size: 15px; font-weight: 600; }}
QLabel[role="muted"] {{ color: {t.muted}; font-size: 12px; }}
QLabel[role="danger"] {{ color: {t.bad}; font-weight: 600; }}
QLabel[tone="ok"] {{ color: {t.ok}; font-weight: 600; }}
QLabel[tone="bad"] {{ color: {t.bad}; font-weight: 600; }}
QLabel[tone="warn"] {{ color: {t.warn}; font-weight: 600; }}
QLabel#notice {{ border-radius: 6px; padding: 6px 8px; }}
QLabel#notice[kind="error"] {{ color: {t.bad}; background: {t.error_bg}; }}
QLabel#notice[kind="question"] {{ color: {t.info}; background: {t.question_bg}; }}
QLabel#notice[kind="info"] {{ color: {t.ok}; background: {t.info_bg}; }}
QLabel#screenshot {{ background: {t.alt_row}; color: {t.muted}; border: 1px solid {t.border};
    border-radius: 6px; }}
QPushButton, QToolButton {{ background: {t.surface}; color: {t.text}; border: 1px solid {t.border};
    border-radius: 6px; padding: 5px 12px; min-height: 18px; }}
QToolButton {{ padding: 5px 8px; }}
QToolButton::menu-indicator {{ subcontrol-position: right center; right: 4px; }}
QToolButton[popupMode="2"] {{ padding-right: 18px; }}
QPushButton:hover, QToolButton:hover {{ border-color: {t.accent}; }}
QPushButton:disabled, QToolButton:disabled {{ color: {t.muted}; background: {t.window}; }}
QPushButton[role="primary"] {{ background: {t.accent}; color: {t.accent_text}; border-color: {t.accent};
    font-weight: 600; }}
QPushButton[role="primary"]:disabled {{ background: {t.border}; color: {t.muted}; border-color: {t.border}; }}
QPushButton:default {{ border: 2px solid {t.accent}; }}
QPlainTextEdit, QLineEdit, QTextBrowser {{ background: {t.surface};
    color: {t.text}; border: 1px solid {t.border}; border-radius: 6px; padding: 4px 6px; }}
QPlainTextEdit:focus, QLineEdit:focus {{ border-color: {t.accent}; }}
QTableView, QTableWidget, QListWidget {{ background: {t.surface}; alternate-background-color: {t.alt_row};
    border: 1px solid {t.border}; border-radius: 6px; selection-background-color: {t.selection};
    selection-color: {t.text}; }}
QHeaderView::section {{ background: {t.window}; color: {t.muted}; border: none;
    border-bottom: 1px solid {t.border}; padding: 4px 6px; font-weight: 600; }}
QTabWidget::pane {{ border: 1px solid {t.border}; border-radius: 6px; top: -1px; background: {t.window}; }}
QTabBar::tab {{ background: transparent; color: {t.muted}; padding: 6px 10px; border: none;
    border-bottom: 2px solid transparent; }}
QTabBar::tab:selected {{ color: {t.text}; border-bottom: 2px solid {t.accent}; font-weight: 600; }}
QProgressBar {{ background: {t.surface}; border: 1px solid {t.border}; border-radius: 6px;
    text-align: center; color: {t.text}; min-height: 14px; }}
QProgressBar::chunk {{ background: {t.accent}; border-radius: 5px; }}
QGroupBox {{ border: 1px solid {t.border}; border-radius: 6px; margin-top: 14px; padding: 8px; }}
QGroupBox::title {{ subcontrol-origin: margin; left: 8px; padding: 0 4px; color: {t.muted}; }}
QSplitter::handle {{ background: transparent; }}
QStatusBar {{ color: {t.muted}; }}
QMenuBar {{ background: {t.window}; }}
"""


def apply_theme(app: QApplication) -> Tokens:
    """Fusion, the palette and the sheet for the whole app; returns the tokens in use."""
    global _current
    _current = DARK if is_dark() else LIGHT
    app.setStyle("Fusion")
    app.setPalette(palette(_current))
    app.setStyleSheet(style_sheet(_current))
    return _current


def restyle(widget: QWidget) -> None:
    """After a property the sheet reads changed (a notice's kind, a label's tone)."""
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)
    widget.update()
