"""The one module that talks to a model: any OpenAI-compatible endpoint, structured output, repair.

- Structured output from a pydantic schema (response_format json_schema, strict). A server that
  rejects json_schema (a 400/422 naming response_format) is asked again in json_object mode with
  the schema in the prompt, and remembered as such for the rest of the client's life.
- Output that is not JSON, or JSON that fails validation, is sent back with the error a bounded
  number of times (`max_repairs`); then LLMOutputInvalid, which callers turn into a rule fallback.
- 429/5xx/timeouts are retried by the openai client itself (`max_retries`, honouring retry-after);
  what is left becomes LLMUnavailable with a reason code.
- `deadline_s` bounds every call one client makes, retries included (a planning phase): past it,
  LLMUnavailable("deadline"), so a slow endpoint cannot hold planning for timeout x retries.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Literal, TypeVar, cast

import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, Field, SecretStr, ValidationError

from common.secrecy import scrub_data
from planner import metering
from planner.tracing import ModelCall, ModelPrice, Tracer

M = TypeVar("M", bound=BaseModel)
Format = Literal["json_schema", "json_object"]
CallFormat = Literal["json_schema", "json_object", "tools", "none"]


class LLMSettings(BaseModel):
    """Endpoint, model and limits. No key and no base URL means "no model": the rules serve."""

    base_url: str | None = None
    api_key: SecretStr | None = None
    model: str = "gpt-4o-mini"
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0, le=10)
    #: Overall deadline for all calls of one client (seconds from its creation); None: per call only.
    deadline_s: float | None = Field(default=None, gt=0)
    max_repairs: int = Field(default=2, ge=0, le=5)
    temperature: float | None = Field(default=0.0, ge=0, le=2)
    structured_output: Literal["auto", "json_schema", "json_object"] = "auto"
    #: Send a downscaled picture of the page beside the text observation (models that take images).
    images: bool = False
    #: Embeddings model for RETRIEVE's hybrid ranking; None means BM25 only.
    embedding_model: str | None = None
    prices: dict[str, ModelPrice] | None = None

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
    """The model answered, but never with valid JSON for the schema within the repair budget."""


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema made strict: every object closed and every property required."""
    return copy.deepcopy(_strict_schema(model))


@lru_cache(maxsize=64)
def _strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = copy.deepcopy(model.model_json_schema())

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("default", None)
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
_FORMAT_WORDS = re.compile(r"response_format|json_schema|structured|schema", re.IGNORECASE)


def parse_json_object(content: str) -> dict[str, Any]:
    """The JSON object in `content` (a ```json fence is tolerated); ValueError otherwise."""
    fenced = _FENCE.match(content)
    data = json.loads(fenced.group(1) if fenced else content)
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    return data


