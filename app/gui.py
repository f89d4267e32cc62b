"""`waypost gui`: the QApplication on a qasync loop, as measured to work (docs/architecture.md,
"Platform notes").

The window paints first, with nothing of the core imported (docs/architecture.md, "Cold start").
Then the session is prepared (`Session`: the settings in effect, the bundled demo site and its
example tasks, how to build the core and save settings, voice input), its modules imported on a
worker thread; a plan or run asked for meanwhile waits for the core.

main() awaits an asyncio.Event set when the window closes, then lets the run wind down (a gate
waiting for an answer pauses, so the run stays resumable). The app is never quit while
run_until_complete is pending: that ends the loop before the future completes.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from ui.controller import RunController
from ui.event_loop import new_event_loop
from ui.examples import EXAMPLE_TASKS, ExampleTask
from ui.first_paint import painted
from ui.main_window import MainWindow
from ui.theme import apply_theme

if TYPE_CHECKING:
    from executor.run.service import AgentCore
    from ui.kept_secrets import KeptSecrets
    from ui.site_record import SiteKeeper
    from ui.voice_controller import VoiceController

#: Modules the core needs, imported on a worker thread while the window is already on screen, so
#: building the core on the loop's thread afterwards takes milliseconds, not a frozen second.
CORE_MODULES = ("executor.run.service", "executor.act", "executor.research.factory", "executor.run.replay")


@dataclass
class Session:
    """What the window gets once it has painted."""

    #: The settings in effect, as plain values (the window's Settings dialog edits them).
    values: dict[str, Any]
    #: Builds the core for these settings.
    build_core: Callable[[], AgentCore]
    #: Saves edited settings; gives the core and the values now in effect (an empty field is the
    #: same default as at launch).
    save: Callable[[dict[str, Any]], tuple[AgentCore, dict[str, Any]]]
    examples: Sequence[ExampleTask] = EXAMPLE_TASKS
    voice: Callable[[], VoiceController] | None = None
    site: SiteKeeper | None = None
    kept_secrets: KeptSecrets | None = None
    #: Called when the window has closed and the run wound down (stops the demo site).
    close: Callable[[], None] = field(default=lambda: None)


class StartupFailed(Exception):
    """The session could not be prepared (bad settings, an unusable runs folder): the sentence says
    why and where to fix it; the window shows it and the process ends with exit code 2."""


def window_state() -> QSettings:
    """Where the window keeps its geometry between launches: the person's Qt settings (under
    $XDG_CONFIG_HOME, else ~/.config)."""
    return QSettings("Waypost", "window")


def run_window(prepare: Callable[[], Awaitable[Session]]) -> int:
    """Shows the window, paints it, then `prepare`s the session; runs until the window is closed and
    returns the process exit code (2 when the session could not be prepared)."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    app.setApplicationName("Waypost")
    app.setQuitOnLastWindowClosed(False)  # the loop ends when main() returns, not before
    apply_theme(app)
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)
    with loop:
        code: int = loop.run_until_complete(_main(prepare))
    return code


def run_gui(
    core: Callable[[], AgentCore],
    settings_values: dict[str, Any],
    on_settings_saved: Callable[[dict[str, Any]], AgentCore],
    examples: Sequence[ExampleTask] = EXAMPLE_TASKS,
    voice: Callable[[], VoiceController] | None = None,
    site: SiteKeeper | None = None,
) -> int:
    """run_window with a session made of these parts (the saved values are the values in effect)."""

    async def prepare() -> Session:
        return Session(
            values=settings_values,
            build_core=core,
            save=lambda values: (on_settings_saved(values), values),
            examples=examples,
            voice=voice,
            site=site,
        )

    return run_window(prepare)


async def _main(prepare: Callable[[], Awaitable[Session]]) -> int:
    closed = asyncio.Event()
    controller = RunController()
    window = MainWindow(controller, {}, examples=(), window_state=window_state())
    window.closed.connect(closed.set)
    early: list[dict[str, Any]] = []  # a Save before the session is ready is applied once it is
    window.settings_saved.connect(early.append)
    window.show()
    await painted(window)
    window.finish_tabs()
    try:
        session = await prepare()
    except StartupFailed as exc:
        from common.secrecy import scrub  # after the first paint: the failure's sentence, scrubbed

        print(scrub(f"waypost: {exc}"), file=sys.stderr)
        window.task_panel.show_notice(f"Waypost could not start: {exc}")
        window.task_panel.set_busy(True)
        window.statusBar().showMessage("Could not start; see the note under the task box")
        await closed.wait()
        return 2
    window.settings_saved.disconnect(early.append)
    try:
        _attach(window, controller, session, early)
        await asyncio.to_thread(_import_core_modules)
        if not controller.core_is_ready:  # settings saved meanwhile already built a newer one
            controller.set_core(session.build_core())
        if session.voice is not None:
            window.attach_voice(session.voice())
        window.offer_resume()
        await closed.wait()
        await window.aclose()
    finally:
        session.close()
    return 0


def _attach(
    window: MainWindow, controller: RunController, session: Session, early: list[dict[str, Any]]
) -> None:
    """The session's parts join the window that is already on screen; `early` Saves apply now."""
    controller.site = session.site
    window.resume_flow.kept_secrets = session.kept_secrets
    window.apply_settings(session.values)
    window.set_examples(session.examples)

    def saved(values: dict[str, Any]) -> None:
        core, in_effect = session.save(values)
        window.apply_settings(in_effect)
        controller.replace_core(core)

    window.settings_saved.connect(saved)
    for values in early:
        saved(values)


def _import_core_modules() -> None:
    import importlib

    for name in CORE_MODULES:
        importlib.import_module(name)
