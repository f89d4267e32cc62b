"""`waypost mcp --http`: listens on 127.0.0.1 only, answers only requests carrying its token; and
`waypost approve` refuses to run without a terminal (an assistant's pipe is not a person)."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.support.mcp_person import ROOT, waypost_env

TOKEN = "test-token-5b1f2c9e"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(waypost_home: Path) -> Iterator[str]:
    port = free_port()
    argv = [sys.executable, "-m", "app", "mcp", "--http", "--port", str(port)]
    argv += ["--runs-dir", str(waypost_home / "runs")]
    env = waypost_env({"WAYPOST_MCP_TOKEN": TOKEN})
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True
    )
    try:
        assert proc.stderr is not None
        announced = proc.stderr.readline()  # printed once the port is bound
        assert f"http://127.0.0.1:{port}/mcp" in announced, announced
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


async def test_http_needs_the_token(http_server: str) -> None:
    async with httpx2.AsyncClient() as plain:
        answer = await plain.post(http_server, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert answer.status_code == 401
        wrong = await plain.post(http_server, json={}, headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as authed,
        Client(streamable_http_client(http_server, http_client=authed)) as client,
    ):
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"plan_task", "run_task", "run_status", "resume_run", "list_runs", "verify_receipts"} <= names
        assert not any("approve" in n for n in names)


def test_approve_needs_a_terminal(waypost_home: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "approve",
            "run_0123456789ab",
            "--runs-dir",
            str(waypost_home / "runs"),
        ],
        cwd=ROOT,
        env=waypost_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "needs a terminal" in done.stderr
    assert "Traceback" not in done.stderr
