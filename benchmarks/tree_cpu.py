"""CPU seconds a process and everything it launched have spent: how a benchmark weighs the work done
inside a Playwright server's browsers, which live in other processes than the one measuring.

Linux only (/proc). A process's `cutime`/`cstime` hold the CPU of the children it has reaped, so
the sum over a live tree of (own + reaped children's) time counts every process that ever ran in it,
as long as each was reaped by its parent: Chromium's processes are (its crash reporter, which
leaves the tree, does next to nothing). Take `tree_cpu` before and after the work and subtract,
while the processes that did the work still run: a browser that exits before its children leaves
them to init, and their time leaves the tree. So a measurement also starts only once the browsers
of the one before have gone (`descendants` is empty).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True, slots=True)
class TreeCpu:
    """CPU seconds of a tree: the root process's own, and everything below it (live or reaped)."""

    root: float
    below: float

    def __sub__(self, other: TreeCpu) -> TreeCpu:
        return TreeCpu(self.root - other.root, self.below - other.below)


def _stat(pid: int) -> tuple[int, list[float]] | None:
    """(parent pid, [utime, stime, cutime, cstime] in seconds), or None for a process that is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), [int(v) / _TICK for v in fields[11:15]]


def _processes() -> tuple[dict[int, list[int]], dict[int, list[float]]]:
    """Children of every process, and every process's times."""
    children: dict[int, list[int]] = {}
    times: dict[int, list[float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            found = _stat(int(entry))
            if found is not None:
                children.setdefault(found[0], []).append(int(entry))
                times[int(entry)] = found[1]
    return children, times


def descendants(root: int) -> list[int]:
    """The processes below `root` now."""
    children, _ = _processes()
    found, todo = [], list(children.get(root, []))
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def tree_cpu(root: int) -> TreeCpu:
    """CPU seconds of `root` itself (user + system) and of all its descendants, reaped ones included."""
    parents, times = _processes()
    own = times.get(root, [0.0] * 4)
    below = own[2] + own[3]
    todo = list(parents.get(root, []))
    while todo:
        pid = todo.pop()
        below += sum(times.get(pid, ()))
        todo += parents.get(pid, [])
    return TreeCpu(root=own[0] + own[1], below=below)


async def exited(pids: list[int]) -> None:
    """Returns once every process of `pids` has exited (a pidfd turns readable when it does)."""
    loop = asyncio.get_running_loop()
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        gone = loop.create_future()
        loop.add_reader(fd, gone.set_result, None)
        try:
            await gone
        finally:
            loop.remove_reader(fd)
            with contextlib.suppress(OSError):
                os.close(fd)
