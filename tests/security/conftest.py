"""Attack tests: each reproduces an attack as it was found and checks it now does no harm."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from tests.support.act_harness import ActHarness, harness_on
from tests.support.chromium import chromium_with
from tests.support.llm_server import ScriptedLLMServer
from tests.support.public_web import PUBLIC_RULE
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


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def public_chromium() -> AsyncIterator[Browser]:
    """A Chromium, one per module, in which public.test is the fixture site (tests/support/public_web.py)."""
    async with chromium_with([PUBLIC_RULE]) as browser:
        yield browser


@pytest.fixture
def harness(public_chromium: Browser, tmp_path: Path) -> ActHarness:
    return harness_on(public_chromium, tmp_path)
