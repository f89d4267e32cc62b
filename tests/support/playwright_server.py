"""Real `playwright run-server` processes on 127.0.0.1: the browser grid of the batch tests.

Playwright cannot download its browsers here, so each server gets a browser registry
(PLAYWRIGHT_BROWSERS_PATH) whose Chromium folders link to the system Chromium, as a grid node has
browsers of its own. The server launches a browser per connection, as a grid does.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import tempfile
import threading
from pathlib import Path
from types import TracebackType

from playwright._impl._driver import compute_driver_executable

from browser.discovery import find_chromium

START_S = 30.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def browser_registry(folder: Path) -> Path:
    """A registry whose chromium and headless-shell entries (of the revision this Playwright
    expects, read from its browsers.json) are links to the system Chromium."""
    _node, cli = compute_driver_executable()
    listing = json.loads((Path(cli).parent / "browsers.json").read_text(encoding="utf-8"))
    revisions = {b["name"]: b["revision"] for b in listing["browsers"]}
    chromium = find_chromium()
    links = {
        f"chromium-{revisions['chromium']}/chrome-linux64/chrome",
        f"chromium_headless_shell-{revisions['chromium-headless-shell']}/"
        "chrome-headless-shell-linux64/chrome-headless-shell",
    }
    for link in links:
        target = folder / link
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(chromium)
    return folder


class PlaywrightServer:
    """One `run-server` process; `endpoint` is its ws:// URL. Stop kills it (and only it) by PID."""

    def __init__(self, registry: Path) -> None:
        self.registry = registry
        self.port = _free_port()
        self.process: subprocess.Popen[str] | None = None
        # a killed browser may still be writing its profile as the folder goes: not an error here
        self._tmp = tempfile.TemporaryDirectory(prefix="waypost-pwserver-", ignore_cleanup_errors=True)

    @property
    def pid(self) -> int:
        """The server process (its browsers are its descendants)."""
        if self.process is None:
            raise RuntimeError("the server is not running")
        return self.process.pid

    @property
    def endpoint(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> PlaywrightServer:
        node, cli = compute_driver_executable()
        env = {**os.environ, "PLAYWRIGHT_BROWSERS_PATH": str(self.registry), "TMPDIR": self._tmp.name}
        self.process = subprocess.Popen(
            [node, cli, "run-server", "--port", str(self.port), "--host", "127.0.0.1"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its browsers go with it when the group is killed
        )
        listening = threading.Event()
        threading.Thread(target=self._read, args=(listening,), daemon=True).start()
        if not listening.wait(START_S):
            self.stop()
            raise RuntimeError(f"playwright run-server did not start on port {self.port}")
        return self

    def _read(self, listening: threading.Event) -> None:
        assert self.process is not None and self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("Listening on"):
                listening.set()

    def _browser_groups(self) -> set[int]:
        """Process groups of the browsers this server launched (their profiles live in its TMPDIR;
        Playwright starts each browser in a group of its own)."""
        marker = self._tmp.name.encode()
        groups = set()
        for entry in Path("/proc").iterdir():
            try:
                if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes():
                    groups.add(os.getpgid(int(entry.name)))
            except (OSError, ProcessLookupError):
                continue
        return groups

    def kill(self) -> None:
        """kill -9 of the server and the browsers it launched: a grid node that dies."""
        if self.process is not None and self.process.poll() is None:
            browsers = self._browser_groups()
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            for group in browsers:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(group, signal.SIGKILL)

    def stop(self) -> None:
        """Ends the server at once (the browsers it launched exit when their pipe closes)."""
        self.kill()
        self._tmp.cleanup()

    def __enter__(self) -> PlaywrightServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
