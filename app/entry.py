"""The `waypost` command's first Waypost code (the console script and `python -m app` both call
`main`): a Ctrl-C from here until a command has started is a quiet exit 130, never a traceback
(docs/architecture.md, "Faults (every run ends, says why, and can be resumed)")."""

from __future__ import annotations

import sys

#: What a person sees after a Ctrl-C while the CLI's modules load: nothing started, nothing to resume.
STOPPED_BEFORE_START = "waypost: stopped before start; nothing to resume"


def main() -> int:
    """Imports the CLI inside the guard: its modules take a moment to load, and a Ctrl-C there (or
    while the arguments are read) has nothing to stop. Once a command runs, the CLI itself answers
    Ctrl-C with a checkpoint and the resume command."""
    try:
        from app.cli_parser import parse_arguments

        args = parse_arguments()  # `--help` and a usage error end here, before the commands load
        from app.cli import run_arguments

        return run_arguments(args)
    except KeyboardInterrupt:
        print(STOPPED_BEFORE_START, file=sys.stderr)
        return 130
