""" "Don't submit" quarantines the page once a value is typed. Found, while the answer said "NOT
submitted": keepalive fetches on pagehide/visibilitychange sent the declared password and the email as
the run closed; dedicated and shared workers sent the plain value at run end; the value reversed,
hex-encoded, split in 3-character chunks or base64 behind a prefix went out over image, fetch,
EventSource, WebSocket, prefetch, CSS and window.open; a WebRTC TURN username carried it over UDP; an
email field named `q` counted as a search field; the value left in the Referer after
history.replaceState. Now nothing the page sends after typing leaves, through the run's end."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import pytest

from tests.security.exfil import EMAIL
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite
from tests.support.ws_server import SocketServer

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SECRET = "Zq7-horse-PASS-91x"
#: How long after the run's end a late request (a keepalive fetch, a resumed worker) may still come.
LATE_S = 1.5


@pytest.fixture
def udp() -> Iterator[socket.socket]:
    """A UDP port a page's WebRTC may try to reach (a TURN server that only listens)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock


def _received(sock: socket.socket, within_s: float) -> bytes:
    sock.settimeout(within_s)
    try:
        return sock.recvfrom(4096)[0]
    except TimeoutError:
        return b""


@pytest.mark.parametrize("typed", ["email", "password"])
async def test_nothing_the_page_sends_after_typing_leaves_through_the_runs_end(
    act_harness: ActHarness, site: FixtureSite, sockets: SocketServer, udp: socket.socket, typed: str
) -> None:
    act_harness.secrets = {"pw": SECRET}
    with FixtureSite() as other:
        port = udp.getsockname()[1]
        page = site.url(f"/hostile/exfil.html?to={other.base_url}&ws={sockets.url}&udp={port}")
        fill = {"kind": "fill", "target": {"label": "Email"}, "value": EMAIL}
        if typed == "password":
            fill = {"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:pw}}"}
        step = {"step_id": "a1", "type": "ACT", "inputs": {"url": page, "actions": [fill]}}
        plan = act_plan([step], no_submit=True)
        assert plan.task is not None
        task = plan.task.model_copy(update={"payload": {"pw": "{{secret:pw}}"}})
        plan = plan.model_copy(update={"task": task})
        mark = len(site.get_requests())
        bundle = await act_harness.run(plan, confirm=Answer())
        late = await asyncio.to_thread(other.wait_for_get, "/", LATE_S)  # a keepalive, a worker
        assert not late, other.get_requests()  # nothing reached the other origin, before or after
        assert _received(udp, 0.1) == b""  # no TURN allocation carried the value
        assert sockets.messages == []
        assert not any(g.startswith("/referer-probe") for g in site.get_requests()[mark:])
        (record,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
        assert record.outcome.status == "blocked"  # the page's attempts are reported with the fill
        assert "quarantined" in record.outcome.message
