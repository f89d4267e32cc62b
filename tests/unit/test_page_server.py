"""The page sites' server: a browser that hung up on a held reply is not a traceback in some other
test's stderr (found: the bad-input sweep failed on the slow page's BrokenPipeError, printed by the
session-wide site while that test's stderr was captured)."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from tests.support.http_reply import PageServer


def test_a_client_that_hung_up_prints_nothing_and_a_real_error_still_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = PageServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    try:
        for error in (
            BrokenPipeError(32, "Broken pipe"),
            ConnectionResetError(104, "reset"),
            ValueError("a bug"),
        ):
            try:
                raise error
            except (ConnectionError, ValueError):
                server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    err = capsys.readouterr().err
    assert "Broken pipe" not in err and "reset" not in err
    assert "ValueError: a bug" in err