class LLMClient:
    """A thin, typed wrapper around AsyncOpenAI for JSON answers; records every call on the tracer."""

    def __init__(self, settings: LLMSettings, *, tracer: Tracer | None = None) -> None:
        self.settings = settings
        self.tracer = tracer or Tracer(settings.prices)
        key = settings.api_key.get_secret_value() if settings.api_key else "not-needed"
        self._client = AsyncOpenAI(
            api_key=key,
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=settings.max_retries,
        )
        self.format: Format = "json_object" if settings.structured_output == "json_object" else "json_schema"
        self._wall = time.monotonic() + settings.deadline_s if settings.deadline_s is not None else None

    async def aclose(self) -> None:
        await self._client.close()

    async def list_models(self) -> list[str]:
        """The model ids the endpoint lists (`waypost doctor`: is it there, does it know the model)."""
        try:
            page = await self._client.models.list()
        except openai.APIError as exc:
            raise _unavailable(exc) from exc
        except ValueError as exc:
            raise LLMUnavailable("malformed_response", str(exc)[:300]) from exc
        return [m.id for m in page.data]

    @property
    def embeddings_configured(self) -> bool:
        return self.settings.configured and bool(self.settings.embedding_model)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """One vector per text from the endpoint's /embeddings (RETRIEVE fuses them with BM25)."""
        model = self.settings.embedding_model
        if not model:
            raise LLMUnavailable("no_embedding_model", "set WAYPOST_EMBEDDING_MODEL")
        if not texts:
            return []
        try:
            response = await self._client.embeddings.create(model=model, input=scrub_data(texts))
        except openai.APIError as exc:
            raise _unavailable(exc) from exc
        except ValueError as exc:
            raise LLMUnavailable("malformed_response", str(exc)[:300]) from exc
        vectors = [list(item.embedding) for item in sorted(response.data, key=lambda d: d.index)]
        if len(vectors) != len(texts):
            raise LLMUnavailable("malformed_response", f"{len(vectors)} vectors for {len(texts)} texts")
        usage = getattr(response, "usage", None)
        spent = getattr(usage, "prompt_tokens", None) if usage is not None else None
        estimated = spent is None
        metering.report(
            sum(metering.estimate_tokens(t) for t in texts) if spent is None else int(spent),
            0,
            estimated=estimated,
        )
        return vectors

    async def complete_json(
        self, messages: list[dict[str, Any]], output: type[M], *, purpose: str, schema_name: str
    ) -> M:
        """A validated `output`, repairing bad answers up to `max_repairs` times."""
        convo = list(messages)
        reason = "invalid_json"
        for attempt in range(1, self.settings.max_repairs + 2):
            content, call = await self._request(convo, output, schema_name, purpose, attempt)
            try:
                data = parse_json_object(content)
            except ValueError as exc:
                reason, error = "invalid_json", f"not a JSON object: {exc}"
            else:
                try:
                    result = output.model_validate(data)
                except ValidationError as exc:
                    reason, error = "schema_invalid", f"does not match the schema: {exc}"
                else:
                    call.parsed_output = data
                    self.tracer.call(call)
                    return result
            call.error = reason
            self.tracer.call(call)
            convo += [
                {"role": "assistant", "content": content},
                {"role": "user", "content": f"Your reply {error[:1500]}\nReply again with only the corrected "
                 "JSON object, nothing else."},
            ]  # fmt: skip
        raise LLMOutputInvalid(reason, f"after {self.settings.max_repairs + 1} attempts")

    async def _request(
        self, convo: list[dict[str, Any]], output: type[BaseModel], name: str, purpose: str, attempt: int
    ) -> tuple[str, ModelCall]:
        while True:
            fmt = self.format
            response_format: dict[str, Any] = (
                {
                    "type": "json_schema",
                    "json_schema": {"name": name, "strict": True, "schema": _strict_schema(output)},
                }
                if fmt == "json_schema"
                else {"type": "json_object"}
            )
            messages = convo if fmt == "json_schema" else _with_schema_hint(convo, output)
            call = self._call(purpose, fmt, messages, attempt)
            try:
                response = await self._send(call, {"response_format": response_format})
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if (
                    fmt == "json_schema"
                    and self.settings.structured_output == "auto"
                    and _FORMAT_WORDS.search(str(exc.message))
                ):
                    self.format = "json_object"
                    self.tracer.event("note", message="server rejected json_schema; using json_object")
                    continue
                raise LLMUnavailable("bad_request", exc.message[:300]) from exc
            message = _first_message(response)
            content = getattr(message, "content", None)
            call.raw_output = content if isinstance(content, str) else None
            return call.raw_output or "", call

    async def chat(self, messages: list[dict[str, Any]], *, purpose: str) -> str:
        """A plain answer (no output format): probes and free text. Any failure is LLMUnavailable."""
        call = self._call(purpose, "none", messages, 1)
        try:
            response = await self._send(call, {})
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            raise LLMUnavailable("bad_request", exc.message[:300]) from exc
        content = getattr(_first_message(response), "content", None)
        call.raw_output = content if isinstance(content, str) else None
        self.tracer.call(call)
        return call.raw_output or ""

    async def complete_tool_call(
        self, messages: list[dict[str, Any]], tools: Sequence[type[BaseModel]], *, purpose: str
    ) -> BaseModel:
        """Asks the model to call exactly one of `tools` (pydantic models as function schemas).

        For servers that do function calling better than structured output; an unknown tool or
        invalid arguments are fed back like malformed JSON, within the same repair budget.
        """
        by_name = {tool_name(t): t for t in tools}
        specs = [
            {
                "type": "function",
                "function": {
                    "name": name,
                    "description": " ".join((tool.__doc__ or name).split())[:1000],
                    "parameters": _strict_schema(tool),
                    "strict": True,
                },
            }
            for name, tool in by_name.items()
        ]
        convo = list(messages)
        for attempt in range(1, self.settings.max_repairs + 2):
            call = self._call(purpose, "tools", convo, attempt)
            try:
                response = await self._send(call, {"tools": specs, "tool_choice": "required"})
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                raise LLMUnavailable("bad_request", exc.message[:300]) from exc
            name, arguments = _first_tool_call(response)
            call.raw_output = f"{name}({arguments})" if name else None
            try:
                if name not in by_name:
                    raise ValueError(f"no tool named {name!r}")
                result = by_name[name].model_validate_json(arguments or "{}")
            except ValueError as exc:
                call.error = "invalid_tool_call"
                self.tracer.call(call)
                convo += [
                    {
                        "role": "user",
                        "content": f"Your tool call was invalid: {str(exc)[:1500]}\n"
                        f"Call exactly one of: {', '.join(by_name)}.",
                    }
                ]
                continue
            call.parsed_output = {"tool": name, "arguments": result.model_dump(mode="json")}
            self.tracer.call(call)
            return result
        raise LLMOutputInvalid("invalid_tool_call", f"after {self.settings.max_repairs + 1} attempts")

    def _call(self, purpose: str, fmt: CallFormat, messages: list[dict[str, Any]], attempt: int) -> ModelCall:
        params = {"temperature": self.settings.temperature, "timeout_s": self.settings.timeout_s}
        return ModelCall(
            purpose=purpose,
            model=self.settings.model,
            params=params,
            response_format=fmt,
            messages=scrub_data(messages),  # nothing a page echoed reaches the model
            attempt=attempt,
        )

    async def _send(self, call: ModelCall, extra: dict[str, Any]) -> ChatCompletion:
        """One request. Bad requests are re-raised for the caller; other failures become LLMUnavailable."""
        started = time.perf_counter()
        temperature = self.settings.temperature
        left = None if self._wall is None else self._wall - time.monotonic()
        try:
            if left is not None and left <= 0:
                raise TimeoutError
            async with asyncio.timeout(left):  # None: only the per-call timeout and retries
                response: ChatCompletion = await self._client.chat.completions.create(
                    model=self.settings.model,
                    messages=cast("list[ChatCompletionMessageParam]", call.messages),
                    temperature=temperature if temperature is not None else openai.omit,
                    **extra,
                )
        except TimeoutError:
            self._failed(call, started, "deadline")
            why = f"model calls passed their {self.settings.deadline_s} s deadline"
            raise LLMUnavailable("deadline", why) from None
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            self._failed(call, started, f"http {exc.status_code}: {exc.message[:300]}")
            raise
        except openai.APIError as exc:
            self._failed(call, started, type(exc).__name__)
            raise _unavailable(exc) from exc
        except ValueError as exc:  # a body that is not JSON at all
            self._failed(call, started, f"malformed response body: {exc}")
            raise LLMUnavailable("malformed_response", str(exc)[:300]) from exc
        call.latency_ms = (time.perf_counter() - started) * 1000
        _count_usage(call, response)
        return response

    def _failed(self, call: ModelCall, started: float, error: str) -> None:
        call.latency_ms = (time.perf_counter() - started) * 1000
        call.error = error
        self.tracer.call(call)


