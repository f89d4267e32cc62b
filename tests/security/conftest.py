"""Attack tests: each reproduces an attack as it was found and checks it now does no harm."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# One shared Chromium and the act harness, as the act integration tests use them.
from tests.integration.act.conftest import act_harness as act_harness
from tests.integration.act.conftest import chromium as chromium
from tests.support.llm_server import ScriptedLLMServer
from tests.support.ws_server import SocketServer


@pytest.fixture
def sockets() -> Iterator[SocketServer]:
    """A local WebSocket server that records what pages send (tests/support/ws_server.py)."""
    with SocketServer() as server:
        yield server


@pytest.fixture
def cli_model(llm_server: ScriptedLLMServer, monkeypatch: pytest.MonkeyPatch) -> ScriptedLLMServer:
    """The scripted model server, named in the environment where the CLI reads its model settings."""
    monkeypatch.setenv("OPENAI_BASE_URL", llm_server.url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("WAYPOST_MODEL", "test-model")
    return llm_server
