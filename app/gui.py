"""`waypost gui`: the QApplication on a qasync loop, as measured to work (docs/architecture.md,
"Platform notes").

main() awaits an asyncio.Event set when the window closes, then lets the run wind down (a gate
waiting for an answer pauses, so the run stays resumable). The app is never quit while
run_until_complete is pending: that ends the loop before the future completes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from executor.service import AgentCore
from ui.controller import RunController
from ui.event_loop import new_event_loop
from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.main_window import MainWindow
from ui.voice_controller import VoiceController


def run_gui(
    core: AgentCore,
    settings_values: dict[str, Any],
    on_settings_saved: Callable[[dict[str, Any]], AgentCore],
    examples: Sequence[ExampleTask] = EXAMPLE_TASKS,
    voice: Callable[[], VoiceController] | None = None,
) -> int:
    """Shows the window and runs until it is closed; returns the process exit code."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Waypost")
    app.setQuitOnLastWindowClosed(False)  # the loop ends when main() returns, not before
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(_main(core, settings_values, on_settings_saved, examples, voice))
    return 0


async def _main(
    core: AgentCore,
    settings_values: dict[str, Any],
    on_settings_saved: Callable[[dict[str, Any]], AgentCore],
    examples: Sequence[ExampleTask],
    voice: Callable[[], VoiceController] | None = None,
) -> None:
    closed = asyncio.Event()
    controller = RunController(core)
    window = MainWindow(
        controller,
        settings_values,
        examples=examples,
        window_state=QSettings("Waypost", "window"),
        voice=voice() if voice else None,
    )
    window.settings_saved.connect(lambda values: controller.replace_core(on_settings_saved(values)))
    window.closed.connect(closed.set)
    window.show()
    window.offer_resume()
    await closed.wait()
    await window.aclose()
