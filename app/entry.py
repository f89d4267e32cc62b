"""The `waypost` command's first Waypost code (the console script and `python -m app` both call
`main`): a Ctrl-C from here until a command has started is a quiet exit 130, never a traceback
(docs/architecture.md, "Faults (every run ends, says why, and can be resumed)")."""

from __future__ import annotations

import os
import sys

#: What a person sees after a Ctrl-C while the CLI's modules load: nothing started, nothing to resume.
STOPPED_BEFORE_START = "waypost: stopped before start; nothing to resume"


def wants_window(argv: list[str]) -> bool:
    """`waypost gui ...`, or `waypost` alone where a display exists."""
    if argv:
        return argv[0] == "gui"
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main() -> int:
    """Imports the CLI inside the guard: its modules take a moment to load, and a Ctrl-C there (or
    while the arguments are read) has nothing to stop. Once a command runs, the CLI itself answers
    Ctrl-C with a checkpoint and the resume command. The window goes straight to app/gui_boot.py:
    it paints before the CLI's modules (settings, models) would have loaded."""
    try:
        if wants_window(sys.argv[1:]):
            from app.gui_boot import main as open_window

            return open_window(sys.argv[1:])
        from app.cli import main as run_command

        return run_command()
    except KeyboardInterrupt:
        print(STOPPED_BEFORE_START, file=sys.stderr)
        return 130
