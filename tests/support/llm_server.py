"""A local OpenAI-compatible chat completions server, scripted per test, driven by the real client.

Stdlib only: a ThreadingHTTPServer on 127.0.0.1 in a daemon thread. Each request takes the next
scripted Reply (or asks `responder`); every request is recorded for assertions. A held answer waits
on a threading.Event the test sets, never on a timer. A slow model is simulated by `speed`: the
server reads the prompt and writes the reply at the tokens per second a laptop's model does (4
characters a token), so a test sees a real slow endpoint; streamed requests (`stream: true`) get
their reply as server-sent events, a token at a time.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.http_reply import JSON, send_reply


@dataclass
class Reply:
    """One scripted answer: a message (content and/or tool calls), an HTTP error, or a raw body."""

    content: str | None = None
    status: int = 200
    error_message: str = ""
    error_type: str = "invalid_request_error"
    tool_calls: list[dict[str, Any]] | None = None
    usage: tuple[int, int] = (12, 7)
    wait: threading.Event | None = None
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: str | None = None
    #: The server-side refusal field (OpenAI structured outputs), and why generation stopped.
    refusal: str | None = None
    finish_reason: str | None = None

    @classmethod
    def json(cls, obj: Any, usage: tuple[int, int] = (12, 7)) -> Reply:
        return cls(content=json.dumps(obj), usage=usage)

    @classmethod
    def error(cls, status: int, message: str, error_type: str = "invalid_request_error") -> Reply:
        # retry-after-ms keeps the client's own retry backoff short in tests.
        return cls(
            status=status, error_message=message, error_type=error_type, headers={"retry-after-ms": "1"}
        )

    @classmethod
    def tool(cls, name: str, arguments: dict[str, Any]) -> Reply:
        call = {
            "id": f"call_{name}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        return cls(tool_calls=[call])


@dataclass(frozen=True)
class Speed:
    """A simulated model's speed: prompt tokens read and reply tokens written per second."""

    prompt_tps: float = 1_000.0
    generation_tps: float = 5.0


def count_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    raw: bytes = b""  # the request body as it arrived, for byte-level sweeps

    @property
    def response_format(self) -> str | None:
        fmt = self.body.get("response_format")
        return fmt.get("type") if isinstance(fmt, dict) else None

    @property
    def text(self) -> str:
        """Everything the model was sent, as one string (for "secret never sent" checks)."""
        return json.dumps(self.body, ensure_ascii=False)


class ScriptedLLMServer:
    """Start, script replies, run the code under test, assert on `requests`, stop."""

    def __init__(self) -> None:
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self.reject_json_schema = False
        self.model_ids = ["test-model"]
        #: None: answers at once; else every reply is read and written at this speed.
        self.speed: Speed | None = None
        self._stopping = threading.Event()
        self._events: list[threading.Event] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="llm-test-server",
            daemon=True,
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> ScriptedLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # a throttled reply still being written ends at once
        for event in self._events:
            event.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            for reply in replies:
                if reply.wait is not None:
                    self._events.append(reply.wait)
                self._replies.append(reply)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._replies)

    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _next(self, body: dict[str, Any]) -> Reply:
        fmt = body.get("response_format")
        if self.reject_json_schema and isinstance(fmt, dict) and fmt.get("type") == "json_schema":
            return Reply.error(400, "response_format 'json_schema' is not supported by this server")
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        if self.responder is not None:
            return self.responder(body)
        return Reply.error(500, "the test scripted no reply for this request", "server_error")

    def _record(self, path: str, headers: dict[str, str], body: dict[str, Any], raw: bytes = b"") -> None:
        with self._lock:
            self.requests.append(RecordedRequest(path=path, headers=headers, body=body, raw=raw))


def _completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content}
    if reply.tool_calls:
        message["tool_calls"] = reply.tool_calls
    if reply.refusal is not None:
        message["refusal"] = reply.refusal
    prompt, completion = reply.usage
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish,
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


EMBED_DIM = 64


def embed_text(text: str) -> list[float]:
    """A deterministic bag-of-words vector (hashed words), so tests can predict cosine rankings."""
    vector = [0.0] * EMBED_DIM
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.sha1(word.encode()).hexdigest(), 16) % EMBED_DIM] += 1.0
    return vector


