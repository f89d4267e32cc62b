"""What a person sees when SIGINT or SIGTERM stops `waypost`, whenever it arrives (docs/architecture.md,
"Faults (every run ends, says why, and can be resumed)").

From the first line of app/entry.py both signals raise `Interrupted` (a KeyboardInterrupt naming the
signal) instead of killing the process mid-sentence; once a command runs, app/cli_signals.py takes
them over and cancels the command's task. Either way `tell` prints one sentence, and with --json one
document, and the exit code is 130. Light on purpose: it is loaded before anything else.
"""

from __future__ import annotations

import json
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130
SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM arrived while no command's own handler was in place."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    quiet()  # one stop is enough: a second signal must not break the sentence being printed
    raise Interrupted(signal.Signals(signum).name)


def take_signals() -> None:
    """SIGINT and SIGTERM raise Interrupted from here on (until a command's own handler takes over)."""
    for signum in SIGNALS:
        signal.signal(signum, _raise_interrupted)


def quiet() -> None:
    """Later signals are ignored: the first one is being honoured."""
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


def default_signals() -> None:
    """Python's own behaviour back (a Ctrl-C is KeyboardInterrupt, SIGTERM ends the process): for
    the window, whose Qt loop has always answered them that way."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def signal_name(exc: BaseException) -> str:
    return exc.signal_name if isinstance(exc, Interrupted) else "SIGINT"


def tell(signal_name: str, run_id: str | None, as_json: bool, *, started: bool = True) -> int:
    """Says what was stopped and how to continue; the exit code of an interrupted command.

    `run_id` is the run that can be resumed (None when no run reached the run store); `started`
    False when the signal came before any command began."""
    if run_id is not None:
        sentence = (
            f"waypost: stopped by {signal_name}; run {run_id} is checkpointed. "
            f"Continue it with: waypost resume {run_id}"
        )
    elif started:
        sentence = f"waypost: stopped by {signal_name} before any run started; nothing to resume"
    else:
        sentence = f"waypost: stopped by {signal_name} before start; nothing to resume"
    print(sentence, file=sys.stderr)
    if as_json:
        document = {
            "run_id": run_id,
            "run_status": "INTERRUPTED",
            "reason": sentence.removeprefix("waypost: "),
            "resume_command": f"waypost resume {run_id}" if run_id else None,
            "exit_code": EXIT_INTERRUPTED,
        }
        print(json.dumps(document, indent=2))
    return EXIT_INTERRUPTED


def wants_json(argv: list[str]) -> bool:
    """--json among the arguments, read before the parser exists (a signal may come first)."""
    return "--json" in argv
