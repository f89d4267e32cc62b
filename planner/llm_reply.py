"""What a model's reply is, before it is parsed: a refusal, a loop, a reply cut off at its limit.

None of these is repaired by asking again: a refusal is named as a refusal, a reply that repeats
itself or was cut off at `max_tokens` would loop again on the same prompt (docs/architecture.md,
"Slow models"). Pure text checks; planner/llm.py applies them to every JSON answer.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Mapping
from typing import Any

from common.secrecy import scrub_data
from planner import metering
from planner.llm_format import first_message
from planner.llm_settings import LLMSettings
from planner.model_call import CallFormat, ModelCall
from planner.repetition import repeats_itself

_REFUSAL = re.compile(
    r"^\W*(i'?m sorry|i am sorry|sorry\b|i can ?not\b|i can'?t\b|i won'?t\b|i will not\b|"
    r"as an ai\b|i'?m (?:not able|unable)\b|i am (?:not able|unable)\b|unfortunately,? i\b)",
    re.IGNORECASE,
)

#: The longest backoff between retries of a rate-limited or failing endpoint, and the first one.
MAX_RETRY_DELAY_S = 8.0
FIRST_RETRY_DELAY_S = 0.5


def refusal_in(content: str, refusal: object = None) -> str | None:
    """The refusal's words when the server flagged one (`message.refusal`) or the reply is prose
    that declines instead of the JSON asked for; None otherwise."""
    if isinstance(refusal, str) and refusal.strip():
        return refusal.strip()[:300]
    text = content.strip()
    if text.startswith(("{", "[", "```")):
        return None
    return text[:300] if _REFUSAL.match(text) else None


def unusable(content: str, finish_reason: object) -> str | None:
    """Why a reply cannot be an answer whatever its JSON says: "repetitive" or "cut_off"; or None."""
    if repeats_itself(content):
        return "repetitive"
    if finish_reason == "length":
        return "cut_off"
    return None


def retry_delay(attempt: int, headers: Mapping[str, str] | None) -> float:
    """Seconds before retry `attempt` (1 = the first retry): the server's retry-after when it gives
    one (at most a minute), else an exponential backoff with jitter."""
    headers = headers or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            value = float(raw) * scale
        except ValueError:
            continue
        if 0 <= value <= 60:
            return value
    backoff: float = min(FIRST_RETRY_DELAY_S * 2.0 ** max(attempt - 1, 0), MAX_RETRY_DELAY_S)
    return backoff * (1 - 0.25 * random.random())  # a spread, so clients do not retry in step


def fingerprint(model: str, messages: object, extra: Mapping[str, object]) -> str:
    """One request's identity: a timed-out request is never sent again unchanged."""
    text = json.dumps({"model": model, "messages": messages, **extra}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def count_usage(call: ModelCall, response: Any) -> None:
    """The server's usage when it sends one, else an estimate; charged to the open token meters."""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None) if usage is not None else None
    completion = getattr(usage, "completion_tokens", None) if usage is not None else None
    if prompt is None and completion is None:
        message = first_message(response)
        said = str(getattr(message, "content", None) or "")
        calls = getattr(message, "tool_calls", None) or []
        said += "".join(str(getattr(getattr(c, "function", None), "arguments", "") or "") for c in calls)
        call.tokens_in = metering.estimate_prompt(call.messages)
        call.tokens_out = metering.estimate_tokens(said)
        call.estimated = True
    else:
        call.tokens_in = int(prompt or 0)
        call.tokens_out = int(completion or 0)
    metering.report(call.tokens_in, call.tokens_out, estimated=call.estimated, ms=call.latency_ms)


def new_call(
    settings: LLMSettings,
    purpose: str,
    fmt: CallFormat,
    messages: list[dict[str, Any]],
    attempt: int,
    max_tokens: int,
) -> ModelCall:
    """The record of one request; nothing a page echoed reaches the model."""
    params = {"temperature": settings.temperature, "timeout_s": settings.timeout_s, "max_tokens": max_tokens}
    return ModelCall(
        purpose=purpose,
        model=settings.model,
        params=params,
        response_format=fmt,
        messages=scrub_data(messages),
        attempt=attempt,
    )
