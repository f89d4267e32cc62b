"""Stopping a command cleanly: SIGINT (Ctrl-C) and SIGTERM both cancel the running command, whose run
checkpoints itself on the way out; the person is told the real command that continues it.

`Stop.watch` turns SIGTERM into the same cancellation asyncio already gives SIGINT. The CLI names the
run before it starts (`Stop.run_id`), so the message and the `--json` document always carry it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Iterator
from dataclasses import dataclass

EXIT_INTERRUPTED = 130


@dataclass
class Stop:
    """What the CLI knows when it is stopped: the signal, and the run it was running, if any."""

    signal_name: str = "SIGINT"
    run_id: str | None = None

    @contextlib.contextmanager
    def watch(self) -> Iterator[None]:
        """Inside a running loop: SIGTERM cancels the current task, as Ctrl-C does."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()

        def on_term() -> None:
            self.signal_name = "SIGTERM"
            if task is not None:
                task.cancel()

        try:
            loop.add_signal_handler(signal.SIGTERM, on_term)
        except (NotImplementedError, RuntimeError):  # not the main thread (tests call main() in-process)
            yield
            return
        try:
            yield
        finally:
            loop.remove_signal_handler(signal.SIGTERM)

    def report(self, as_json: bool) -> int:
        """Says what happened and how to continue; the exit code of an interrupted command."""
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
