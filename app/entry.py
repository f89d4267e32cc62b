"""The `waypost` command's first Waypost code (the console script and `python -m app` both call
`main`). From its first line SIGINT and SIGTERM are Waypost's: before a command has started either
one is a quiet exit 130 with a sentence (and with --json a document), never a traceback and never a
process killed mid-word (docs/architecture.md, "Faults (every run ends, says why, and can be
resumed)"). This module loads only what that needs."""

from __future__ import annotations

import os
import sys

from app.stopped import default_signals, signal_name, take_signals, tell, wants_json
from common.moments import reached


def wants_window(argv: list[str]) -> bool:
    """`waypost gui ...`, or `waypost` alone where a display exists."""
    if argv:
        return argv[0] == "gui"
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def no_pydantic_plugins() -> None:
    """Waypost uses no pydantic plugin, and looking for one reads every installed package's entry
    points at the first model (about 5 ms of each start); a person's own setting stands."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def main() -> int:
    """Imports the CLI inside the guard: its modules take a moment to load, and a signal there (or
    while the arguments are read) has nothing to stop. Once a command runs, the CLI itself answers
    both signals with a checkpoint and the resume command. The window goes straight to app/gui_boot.py:
    it paints before the CLI's modules (settings, models) would have loaded."""
    take_signals()
    try:
        reached("entry.started")
        if wants_window(sys.argv[1:]):
            from app.gui_boot import main as open_window

            default_signals()  # the window's own loop answers them as it always has
            return open_window(sys.argv[1:])
        no_pydantic_plugins()
        from app.cli_parser import parse_arguments

        args = parse_arguments()  # `--help` and a usage error end here, before the commands load
        from app.cli import run_arguments

        return run_arguments(args)
    except KeyboardInterrupt as exc:
        return tell(signal_name(exc), None, wants_json(sys.argv[1:]), started=False)