def _embeddings(body: dict[str, Any]) -> dict[str, Any]:
    """/v1/embeddings: one hashed bag-of-words vector per input, in order."""
    inputs = body.get("input", [])
    texts = [inputs] if isinstance(inputs, str) else list(inputs)
    data = [{"object": "embedding", "index": i, "embedding": embed_text(t)} for i, t in enumerate(texts)]
    tokens = sum(len(t.split()) for t in texts)
    usage = {"prompt_tokens": tokens, "total_tokens": tokens}
    return {"object": "list", "data": data, "model": body.get("model", ""), "usage": usage}


def _handler_for(server: ScriptedLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, payload: str, headers: dict[str, str] | None = None) -> None:
            data = payload.encode()
            try:
                send_reply(self, data, status=status, content_type=JSON, headers=headers)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True  # the client gave up (a timeout test): nothing to answer

        def do_GET(self) -> None:
            server._record(self.path, {k.lower(): v for k, v in self.headers.items()}, {})
            if self.path.rstrip("/").endswith("/models"):
                data = [
                    {"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in server.model_ids
                ]
                self._send(200, json.dumps({"object": "list", "data": data}))
            else:
                self._send(404, json.dumps({"error": {"message": "not found", "type": "not_found"}}))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"_unparsed": raw.decode(errors="replace")}
            server._record(self.path, {k.lower(): v for k, v in self.headers.items()}, body, raw)
            if self.path.rstrip("/").endswith("/embeddings"):
                self._send(200, json.dumps(_embeddings(body)))
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, json.dumps({"error": {"message": "not found", "type": "not_found"}}))
                return
            reply = server._next(body)
            if reply.wait is not None:
                reply.wait.wait(timeout=30)
            if server.speed is not None and reply.status == 200 and reply.raw_body is None:
                reply = _at_speed(server, body, reply)
                if not body.get("stream"):
                    server._stopping.wait(reply.usage[1] / server.speed.generation_tps)
            if body.get("stream") and reply.status == 200 and reply.raw_body is None:
                self._stream(server, body, reply)
                return
            if reply.raw_body is not None:
                self._send(reply.status, reply.raw_body, reply.headers)
            elif reply.status != 200:
                error = {"error": {"message": reply.error_message, "type": reply.error_type, "code": None}}
                self._send(reply.status, json.dumps(error), reply.headers)
            else:
                self._send(200, json.dumps(_completion(body, reply)), reply.headers)

        def _stream(self, server: ScriptedLLMServer, body: dict[str, Any], reply: Reply) -> None:
            """Server-sent events, one token (4 characters) at a time (at the server's speed, if any)."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            text = reply.content or ""
            base = {"id": "chatcmpl-test", "object": "chat.completion.chunk", "created": int(time.time()),
                    "model": body.get("model", "test-model")}  # fmt: skip
            try:
                for start in range(0, len(text), 4):
                    if start and server.speed is not None:
                        server._stopping.wait(1 / server.speed.generation_tps)
                    delta = {"index": 0, "delta": {"content": text[start : start + 4]}, "finish_reason": None}
                    self._event({**base, "choices": [delta]})
                self._event({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                prompt, completion = reply.usage
                usage = {"prompt_tokens": prompt, "completion_tokens": completion,
                         "total_tokens": prompt + completion}  # fmt: skip
                if (body.get("stream_options") or {}).get("include_usage"):
                    self._event({**base, "choices": [], "usage": usage})
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def _event(self, data: dict[str, Any]) -> None:
            self.wfile.write(f"data: {json.dumps(data)}\n\n".encode())
            self.wfile.flush()

    return Handler


def _at_speed(server: ScriptedLLMServer, body: dict[str, Any], reply: Reply) -> Reply:
    """Reads the prompt at the server's speed and counts the reply as such a model would: its
    tokens from its length, cut at max_tokens (finish_reason "length")."""
    assert server.speed is not None
    prompt = count_tokens(json.dumps(body.get("messages", [])))
    server._stopping.wait(prompt / server.speed.prompt_tps)
    text = reply.content or ""
    limit = body.get("max_tokens") or body.get("max_completion_tokens")
    finish = reply.finish_reason
    if isinstance(limit, int) and count_tokens(text) > limit:
        text, finish = text[: limit * 4], "length"
    return replace(reply, content=text, usage=(prompt, count_tokens(text)), finish_reason=finish)


def unreachable_url() -> str:
    """A base URL on a loopback port that was free a moment ago: connecting is refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
