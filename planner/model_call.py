"""One request to the model as planner/llm.py builds and sends it: its parameters, the messages (with
placeholders only: secrets are cut out before any prompt is built), and what came back. The tokens
and time it took go to planner/metering.py; the doctor's speed probe reads them too."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

CallFormat = Literal["json_schema", "json_object", "tools", "none"]


class ModelCall(BaseModel):
    """One request to the model and what came back (or why nothing usable did)."""

    purpose: str
    model: str
    params: dict[str, Any] = Field(default_factory=dict)
    response_format: CallFormat = "none"
    messages: list[dict[str, Any]] = Field(default_factory=list)
    raw_output: str | None = None
    parsed_output: dict[str, Any] | None = None
    error: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    #: True when the server sent no usage and the tokens are an estimate (planner.metering).
    estimated: bool = False
    latency_ms: float = 0.0
    attempt: int = 1
