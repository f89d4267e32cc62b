"""An ACT step whose page is a server error, a refused port or a redirect loop fails as OPEN_URL does.

Both step kinds go through the same browser; a person reading the status must not see SUCCESS for a
page that never loaded. Real `waypost` runs against the fault server.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.faults.harness import act_plan, waypost, write_plan
from tests.support.fault_site import FaultSite


def _closed_port_url() -> str:
    """A port nothing listens on: bound, then released."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/"


def _open_url_plan(url: str) -> dict[str, Any]:
    return {
        "mode": "A",
        "plan_status": "READY",
        "steps": [{"step_id": "stp_open", "type": "OPEN_URL", "name": "Open it", "inputs": {"url": url}}],
        "budget": {"max_time_ms": 30_000, "max_tool_calls": 10},
    }


def _listed_plan(url: str) -> dict[str, Any]:
    plan = act_plan(url, "Open the page", max_time_ms=30_000)
    plan["steps"][0]["inputs"] = {"actions": [{"kind": "navigate", "url": url}]}
    return plan


PAGES = {"server_error": "/status/500", "not_found": "/status/404", "redirect_loop": "/loop", "refused": None}
SHAPES = {
    "listed": _listed_plan,
    "open_url": _open_url_plan,
}


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("page", list(PAGES))
def test_act_on_a_broken_page_fails_like_open_url(
    page: str, shape: str, tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    path = PAGES[page]
    url = fault_site.url(path) if path else _closed_port_url()
    plan = write_plan(tmp_path, SHAPES[shape](url))
    outcome = waypost(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json", limit_s=90)
    table.append((outcome.status, outcome.seconds, f"posts {fault_site.posts()}"))
    assert "Traceback" not in outcome.err, outcome.err
    assert outcome.status == "FAILED", outcome.out + outcome.err
    assert outcome.sentence
