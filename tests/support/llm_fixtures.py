"""Pytest fixtures for the local OpenAI-compatible test server (tests/support/llm_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import SecretStr

from planner.llm_settings import LLMSettings
from tests.support.llm_server import ScriptedLLMServer


@pytest.fixture
def llm_server() -> Iterator[ScriptedLLMServer]:
    """A fresh scripted server per test, stopped (and any waiting reply released) afterwards."""
    server = ScriptedLLMServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def llm_settings(llm_server: ScriptedLLMServer) -> LLMSettings:
    return LLMSettings(
        base_url=llm_server.url,
        api_key=SecretStr("test-key"),
        model="test-model",
        timeout_s=5.0,
        max_retries=2,
        max_repairs=2,
    )
