"""The one module that talks to a model: any OpenAI-compatible endpoint, structured output, repair.

- Structured output from a pydantic schema (response_format json_schema, strict). A server that
  rejects json_schema (a 400/422 naming response_format) is asked again in json_object mode with
  the schema in the prompt, and remembered as such for the rest of the client's life.
- Every call sends `max_tokens` sized to what it asks for. Output that is not JSON, or JSON that
  fails validation, is sent back with the error a bounded number of times (`max_repairs`); a
  refusal, a reply that repeats itself or one cut off at its limit is not (planner/llm_reply.py).
  Then LLMOutputInvalid, which callers turn into a rule fallback.
- 429/5xx/refused connections are retried here (`max_retries`, honouring retry-after); a call that
  timed out is never re-sent unchanged. What is left becomes LLMUnavailable with a reason code.
- `deadline_s` bounds every call one client makes, retries included (a planning phase): past it,
  LLMUnavailable("deadline"). `planner.model_time` bounds calls by the model's share of a run's
  time: past it, LLMUnavailable("model_time"). A cut call's tokens are counted from what was sent.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from pydantic import BaseModel, ValidationError

from common.lazy import lazy_module
from common.secrecy import scrub_data
from planner import metering, model_time
from planner.llm_format import (
    FORMAT_WORDS,
    finish_reason,
    first_message,
    first_tool_call,
    parse_json_object,
    strict_schema_cached,
    tool_name,
    tool_specs,
    with_schema_hint,
)
from planner.llm_reply import count_usage, fingerprint, new_call, refusal_in, retry_delay, unusable
from planner.llm_settings import LLMOutputInvalid, LLMSettings, LLMUnavailable
from planner.llm_speed import SpeedSample, StreamTiming
from planner.model_call import CallFormat, ModelCall

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
else:  # the model client is imported on first use: `waypost plan --planner rules` never needs it
    openai = lazy_module("openai")

M = TypeVar("M", bound=BaseModel)
Format = Literal["json_schema", "json_object"]


#: Errors worth another try after a pause: the endpoint is busy or restarting, not wrong or slow.
_RETRY_STATUS = frozenset({408, 409, 429})


class LLMClient:
    """A thin, typed wrapper around AsyncOpenAI for JSON answers; meters every call (planner/metering.py)."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
        key = settings.api_key.get_secret_value() if settings.api_key else "not-needed"
        self._client = openai.AsyncOpenAI(
            api_key=key,
            base_url=settings.base_url,
            timeout=settings.timeout_s,
            max_retries=0,  # retried in _send: never a request that timed out
        )
        self.format: Format = "json_object" if settings.structured_output == "json_object" else "json_schema"
        self._wall = time.monotonic() + settings.deadline_s if settings.deadline_s is not None else None
        #: Requests that timed out (fingerprints): sending one again unchanged would time out again.
        self._timed_out: set[str] = set()
        #: The name of the reply-length parameter the server takes (newer OpenAI models want the other).
        self._limit_name = "max_tokens"

    async def aclose(self) -> None:
        await self._client.close()

    async def list_models(self) -> list[str]:
        """The model ids the endpoint lists (`waypost doctor`: is it there, does it know the model)."""
        try:
            page = await self._client.with_options(max_retries=self.settings.max_retries).models.list()
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
            retrying = self._client.with_options(max_retries=self.settings.max_retries)
            response = await retrying.embeddings.create(model=model, input=scrub_data(texts))
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
        self,
        messages: list[dict[str, Any]],
        output: type[M],
        *,
        purpose: str,
        schema_name: str,
        max_tokens: int,
    ) -> M:
        """A validated `output`, repairing bad answers up to `max_repairs` times."""
        convo = list(messages)
        reason = "invalid_json"
        for attempt in range(1, self.settings.max_repairs + 2):
            content, call = await self._request(convo, output, schema_name, purpose, attempt, max_tokens)
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
                    return result
            call.error = reason
            convo += [
                {"role": "assistant", "content": content},
                {"role": "user", "content": f"Your reply {error[:1500]}\nReply again with only the corrected "
                 "JSON object, nothing else."},
            ]  # fmt: skip
        raise LLMOutputInvalid(reason, f"after {self.settings.max_repairs + 1} attempts")

    async def _request(
        self,
        convo: list[dict[str, Any]],
        output: type[BaseModel],
        name: str,
        purpose: str,
        attempt: int,
        max_tokens: int,
    ) -> tuple[str, ModelCall]:
        while True:
            fmt = self.format
            response_format: dict[str, Any] = (
                {
                    "type": "json_schema",
                    "json_schema": {"name": name, "strict": True, "schema": strict_schema_cached(output)},
                }
                if fmt == "json_schema"
                else {"type": "json_object"}
            )
            messages = convo if fmt == "json_schema" else with_schema_hint(convo, output)
            call = self._call(purpose, fmt, messages, attempt, max_tokens)
            try:
                response = await self._send(call, {"response_format": response_format}, max_tokens)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if (
                    fmt == "json_schema"
                    and self.settings.structured_output == "auto"
                    and FORMAT_WORDS.search(str(exc.message))
                ):
                    self.format = "json_object"
                    continue
                raise LLMUnavailable("bad_request", exc.message[:300]) from exc
            message = first_message(response)
            content = getattr(message, "content", None)
            call.raw_output = content if isinstance(content, str) else None
            self._refuse_unusable(call, call.raw_output or "", message, response)
            return call.raw_output or "", call

    def _refuse_unusable(self, call: ModelCall, said: str, message: Any, response: Any) -> None:
        """A refusal, a loop or a cut-off reply is no answer, and asking again would not make one."""
        refused = refusal_in(said, getattr(message, "refusal", None))
        reason = "refused" if refused is not None else unusable(said, finish_reason(response))
        if reason is None:
            return
        call.error = reason
        detail = {
            "refused": f"the model refused: {refused}",
            "repetitive": "the reply repeats itself",
            "cut_off": f"the reply ran past its {call.params.get('max_tokens')} token limit",
        }[reason]
        raise LLMOutputInvalid(reason, detail)

    async def chat(self, messages: list[dict[str, Any]], *, purpose: str, max_tokens: int) -> str:
        """A plain answer (no output format): probes and free text. Any failure is LLMUnavailable."""
        call = self._call(purpose, "none", messages, 1, max_tokens)
        try:
            response = await self._send(call, {}, max_tokens)
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            raise LLMUnavailable("bad_request", exc.message[:300]) from exc
        content = getattr(first_message(response), "content", None)
        call.raw_output = content if isinstance(content, str) else None
        return call.raw_output or ""

    async def complete_tool_call(
        self,
        messages: list[dict[str, Any]],
        tools: Sequence[type[BaseModel]],
        *,
        purpose: str,
        max_tokens: int,
    ) -> BaseModel:
        """Asks the model to call exactly one of `tools` (pydantic models as function schemas).

        For servers that do function calling better than structured output; an unknown tool or
        invalid arguments are fed back like malformed JSON, within the same repair budget.
        """
        by_name = {tool_name(t): t for t in tools}
        specs = tool_specs(by_name)
        convo = list(messages)
        for attempt in range(1, self.settings.max_repairs + 2):
            call = self._call(purpose, "tools", convo, attempt, max_tokens)
            try:
                response = await self._send(call, {"tools": specs, "tool_choice": "required"}, max_tokens)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                raise LLMUnavailable("bad_request", exc.message[:300]) from exc
            name, arguments = first_tool_call(response)
            message = first_message(response)
            said = getattr(message, "content", None)
            call.raw_output = f"{name}({arguments})" if name else said if isinstance(said, str) else None
            self._refuse_unusable(call, arguments if name else call.raw_output or "", message, response)
            try:
                if name not in by_name:
                    raise ValueError(f"no tool named {name!r}")
                result = by_name[name].model_validate_json(arguments or "{}")
            except ValueError as exc:
                call.error = "invalid_tool_call"
                convo += [
                    {
                        "role": "user",
                        "content": f"Your tool call was invalid: {str(exc)[:1500]}\n"
                        f"Call exactly one of: {', '.join(by_name)}.",
                    }
                ]
                continue
            call.parsed_output = {"tool": name, "arguments": result.model_dump(mode="json")}
            return result
        raise LLMOutputInvalid("invalid_tool_call", f"after {self.settings.max_repairs + 1} attempts")

    def _call(
        self, purpose: str, fmt: CallFormat, messages: list[dict[str, Any]], attempt: int, max_tokens: int
    ) -> ModelCall:
        return new_call(self.settings, purpose, fmt, messages, attempt, max_tokens)

    def _time_left(self) -> tuple[float | None, str]:
        """Seconds this call may take, and the reason code when they run out."""
        wall = None if self._wall is None else self._wall - time.monotonic()
        share = model_time.left_s()
        if share is not None and (wall is None or share < wall):
            return share, "model_time"
        return wall, "deadline"

    async def _send(self, call: ModelCall, extra: dict[str, Any], max_tokens: int) -> ChatCompletion:
        """One request, retried when the endpoint is busy; bad requests are re-raised for the caller,
        other failures become LLMUnavailable. A timed-out request is remembered and never re-sent."""
        temperature = self.settings.temperature
        retries = 0
        while True:
            body = {**extra, self._limit_name: max_tokens}
            key = fingerprint(self.settings.model, call.messages, body)
            left, why = self._time_left()
            started = time.perf_counter()
            if key in self._timed_out and not (left is not None and left <= 0):
                self._failed(call, started, "timed out before: not sent again")
                raise LLMUnavailable("timeout", "this request timed out before; not sent again unchanged")
            try:
                if left is not None and left <= 0:
                    raise TimeoutError
                async with asyncio.timeout(left):  # None: only the per-call timeout
                    response: ChatCompletion = await self._client.chat.completions.create(
                        model=self.settings.model,
                        messages=cast("list[ChatCompletionMessageParam]", call.messages),
                        temperature=temperature if temperature is not None else openai.omit,
                        extra_headers={"x-stainless-retry-count": str(retries)},
                        **body,
                    )
            except TimeoutError:
                if left is not None and left <= 0:
                    self._failed(call, started, why)
                else:
                    self._timed_out.add(key)
                    self._cut(call, started, why)
                raise LLMUnavailable(why, _TIME_WORDS[why].format(s=self.settings.deadline_s)) from None
            except openai.APITimeoutError:
                self._timed_out.add(key)
                self._cut(call, started, "timeout")
                raise LLMUnavailable("timeout", f"no answer within {self.settings.timeout_s} s") from None
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if self._limit_name == "max_tokens" and "max_completion_tokens" in str(exc.message):
                    self._limit_name = "max_completion_tokens"  # newer OpenAI models: same limit, new name
                    continue
                self._failed(call, started, f"http {exc.status_code}: {exc.message[:300]}")
                raise
            except openai.APIError as exc:
                if retries < self.settings.max_retries and _retryable(exc):
                    retries += 1
                    delay = retry_delay(retries, _headers(exc))
                    left_now, _ = self._time_left()
                    if left_now is None or delay < left_now:
                        await asyncio.sleep(delay)  # backoff the server asked for, not a synchronisation
                        continue
                self._failed(call, started, type(exc).__name__)
                raise _unavailable(exc) from exc
            except ValueError as exc:  # a body that is not JSON at all
                self._failed(call, started, f"malformed response body: {exc}")
                raise LLMUnavailable("malformed_response", str(exc)[:300]) from exc
            call.latency_ms = (time.perf_counter() - started) * 1000
            count_usage(call, response)
            return response

    async def measure_speed(self, messages: list[dict[str, Any]], *, max_tokens: int) -> SpeedSample:
        """One streamed request: the time to its first token gives the prompt speed, the tokens after
        it the generation speed (`waypost doctor`). Any failure is LLMUnavailable."""
        call = self._call("doctor", "none", messages, 1, max_tokens)
        started = time.perf_counter()
        timing = StreamTiming(started)
        try:
            async with asyncio.timeout(self.settings.timeout_s):
                body: dict[str, Any] = {self._limit_name: max_tokens}
                stream = await self._client.chat.completions.create(
                    model=self.settings.model,
                    messages=cast("list[ChatCompletionMessageParam]", call.messages),
                    stream=True,
                    stream_options={"include_usage": True},
                    **body,
                )
                async for chunk in stream:
                    timing.took(chunk)
        except (TimeoutError, openai.APITimeoutError):
            self._cut(call, started, "timeout")
            raise LLMUnavailable("timeout", f"no answer within {self.settings.timeout_s} s") from None
        except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
            self._failed(call, started, f"http {exc.status_code}")
            raise LLMUnavailable("bad_request", exc.message[:300]) from exc
        except openai.APIError as exc:
            self._failed(call, started, type(exc).__name__)
            raise _unavailable(exc) from exc
        sample = timing.sample(call)
        metering.report(call.tokens_in, call.tokens_out, estimated=call.estimated, ms=call.latency_ms)
        return sample

    def _failed(self, call: ModelCall, started: float, error: str) -> None:
        call.latency_ms = (time.perf_counter() - started) * 1000
        call.error = error

    def _cut(self, call: ModelCall, started: float, error: str) -> None:
        """A call cut at its time limit: the server read the prompt all the same, so it counts,
        estimated from what was sent (what it generated meanwhile is not known)."""
        call.tokens_in = metering.estimate_prompt(call.messages)
        call.estimated = True
        self._failed(call, started, error)
        metering.report(call.tokens_in, 0, estimated=True, ms=call.latency_ms)


_TIME_WORDS = {
    "deadline": "model calls passed their {s} s deadline",
    "model_time": "the model's share of the run's time is used up",
}


def _retryable(exc: openai.APIError) -> bool:
    if isinstance(exc, openai.APITimeoutError):
        return False
    if isinstance(exc, openai.APIConnectionError):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and (status in _RETRY_STATUS or status >= 500)


def _headers(exc: openai.APIError) -> dict[str, str]:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return {k.lower(): v for k, v in headers.items()} if headers is not None else {}


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
