"""A local OpenAI-compatible `/v1/audio/transcriptions` server, driven by the real openai client.

It stands in for a local whisper server: the uploaded WAV is decoded with the offline engine, so an
endpoint test checks that real audio crossed the wire. Each request's model, language and file are
recorded; `fail_with` makes the next request answer with an HTTP error.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.http_reply import JSON, send_reply
from voice.audio import clip_from_wav_bytes
from voice.offline import PocketsphinxEngine


@dataclass
class TranscriptionRequest:
    model: str
    language: str | None
    filename: str
    audio: bytes


def _parts(content_type: str, body: bytes) -> dict[str, Message]:
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
    return {str(part.get_param("name", header="content-disposition")): part for part in message.iter_parts()}


class TranscriptionServer:
    def __init__(self) -> None:
        self.engine = PocketsphinxEngine()
        self.requests: list[TranscriptionRequest] = []
        self.fail_with: tuple[int, str] | None = None
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="stt-test-server", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> TranscriptionServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def answer(self, content_type: str, body: bytes) -> tuple[int, dict[str, Any]]:
        parts = _parts(content_type, body)

        def field(name: str) -> bytes | None:
            payload = parts[name].get_payload(decode=True) if name in parts else None
            return payload if isinstance(payload, bytes) else None

        audio = field("file") or b""
        language = field("language")
        request = TranscriptionRequest(
            model=(field("model") or b"").decode(),
            language=language.decode() if language is not None else None,
            filename=str(parts["file"].get_filename()),
            audio=audio,
        )
        with self._lock:
            self.requests.append(request)
            failure, self.fail_with = self.fail_with, None
        if failure is not None:
            return failure[0], {"error": {"message": failure[1], "type": "invalid_request_error"}}
        text = self.engine.transcribe_sync(clip_from_wav_bytes(audio)).text
        return 200, {"text": text}


def _handler_for(server: TranscriptionServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if not self.path.endswith("/audio/transcriptions"):
                status, payload = 404, {"error": {"message": f"no route {self.path}"}}
            else:
                status, payload = server.answer(self.headers.get("Content-Type", ""), body)
            send_reply(self, json.dumps(payload).encode(), status=status, content_type=JSON)

    return Handler
