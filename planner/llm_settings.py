"""The model endpoint's settings and the errors a model call ends with (planner/llm.py raises them).

No key and no base URL means "no model": the rules serve. Every LLMError's `reason` becomes the
fallback reason code (LLM_FALLBACK:<reason>) and, in words, the sentence a person reads
(planner/model_words.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field, SecretStr


class LLMSettings(BaseModel):
    """Endpoint, model and limits. No key and no base URL means "no model": the rules serve."""

    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str = "gpt-4o-mini"
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    #: Overall deadline for all calls of one client (seconds from its creation); None: per call only.
    deadline_s: float | None = Field(default=None, gt=0)
    #: The deadline of one planning phase (its calls, retries included): a setting sized to the
    #: endpoint's measured speed (`waypost doctor` says which one it needs).
    planning_deadline_s: float = Field(default=45.0, gt=0)
    max_repairs: int = Field(default=2, ge=0, le=5)
    temperature: float | None = Field(default=0.0, ge=0, le=2)
    structured_output: Literal["auto", "json_schema", "json_object"] = "auto"
    #: Send a downscaled picture of the page beside the text observation (models that take images).
    images: bool = False
    #: Embeddings model for RETRIEVE's hybrid ranking; None means BM25 only.
    embedding_model: str | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str], **overrides: Any) -> LLMSettings:
        """OPENAI_API_KEY, OPENAI_BASE_URL, WAYPOST_MODEL; flags override (docs/architecture.md)."""
        values: dict[str, Any] = {}
        if env.get("OPENAI_API_KEY"):
            values["api_key"] = SecretStr(env["OPENAI_API_KEY"])
        if env.get("OPENAI_BASE_URL"):
            values["base_url"] = env["OPENAI_BASE_URL"]
        if env.get("WAYPOST_MODEL"):
            values["model"] = env["WAYPOST_MODEL"]
        if env.get("WAYPOST_EMBEDDING_MODEL"):
            values["embedding_model"] = env["WAYPOST_EMBEDDING_MODEL"]
        return cls.model_validate({**values, **overrides})

    @property
    def configured(self) -> bool:
        return bool(self.base_url) or bool(self.api_key and self.api_key.get_secret_value())


class LLMError(Exception):
    """Base of model failures; `reason` becomes the fallback reason code (LLM_FALLBACK:<reason>)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class LLMUnavailable(LLMError):
    """The endpoint did not answer usefully: timeout, unreachable, rate limited, server error, auth."""


class LLMOutputInvalid(LLMError):
    """The model answered, but never with valid JSON for the schema within the repair budget; or it
    refused ("refused"), repeated itself ("repetitive") or ran past its token limit ("cut_off")."""
