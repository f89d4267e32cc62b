"""LLMClient.embed against the local OpenAI-compatible server (/v1/embeddings)."""

from __future__ import annotations

import pytest

from planner.llm import LLMClient
from planner.llm_settings import LLMSettings, LLMUnavailable
from tests.support.llm_server import ScriptedLLMServer, embed_text


async def test_embed_returns_one_vector_per_text_in_order(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm = LLMClient(llm_settings.model_copy(update={"embedding_model": "test-embed"}))
    try:
        assert llm.embeddings_configured
        vectors = await llm.embed(["acme pricing", "coffee beans"])
        assert await llm.embed([]) == []
    finally:
        await llm.aclose()
    assert vectors == [embed_text("acme pricing"), embed_text("coffee beans")]
    assert llm_server.requests[-1].body["model"] == "test-embed"


async def test_embed_without_a_model_is_unavailable(llm_settings: LLMSettings) -> None:
    llm = LLMClient(llm_settings)
    try:
        assert not llm.embeddings_configured
        with pytest.raises(LLMUnavailable, match="no_embedding_model"):
            await llm.embed(["x"])
    finally:
        await llm.aclose()


def test_embedding_model_from_env() -> None:
    settings = LLMSettings.from_env(
        {"OPENAI_BASE_URL": "http://127.0.0.1:1/v1", "WAYPOST_EMBEDDING_MODEL": "e5"}
    )
    assert settings.embedding_model == "e5"
