"""Stopping a command cleanly: SIGINT (Ctrl-C) and SIGTERM both cancel the running command, whose run
checkpoints itself on the way out; the person is told the real command that continues it.

`Stop.watch` turns both signals into one cancellation of the command's task, with a watchdog. The
CLI names the run before it starts (`Stop.run_id`) and says whether it reached the run store
(`Stop.opened`), so the message and the `--json` document carry the run id exactly when there is a
run to resume. Outside the watch, app/stopped.py's handlers (taken in app/entry.py) stand.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from app.stopped import EXIT_INTERRUPTED, SIGNALS, quiet, tell
from common.moments import reached

GRACE_S = 15.0  # how long a stopped run may take to checkpoint and close its browser


@dataclass
class Stop:
    """What the CLI knows when it is stopped: the signal, and the run it was running, if any."""

    signal_name: str = "SIGINT"
    run_id: str | None = None
    as_json: bool = False
    #: A command that reports its own stop (a batch: what ended, what is left); gets the signal's
    #: name and whether to print JSON, prints, and returns the exit code.
    reporter: Callable[[str, bool], int] | None = None
    #: Whether the named run reached the run store (only then can `waypost resume` continue it).
    opened: Callable[[], bool] = lambda: False
    _watchdog: threading.Timer | None = None
    _reported: bool = False
    _once: threading.Lock = field(default_factory=threading.Lock)

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Inside a running loop: SIGINT and SIGTERM cancel the current task (the run checkpoints on
        the way out), and a watchdog ends the process GRACE_S later if anything still holds it.
        On the way out the handlers found on the way in are put back (a signal already honoured
        leaves later ones ignored: the stop is under way)."""
        import asyncio  # only commands with a loop watch: `plan --planner rules` has none

        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        before = {signum: signal.getsignal(signum) for signum in SIGNALS}

        def on_signal(signum: signal.Signals) -> None:
            if self._watchdog is not None:
                return  # a second Ctrl-C changes nothing: the first one is being honoured
            self.signal_name = signum.name
            self._watchdog = threading.Timer(GRACE_S, self._give_up)
            self._watchdog.daemon = True
            self._watchdog.start()
            reached("stop.signalled")
            if task is not None:
                task.cancel()

        try:
            for signum in SIGNALS:
                loop.add_signal_handler(signum, on_signal, signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread (in-process tests)
            yield
            return
        try:
            yield
        finally:
            for signum in SIGNALS:
                loop.remove_signal_handler(signum)
                handler = before[signum]
                signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
            if self._watchdog is not None:
                quiet()

    def _give_up(self) -> None:
        """The run did not wind down in GRACE_S after the signal: say so, and end the process."""
        self.report(self.as_json)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)

    def report(self, as_json: bool) -> int:
        """Says what happened and how to continue (once); the exit code of an interrupted command."""
        with self._once:  # the watchdog's thread and the command may both get here
            if self._reported:
                return EXIT_INTERRUPTED
            self._reported = True
        if self.reporter is not None:
            return self.reporter(self.signal_name, as_json)
        resumable = self.run_id if self.run_id is not None and self.opened() else None
        return tell(self.signal_name, resumable, as_json)
