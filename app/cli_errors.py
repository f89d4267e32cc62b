"""Environment errors the CLI turns into one sentence and exit code 2: a runs folder it cannot use
(or one another user can write), no Chromium, --headed with no display, a folder it cannot write,
a reader that closed the pipe.

Each is the person's machine, not a bug: a traceback would hide the one thing to fix.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from app.hardening import shared_folder

EXIT_ENVIRONMENT = 2


class EnvironmentProblem(Exception):
    """Something on this machine stops the command; the message says what and how to fix it."""


def usable_runs_dir(runs_dir: Path) -> Path:
    """The runs folder, created if needed; an EnvironmentProblem if it cannot be a writable folder."""
    try:
        runs_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EnvironmentProblem(
            f"cannot use {runs_dir} as the runs folder ({exc.strerror or exc}); "
            "point WAYPOST_RUNS_DIR or --runs-dir at a folder you can write"
        ) from exc
    if not os.access(runs_dir, os.W_OK | os.X_OK):
        raise EnvironmentProblem(
            f"cannot write in the runs folder {runs_dir}; "
            "point WAYPOST_RUNS_DIR or --runs-dir at a folder you can write"
        )
    return runs_dir


def refuse_shared(folders: Iterable[tuple[str, Path]]) -> None:
    """An EnvironmentProblem when a folder Waypost writes in can be written by another user."""
    for what, folder in folders:
        why = shared_folder(folder, what)
        if why is not None:
            raise EnvironmentProblem(why)


def check_display(headed: bool) -> None:
    """--headed on Linux needs an X or Wayland display; without one Chromium would fail deep inside."""
    if not headed or not sys.platform.startswith("linux"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise EnvironmentProblem(
            "--headed needs a display, and this session has none (DISPLAY is not set); "
            "run without --headed, or under xvfb-run"
        )


def describe_os_error(exc: OSError) -> str:
    """A file the command had to write or read, as a sentence."""
    where = f" {exc.filename}" if exc.filename else ""
    return f"cannot use{where}: {exc.strerror or exc}"


def quiet_broken_pipe() -> int:
    """The reader (`| head -1`) went away: say nothing more, and let exit flush into nowhere."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0
