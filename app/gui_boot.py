"""`waypost gui` (and `waypost` alone with a display) from the first line: the window paints first.

Only Qt, qasync and the window's own modules (ui/, app/gui.py, the folder check of
app/window_folders.py) are imported before the first paint;
the settings, the demo site, the core and voice input load afterwards (app/gui_entry.py, on a worker
thread), while the window is already on screen (docs/architecture.md, "Cold start").
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from app.cli_errors import EXIT_ENVIRONMENT, EnvironmentProblem
from app.gui import Session, run_window
from app.hardening import owner_only_umask
from app.window_folders import refuse_shared_folders


def parse(argv: Sequence[str]) -> dict[str, Any]:
    """`gui [--runs-dir DIR]` (or nothing) -> the settings this launch's flags override."""
    parser = argparse.ArgumentParser(prog="waypost gui", description="open the window")
    parser.add_argument("--runs-dir", type=Path, help="where runs, receipts and the run store live")
    args = parser.parse_args(list(argv[1:]) if argv[:1] == ["gui"] else list(argv))
    return {"runs_dir": args.runs_dir}


def open_window(overrides: Mapping[str, Any]) -> int:
    """Exit 2 with the CLI's sentence, before any window, when a folder it would write in is shared."""
    owner_only_umask()  # every file from here on is 0600, every folder 0700
    try:
        refuse_shared_folders(overrides.get("runs_dir"))
    except EnvironmentProblem as exc:
        from common.secrecy import scrub  # on this path only: no window will paint

        print(scrub(f"waypost: {exc}"), file=sys.stderr)
        return EXIT_ENVIRONMENT

    async def prepare() -> Session:
        entry = await asyncio.to_thread(importlib.import_module, "app.gui_entry")
        made: Session = entry.session(overrides)
        return made

    return run_window(prepare)


def main(argv: Sequence[str]) -> int:
    return open_window(parse(argv))
