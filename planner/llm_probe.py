"""What an endpoint can do, asked with tiny real requests (`waypost doctor`).

- answers: one short chat completion (a listed model is not proof that chat works);
- structured output: json_schema, else json_object, else none (prompted JSON only);
- images: a 1x1 PNG beside a question; a 400 means the model takes text only;
- speed: one small streamed request, timed (planner/llm_speed.py says what the speed means).
Each probe costs a few tokens; they are counted like any other call.
"""

from __future__ import annotations

import base64
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel

from planner.llm import LLMClient
from planner.llm_settings import LLMError, LLMSettings, LLMUnavailable
from planner.llm_speed import SpeedSample

StructuredMode = Literal["json_schema", "json_object", "none"]

#: The smallest valid PNG (1x1, transparent).
PIXEL_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


#: The speed probe: a prompt of about 200 tokens and a reply of SPEED_REPLY_TOKENS, long enough to
#: time both halves and short enough for a slow laptop (about 20 s at 1 token/s).
SPEED_REPLY_TOKENS = 24
_WORDS = ("river", "stone", "maple", "cloud", "amber", "north")
SPEED_PROMPT = (
    "Here is a list of words: "
    + ", ".join(f"{word}{n}" for n in range(1, 9) for word in _WORDS)
    + ". Ignore the list. Count from 1 to 40, the numbers separated by spaces, nothing else."
)


class ProbeReport(BaseModel):
    endpoint: str
    answers: bool
    detail: str = ""
    #: Why the endpoint did not answer (an LLMError reason: timeout, unreachable, auth, ...).
    reason: str | None = None
    structured_output: StructuredMode | None = None
    images: bool | None = None
    speed: SpeedSample | None = None


class _Ok(BaseModel):
    ok: bool


def redact_url(url: str | None) -> str:
    """The URL with any user:password replaced by ***, for printing."""
    if not url:
        return "default endpoint"
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def image_message(png: bytes, question: str) -> dict[str, Any]:
    """A user message with a PNG beside the text, in the OpenAI content-parts form."""
    url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    image = {"type": "image_url", "image_url": {"url": url, "detail": "low"}}
    return {"role": "user", "content": [{"type": "text", "text": question}, image]}


async def probe(settings: LLMSettings) -> ProbeReport:
    endpoint = redact_url(settings.base_url)
    client = LLMClient(settings.model_copy(update={"max_repairs": 0, "max_retries": 0}))
    try:
        try:
            await client.chat(
                [{"role": "user", "content": "Reply with the word ok."}], purpose="doctor", max_tokens=8
            )
        except LLMError as exc:
            detail = _clean(str(exc), settings)
            return ProbeReport(endpoint=endpoint, answers=False, detail=detail, reason=exc.reason)
        mode = await _structured_mode(client)
        images = await _takes_images(client)
        speed = await _speed(client)
    finally:
        await client.aclose()
    return ProbeReport(endpoint=endpoint, answers=True, structured_output=mode, images=images, speed=speed)


async def _speed(client: LLMClient) -> SpeedSample | None:
    try:
        prompt = [{"role": "user", "content": SPEED_PROMPT}]
        return await client.measure_speed(prompt, max_tokens=SPEED_REPLY_TOKENS)
    except LLMError:
        return None


async def _structured_mode(client: LLMClient) -> StructuredMode:
    ask = [{"role": "user", "content": 'Reply with the JSON object {"ok": true}.'}]
    for mode in ("json_schema", "json_object"):
        client.format = mode
        try:
            await client.complete_json(ask, _Ok, purpose="doctor", schema_name="ok", max_tokens=16)
        except LLMError:
            continue
        if client.format == mode:  # not silently downgraded by the client
            return mode
    return "none"


async def _takes_images(client: LLMClient) -> bool:
    try:
        await client.chat(
            [image_message(PIXEL_PNG, "Reply with the word ok.")], purpose="doctor", max_tokens=8
        )
    except LLMUnavailable:
        return False
    return True


def _clean(text: str, settings: LLMSettings) -> str:
    if settings.base_url:
        text = text.replace(settings.base_url, redact_url(settings.base_url))
    return text[:300]
