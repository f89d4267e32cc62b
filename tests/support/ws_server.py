"""A local WebSocket server (RFC 6455, stdlib only) that records what pages send and echoes it.

Threads on 127.0.0.1 (port 0). Every text or binary message received is kept, in order, and echoed
back as "echo:<message>", so a test sees both what left the page and that a socket still works.
Tests wait on `wait_for(n)` (a Condition), never on a timer.
"""

from __future__ import annotations

import base64
import hashlib
import socket
import socketserver
import struct
import threading
from types import TracebackType
from typing import BinaryIO

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class SocketServer:
    """Start, point a page at `url`, assert on `messages`, stop."""

    def __init__(self) -> None:
        self._got = threading.Condition()
        self.messages: list[bytes] = []
        self.connections = 0
        self.paths: list[str] = []  # each handshake's request target, as sent
        self._server: socketserver.ThreadingTCPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"ws://127.0.0.1:{self._server.server_address[1]}/feed"

    def start(self) -> SocketServer:
        owner = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                owner._serve(self.request)

        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="ws-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> SocketServer:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def wait_for(self, count: int, timeout_s: float = 30) -> bool:
        """True once `count` messages have arrived."""
        with self._got:
            return self._got.wait_for(lambda: len(self.messages) >= count, timeout_s)

    # --- protocol ---------------------------------------------------------------------------

    def _serve(self, conn: socket.socket) -> None:
        reader = conn.makefile("rb")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            line = reader.readline()
            if not line:
                return
            head += line
        key = next(
            (
                ln.split(b":", 1)[1].strip()
                for ln in head.split(b"\r\n")
                if ln.lower().startswith(b"sec-websocket-key:")
            ),
            None,
        )
        if key is None:
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            return
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        conn.sendall(
            b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n"
        )
        with self._got:
            self.connections += 1
            self.paths.append(head.split(b" ", 2)[1].decode("latin-1"))
        while (frame := _read_frame(reader)) is not None:
            opcode, payload = frame
            if opcode == 8:  # close
                conn.sendall(_frame(8, payload[:2]))
                return
            if opcode == 9:  # ping
                conn.sendall(_frame(10, payload))
                continue
            if opcode in (1, 2):
                with self._got:
                    self.messages.append(payload)
                    self._got.notify_all()
                conn.sendall(_frame(opcode, b"echo:" + payload))


def _read_frame(reader: BinaryIO) -> tuple[int, bytes] | None:
    read = reader.read
    header = read(2)
    if len(header) < 2:
        return None
    opcode, length = header[0] & 0x0F, header[1] & 0x7F
    if length == 126:
        (length,) = struct.unpack(">H", read(2))
    elif length == 127:
        (length,) = struct.unpack(">Q", read(8))
    mask = read(4) if header[1] & 0x80 else b"\0\0\0\0"
    data = read(length)
    return opcode, bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def _frame(opcode: int, payload: bytes) -> bytes:
    size = len(payload)
    if size < 126:
        head = struct.pack(">BB", 0x80 | opcode, size)
    elif size < 1 << 16:
        head = struct.pack(">BBH", 0x80 | opcode, 126, size)
    else:
        head = struct.pack(">BBQ", 0x80 | opcode, 127, size)
    return head + payload
