"""Navigation policy, redirects. Found: a public server's 302 to a private address was followed
(Playwright's route sees only the first request of a redirect chain), also after a first
public-to-public hop. A made-up public name, public.test, is mapped to 127.0.0.1 for this module's
Chromium only, so a page can be "public" while the fixture site serves it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from browser.discovery import find_chromium
from browser.launch import chromium_args
from executor.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan
from tests.integration.act.conftest import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]
PUBLIC = "public.test"


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def public_chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        args = [*chromium_args(), f"--host-resolver-rules=MAP {PUBLIC} 127.0.0.1"]
        browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=args)
        yield browser
        await browser.close()


@pytest.fixture
def harness(public_chromium: Browser, tmp_path: Path) -> ActHarness:
    store = CheckpointStore(tmp_path / "runs" / "waypost.sqlite3")
    return ActHarness(browser=public_chromium, runs_dir=tmp_path / "runs", store=store)


def _public(site: FixtureSite, path: str) -> str:
    return site.url(path).replace("127.0.0.1", PUBLIC)


def _redirect(site: FixtureSite, to: str, *, public: bool = True) -> str:
    where = _public(site, "/redirect") if public else site.url("/redirect")
    return f"{where}?to={quote(to, safe='')}"


def _chain(site: FixtureSite, hops: int, to: str) -> str:
    """A public URL whose server redirects `hops` times (through public URLs) before reaching `to`."""
    for _ in range(hops):
        to = _redirect(site, to)
    return to


def _plan(start: str, go: str, *, also: str | None = None) -> ExecutionPlan:
    """Opens `start`, then a navigate action to `go`; `also`: a URL the task itself names."""
    steps = [{"step_id": "a1", "type": "ACT",
              "inputs": {"url": start, "actions": [{"kind": "navigate", "url": go}]}}]  # fmt: skip
    if also is not None:
        steps.append({"step_id": "a2", "type": "ACT",
                      "inputs": {"actions": [{"kind": "navigate", "url": also}]}})  # fmt: skip
    return act_plan(steps, gates=OPEN_GATE)


def _served(site: FixtureSite, path: str) -> bool:
    return any(g.startswith(path) for g in site.get_requests())


async def _hop(harness: ActHarness, plan: ExecutionPlan, go: str) -> tuple[str, str]:
    """The outcome of the navigate action to `go` (the step's own start is a navigate record too)."""
    bundle = await harness.run(plan, confirm=Answer())
    (navigate,) = [r for r in harness.actions(bundle) if r.action.get("url") == go]
    return navigate.outcome.status, navigate.outcome.message


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("hops", [1, 2])
async def test_a_public_servers_redirect_to_a_private_address_is_refused(
    harness: ActHarness, site: FixtureSite, hops: int
) -> None:
    """Directly, and after a first public-to-public redirect: every hop is judged."""
    private = site.url(f"/prices.html?redirected=private{hops}")
    go = _chain(site, hops, private)
    status, message = await _hop(harness, _plan(_public(site, "/index.html"), go), go)
    assert status == "blocked", message
    assert "refused 127.0.0.1: a private address, reached by a redirect from a public server" in message
    assert _served(site, "/redirect?to=" + quote(private, safe=""))  # the public server sent its 302 ...
    assert not _served(site, f"/prices.html?redirected=private{hops}")  # ... the browser never followed it


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_redirect_a_public_page_starts_is_refused_too(harness: ActHarness, site: FixtureSite) -> None:
    """A link on a public page (a navigation the page starts, not Waypost) into a two-hop chain."""
    private = site.url("/prices.html?redirected=by-link")
    start = _public(site, "/hostile/to_redirect.html") + "?to=" + quote(_chain(site, 2, private), safe="")
    click = [{"kind": "click", "target": {"role": "link", "name": "Router settings"}}]
    steps = [{"step_id": "a1", "type": "ACT", "inputs": {"url": start, "actions": click}}]
    bundle = await harness.run(act_plan(steps, gates=OPEN_GATE), confirm=Answer())
    (record,) = [r for r in harness.actions(bundle) if r.action["kind"] == "click"]
    assert record.outcome.status == "blocked", record.outcome.message
    assert "reached by a redirect from a public server" in record.outcome.message
    assert not _served(site, "/prices.html?redirected=by-link")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_redirect_between_public_pages_is_followed(harness: ActHarness, site: FixtureSite) -> None:
    target = _public(site, "/prices.html?hop=public")
    go = _chain(site, 2, target)
    status, message = await _hop(harness, _plan(_public(site, "/index.html"), go), go)
    assert (status, message) == ("ok", "HTTP 200")
    assert _served(site, "/prices.html?hop=public")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_task_that_names_a_private_address_follows_redirects_to_it(
    harness: ActHarness, site: FixtureSite
) -> None:
    """Its own redirects (local to local) and a public server's redirect to the address it names."""
    own = _redirect(site, site.url("/prices.html?hop=own"), public=False)
    status, message = await _hop(harness, _plan(site.url("/index.html"), own), own)
    assert (status, message) == ("ok", "HTTP 200")
    assert _served(site, "/prices.html?hop=own")
    via_public = _chain(site, 2, site.url("/prices.html?hop=named"))
    plan = _plan(_public(site, "/index.html"), via_public, also=site.url("/"))
    status, message = await _hop(harness, plan, via_public)
    assert (status, message) == ("ok", "HTTP 200")
    assert _served(site, "/prices.html?hop=named")
