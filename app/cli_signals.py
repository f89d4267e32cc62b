"""Stopping a command cleanly: SIGINT (Ctrl-C) and SIGTERM both cancel the running command, whose run
checkpoints itself on the way out; the person is told the real command that continues it.

`Stop.watch` turns both signals into one cancellation of the command's task, with a watchdog. The
CLI names the run before it starts (`Stop.run_id`), so the message and the `--json` document always carry it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

EXIT_INTERRUPTED = 130
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
    _watchdog: threading.Timer | None = None
    _reported: bool = False
    _once: threading.Lock = field(default_factory=threading.Lock)

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Inside a running loop: SIGINT and SIGTERM cancel the current task (the run checkpoints on
        the way out), and a watchdog ends the process GRACE_S later if anything still holds it."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        signals = (signal.SIGINT, signal.SIGTERM)

        def on_signal(signum: signal.Signals) -> None:
            if self._watchdog is not None:
                return  # a second Ctrl-C changes nothing: the first one is being honoured
            self.signal_name = signum.name
            self._watchdog = threading.Timer(GRACE_S, self._give_up)
            self._watchdog.daemon = True
            self._watchdog.start()
            if task is not None:
                task.cancel()

        try:
            for signum in signals:
                loop.add_signal_handler(signum, on_signal, signum)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread (in-process tests)
            yield
            return
        try:
            yield
        finally:
            for signum in signals:
                loop.remove_signal_handler(signum)

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
        if self.run_id is None:
            sentence = f"waypost: stopped by {self.signal_name} before any run started; nothing to resume"
        else:
            sentence = (
                f"waypost: stopped by {self.signal_name}; run {self.run_id} is checkpointed. "
                f"Continue it with: waypost resume {self.run_id}"
            )
        print(sentence, file=sys.stderr)
        if as_json:
            document = {
                "run_id": self.run_id,
                "run_status": "INTERRUPTED",
                "reason": sentence.removeprefix("waypost: "),
                "resume_command": f"waypost resume {self.run_id}" if self.run_id else None,
                "exit_code": EXIT_INTERRUPTED,
            }
            print(json.dumps(document, indent=2))
        return EXIT_INTERRUPTED
