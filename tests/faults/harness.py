"""Runs `waypost` as a child process, the way a person does, so a fault can hang, crash or be killed.

Each case gets its own home (config, data, runs) under tmp_path. `Outcome` holds what the person
saw: exit code, stdout (the JSON document), stderr, seconds taken.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float
    document: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return str(self.document.get("run_status", f"exit {self.code}"))

    @property
    def sentence(self) -> str:
        return str(self.document.get("reason", "")) or self.err.strip()


def home_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WAYPOST_", "OPENAI_"))}
    env.update(
        WAYPOST_CONFIG_DIR=str(home / "config"),
        WAYPOST_DATA_DIR=str(home / "data"),
        WAYPOST_RUNS_DIR=str(home / "runs"),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def spawn(
    home: Path, *args: str, env: dict[str, str] | None = None, pass_fds: tuple[int, ...] = ()
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env=env or home_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        pass_fds=pass_fds,
    )


def finish(proc: subprocess.Popen[str], started: float, limit_s: float) -> Outcome:
    """Waits for the child; past `limit_s` it is killed and the test fails on the returned code."""
    try:
        out, err = proc.communicate(timeout=limit_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return Outcome(-999, out, err + "\n[harness] killed: no end within limit", time.monotonic() - started)
    document: dict[str, Any] = {}
    if out.strip().startswith("{"):
        document = json.loads(out)
    return Outcome(proc.returncode, out, err, round(time.monotonic() - started, 1), document)


def waypost(home: Path, *args: str, limit_s: float = 60, env: dict[str, str] | None = None) -> Outcome:
    started = time.monotonic()
    return finish(spawn(home, *args, env=env), started, limit_s)


@dataclass
class Watched:
    """A `waypost` child that reports its named moments (common/moments.py) on a pipe."""

    proc: subprocess.Popen[str]
    moments: int  # read end: one moment name a line
    go: int  # write end: one byte lets a held moment go on
    seen: list[str] = field(default_factory=list)
    _buffer: bytes = b""

    def wait_for(self, name: str, limit_s: float = 60) -> None:
        """Reads moment names until `name` shows; fails if the child ends or `limit_s` passes first."""
        deadline = time.monotonic() + limit_s
        while name not in self.seen:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.moments], [], [], max(0.0, left))
            chunk = os.read(self.moments, 4096) if ready else b""
            if not chunk:
                raise AssertionError(
                    f"moment {name!r} never came (seen {self.seen}); exit {self.proc.poll()}"
                )
            self._buffer += chunk
            *lines, self._buffer = self._buffer.split(b"\n")
            self.seen += [line.decode() for line in lines]

    def release(self) -> None:
        """Lets a held moment go on (harmless when the child is gone or was not holding)."""
        with suppress(OSError):
            os.write(self.go, b"g")


@contextmanager
def watched(home: Path, *args: str, hold: str = "", env: dict[str, str] | None = None) -> Iterator[Watched]:
    """Spawns `waypost *args` reporting its moments; `hold` names a moment where it waits for release."""
    moments_read, moments_write = os.pipe()
    go_read, go_write = os.pipe()
    child_env = dict(env or home_env(home))
    child_env.update(
        WAYPOST_MOMENTS=str(moments_write), WAYPOST_MOMENTS_GO=str(go_read), WAYPOST_HOLD_AT=hold
    )
    proc = spawn(home, *args, env=child_env, pass_fds=(moments_write, go_read))
    os.close(moments_write)
    os.close(go_read)
    try:
        yield Watched(proc, moments_read, go_write)
    finally:
        os.close(moments_read)
        os.close(go_write)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


def wait_for_line(proc: subprocess.Popen[str], needle: str, limit_s: float = 30) -> str:
    """Reads the child's stderr line by line until `needle` shows (the run reached a known point)."""
    assert proc.stderr is not None
    deadline = time.monotonic() + limit_s
    seen = []
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return "".join(seen)
    raise AssertionError(f"{needle!r} never showed; stderr so far:\n{''.join(seen)}")


def act_plan(url: str, goal: str, *, max_time_ms: int = 20_000) -> dict[str, Any]:
    """A one-step ACT plan on `url`, gated, with a short time budget."""
    return {
        "mode": "B",
        "plan_status": "READY",
        "steps": [
            {
                "step_id": "stp_act",
                "type": "ACT",
                "name": goal,
                "policy_gate_id": "gate_action",
                "inputs": {"goal": goal, "payload": {}, "url": url},
                "config": {"blueprint": ["open", "locate", "fill", "verify", "stop"]},
            }
        ],
        "policy_gates": [
            {"gate_id": "gate_action", "kind": "action", "requires_user_confirm": True, "reason": "acts"}
        ],
        "budget": {"max_time_ms": max_time_ms, "max_tool_calls": 30, "max_actions": 40},
    }


def write_plan(home: Path, plan: dict[str, Any], name: str = "plan.json") -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / name
    path.write_text(json.dumps(plan), encoding="utf-8")
    return path


def run_folder(home: Path) -> Path | None:
    """The run folder a running `waypost run` made, once its receipts are open."""
    runs = home / "runs"
    folders = [p for p in runs.glob("run_*") if p.is_dir()] if runs.is_dir() else []
    return folders[0] if len(folders) == 1 else None


def descendants(root: int) -> list[tuple[int, str]]:
    """Every process below `root`, as (pid, command line), read from /proc."""
    parents: dict[int, int] = {}
    cmdlines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
        cmdlines[int(entry.name)] = cmd
    found, frontier = [], [root]
    while frontier:
        parent = frontier.pop()
        for pid, ppid in parents.items():
            if ppid == parent:
                found.append((pid, cmdlines[pid]))
                frontier.append(pid)
    return found


def browser_pid(root: int) -> int | None:
    """The main Chromium process (not a renderer or helper) started by the `waypost` child `root`."""
    for pid, cmd in descendants(root):
        if "chrom" in cmd.split(" ", 1)[0].lower() and "--type=" not in cmd and "--remote-debugging" in cmd:
            return pid
    return None