def _count_usage(call: ModelCall, response: Any) -> None:
    """The server's usage when it sends one, else an estimate; charged to the open token meters."""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None) if usage is not None else None
    completion = getattr(usage, "completion_tokens", None) if usage is not None else None
    if prompt is None and completion is None:
        message = _first_message(response)
        said = str(getattr(message, "content", None) or "")
        calls = getattr(message, "tool_calls", None) or []
        said += "".join(str(getattr(getattr(c, "function", None), "arguments", "") or "") for c in calls)
        call.tokens_in = metering.estimate_prompt(call.messages)
        call.tokens_out = metering.estimate_tokens(said)
        call.estimated = True
    else:
        call.tokens_in = int(prompt or 0)
        call.tokens_out = int(completion or 0)
    metering.report(call.tokens_in, call.tokens_out, estimated=call.estimated)


def tool_name(tool: type[BaseModel]) -> str:
    """Function name of a tool model: its class name in snake_case (RequestInfo -> request_info)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", tool.__name__).lower()


def _first_message(response: Any) -> Any:
    choices = getattr(response, "choices", None) or []
    return getattr(choices[0], "message", None) if choices else None


def _first_tool_call(response: Any) -> tuple[str, str]:
    calls = getattr(_first_message(response), "tool_calls", None) or []
    function = getattr(calls[0], "function", None) if calls else None
    return str(getattr(function, "name", "") or ""), str(getattr(function, "arguments", "") or "")


def _with_schema_hint(convo: list[dict[str, Any]], output: type[BaseModel]) -> list[dict[str, Any]]:
    hint = (
        "Reply with one JSON object only (no prose, no code fence) that validates against this JSON "
        f"schema:\n{json.dumps(_strict_schema(output), separators=(',', ':'))}"
    )
    return [{"role": "system", "content": hint}, *convo]


def _unavailable(exc: openai.APIError) -> LLMUnavailable:
    if isinstance(exc, openai.APITimeoutError):
        return LLMUnavailable("timeout", str(exc))
    if isinstance(exc, openai.APIConnectionError):
        return LLMUnavailable("unreachable", str(exc))
    if isinstance(exc, openai.RateLimitError):
        return LLMUnavailable("rate_limited", exc.message[:300])
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return LLMUnavailable("auth", exc.message[:300])
    if isinstance(exc, openai.APIStatusError):
        return LLMUnavailable("server_error", f"http {exc.status_code}")
    return LLMUnavailable("api_error", str(exc)[:300])
