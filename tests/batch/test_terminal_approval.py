"""`waypost batch --approve ask` on a real terminal (a pty): the person is asked at each gate, one
case at a time and named, as `waypost run` asks; without a terminal the case pauses instead
(tests/batch/test_grid_batch.py)."""

from __future__ import annotations

import asyncio
import json
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from batch.confirm import OneAtATime
from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
from executor.models import GateDecisionV1, GateVerdict
from tests.batch.test_grid_batch import write_suite

WRITE = {"path": "note.md", "content": "approved"}
GATED_PLAN = {"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT", "inputs": WRITE}]}
PROMPT = "Approve? [y]es / [n]o / [p]ause: "


class Terminal:
    """The person's side of a pty: everything the program wrote, and a way to wait for more."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.text = ""
        self._more = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the program closed its side
                chunk = b""
            with self._more:
                self.text += chunk.decode("utf-8", "replace")
                self._more.notify_all()
            if not chunk:
                return

    def wait_for(self, what: str, count: int, timeout_s: float = 60) -> bool:
        with self._more:
            return self._more.wait_for(lambda: self.text.count(what) >= count, timeout_s)

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")


@pytest.mark.browser
def test_a_terminal_is_asked_at_each_gate_one_case_at_a_time(waypost_home: Path) -> None:
    cases = [
        {"name": "approve me", "plan": GATED_PLAN},
        {"name": "deny me", "plan": GATED_PLAN, "expect": "BLOCKED_POLICY"},
    ]
    suite = write_suite(waypost_home, cases)
    command = [sys.executable, "-m", "app", "batch", str(suite), "--workers", "2", "--json"]
    command += ["--approve", "ask"]
    master, slave = pty.openpty()
    process = subprocess.Popen(command, stdin=slave, stderr=slave, stdout=subprocess.PIPE, text=True)
    os.close(slave)
    terminal = Terminal(master)
    try:
        for asked in (1, 2):
            assert terminal.wait_for(PROMPT, asked), terminal.text
            assert terminal.text.count("asks for approval") == asked  # the other case waits its turn
            last = terminal.text.rsplit("asks for approval", 1)[0]
            terminal.type("y" if last.rfind("approve me") > last.rfind("deny me") else "n")
        out, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    document = json.loads(out)
    assert process.returncode == 0, terminal.text
    statuses = [(r["name"], r["run_status"]) for r in document["runs"]]
    assert statuses == [("approve me", "SUCCESS"), ("deny me", "BLOCKED_POLICY")]


def gate_request(run_id: str) -> ConfirmRequest:
    decision = GateDecisionV1(gate_id="gate_write", decision=GateVerdict.NEED_CONFIRM, reason="writes a file")
    return ConfirmRequest(
        run_id=run_id,
        trace_id="t",
        decision=decision,
        step_id="a1",
        step_name="write",
        step_type="WRITE_ARTIFACT",
    )


class HeldAsker:
    """A person who answers only when the test says so; each question waits in `asked`."""

    def __init__(self) -> None:
        self.asked: asyncio.Queue[tuple[str, asyncio.Future[ConfirmAnswer]]] = asyncio.Queue()

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        answer: asyncio.Future[ConfirmAnswer] = asyncio.get_running_loop().create_future()
        self.asked.put_nowait((request.run_id, answer))
        return await answer


async def test_gates_of_concurrent_cases_reach_the_person_one_at_a_time() -> None:
    person = HeldAsker()
    said: list[str] = []
    asker = OneAtATime(person, said.append)
    first = asyncio.create_task(asker.for_case("a").confirm(gate_request("run_a")))
    second = asyncio.create_task(asker.for_case("b").confirm(gate_request("run_b")))
    run_id, answer = await person.asked.get()
    assert run_id == "run_a" and person.asked.empty()  # b reached the terminal's turn and waits
    assert said == ["case 'a' (run run_a) asks for approval:"]
    answer.set_result(ConfirmAnswer.APPROVE)
    assert await first == ConfirmAnswer.APPROVE
    run_id, answer = await person.asked.get()
    assert run_id == "run_b" and said[1] == "case 'b' (run run_b) asks for approval:"
    answer.set_result(ConfirmAnswer.DENY)
    assert await second == ConfirmAnswer.DENY
