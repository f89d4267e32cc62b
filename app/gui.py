"""`waypost gui`: the QApplication on a qasync loop, as measured to work (docs/architecture.md,
"Platform notes").

The window paints first; the core (Playwright, the run machinery, the model client) and voice input
are built once it has shown (docs/architecture.md, "Cold start"). A plan or run asked for before
then waits for the core.

main() awaits an asyncio.Event set when the window closes, then lets the run wind down (a gate
waiting for an answer pauses, so the run stays resumable). The app is never quit while
run_until_complete is pending: that ends the loop before the future completes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.secret_keyring import KeyringVault
from ui.controller import RunController
from ui.event_loop import new_event_loop
from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.first_paint import painted
from ui.main_window import MainWindow

if TYPE_CHECKING:
    from executor.service import AgentCore
    from ui.site_record import SiteKeeper
    from ui.voice_controller import VoiceController

#: Modules the core needs, imported on a worker thread while the window is already on screen, so
#: building the core on the loop's thread afterwards takes milliseconds, not a frozen second.
CORE_MODULES = ("executor.service", "executor.act", "executor.research.factory", "executor.replay")


def window_state() -> QSettings:
    """Where the window keeps its geometry between launches: the person's Qt settings (under
    $XDG_CONFIG_HOME, else ~/.config)."""
    return QSettings("Waypost", "window")


def run_gui(
    core: Callable[[], AgentCore],
    settings_values: dict[str, Any],
    on_settings_saved: Callable[[dict[str, Any]], AgentCore],
    examples: Sequence[ExampleTask] = EXAMPLE_TASKS,
    voice: Callable[[], VoiceController] | None = None,
    site: SiteKeeper | None = None,
) -> int:
    """Shows the window, then builds the core with `core()`; runs until the window is closed and
    returns the process exit code."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Waypost")
    app.setQuitOnLastWindowClosed(False)  # the loop ends when main() returns, not before
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(_main(core, settings_values, on_settings_saved, examples, voice, site))
    return 0


async def _main(
    core: Callable[[], AgentCore],
    settings_values: dict[str, Any],
    on_settings_saved: Callable[[dict[str, Any]], AgentCore],
    examples: Sequence[ExampleTask],
    voice: Callable[[], VoiceController] | None = None,
    site: SiteKeeper | None = None,
) -> None:
    closed = asyncio.Event()
    controller = RunController(site=site)
    window = MainWindow(
        controller,
        settings_values,
        examples=examples,
        window_state=window_state(),
        vault=KeyringVault(),
    )
    window.settings_saved.connect(lambda values: controller.replace_core(on_settings_saved(values)))
    window.closed.connect(closed.set)
    window.show()
    await painted(window)
    await asyncio.to_thread(_import_core_modules)
    if not controller.core_is_ready:  # settings saved meanwhile already built a newer one
        controller.set_core(core())
    if voice is not None:
        window.attach_voice(voice())
    window.offer_resume()
    await closed.wait()
    await window.aclose()


def _import_core_modules() -> None:
    import importlib

    for name in CORE_MODULES:
        importlib.import_module(name)
