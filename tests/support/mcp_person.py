"""Helpers for MCP end-to-end tests: the server's environment, and a person at a terminal.

`answer_on_terminal` runs a `waypost` command on a pseudo-terminal (so stdin and stderr are TTYs, as
for a person), answers the first "Approve?" prompt, and returns the exit code and what it printed.
It reads the terminal as the process writes it; no sleeps.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from mcp import StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
#: Longest wait for the next output of the approving process (a run with a real browser).
READ_TIMEOUT_S = 120.0


def waypost_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This test's environment (its config and data folders), for a child `waypost` process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.update(extra or {})
    return env


def stdio_server(runs_dir: Path, *args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "app", "mcp", "--runs-dir", str(runs_dir), *args],
        env=env or waypost_env(),
        cwd=str(ROOT),
    )


def answer_on_terminal(argv: list[str], answer: str, env: dict[str, str]) -> tuple[int, str]:
    """Runs `python -m app ARGV` on a pty; types `answer` at the first "Approve?" prompt."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *argv],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=ROOT,
        start_new_session=True,
    )
    os.close(slave)
    out = b""
    answered = False
    try:
        while True:
            ready, _, _ = select.select([master], [], [], READ_TIMEOUT_S)
            if not ready:
                raise TimeoutError(
                    f"no output for {READ_TIMEOUT_S} s; so far:\n{out.decode(errors='replace')}"
                )
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            out += chunk
            if not answered and b"Approve?" in out:
                os.write(master, answer.encode() + b"\n")
                answered = True
        return proc.wait(timeout=READ_TIMEOUT_S), out.decode(errors="replace")
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
