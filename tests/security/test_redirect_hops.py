"""Navigation policy, redirects. Found: a public server's 302 to a private address was followed
(Playwright's route sees only the first request of a redirect chain), also after a first
public-to-public hop. A made-up public name, public.test, is mapped to 127.0.0.1 for this module's
Chromium only, so a page can be "public" while the fixture site serves it."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.async_api import Browser

from browser.hop_guard import PATTERNS, HopGuard
from browser.network_policy import PrivateNetworkGuard, is_private_url
from browser.session import BrowserSession
from planner.models import ExecutionPlan
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.public_web import OPEN_GATE, public_url
from tests.support.site import FixtureSite


def _redirect(site: FixtureSite, to: str, *, public: bool = True) -> str:
    where = public_url(site, "/redirect") if public else site.url("/redirect")
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
    status, message = await _hop(harness, _plan(public_url(site, "/index.html"), go), go)
    assert status == "blocked", message
    assert "refused 127.0.0.1: a private address, reached by a redirect from a public server" in message
    assert _served(site, "/redirect?to=" + quote(private, safe=""))  # the public server sent its 302 ...
    assert not _served(site, f"/prices.html?redirected=private{hops}")  # ... the browser never followed it


def _link_page(site: FixtureSite, mark: str, *, new_tab: bool = False) -> str:
    """A public page whose "Router settings" link goes through two public redirects to a private page."""
    private = site.url(f"/prices.html?redirected={mark}")
    start = public_url(site, "/hostile/to_redirect.html") + "?to=" + quote(_chain(site, 2, private), safe="")
    return start + ("&blank=1" if new_tab else "")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_redirect_a_public_page_starts_is_refused_too(harness: ActHarness, site: FixtureSite) -> None:
    """A link on a public page (a navigation the page starts, not Waypost) into a two-hop chain."""
    click = [{"kind": "click", "target": {"role": "link", "name": "Router settings"}}]
    inputs = {"url": _link_page(site, "by-link"), "actions": click}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    bundle = await harness.run(plan, confirm=Answer())
    (record,) = [r for r in harness.actions(bundle) if r.action["kind"] == "click"]
    assert record.outcome.status == "blocked", record.outcome.message
    assert "reached by a redirect from a public server" in record.outcome.message
    assert not _served(site, "/prices.html?redirected=by-link")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_redirect_in_a_new_tab_is_refused(public_chromium: Browser, site: FixtureSite) -> None:
    """A popup's first navigation starts before Waypost sees the tab: the browser-wide guard still
    judges its hops. (The click itself ends before the popup loads, so the refusal is the session's
    guard event, not the click's outcome.)"""
    session = await BrowserSession.on_browser(public_chromium)
    try:
        await session.page.goto(_link_page(site, "in-new-tab", new_tab=True))
        async with session.context.expect_event("requestfailed") as failed:
            await session.page.get_by_role("link", name="Router settings").click()
        assert "redirected=in-new-tab" in (await failed.value).url
    finally:
        await session.close()
    (event,) = session.guard_events
    assert event.navigation and "reached by a redirect from a public server" in event.detail
    assert not _served(site, "/prices.html?redirected=in-new-tab")


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_redirect_between_public_pages_is_followed(harness: ActHarness, site: FixtureSite) -> None:
    target = public_url(site, "/prices.html?hop=public")
    go = _chain(site, 2, target)
    status, message = await _hop(harness, _plan(public_url(site, "/index.html"), go), go)
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
    plan = _plan(public_url(site, "/index.html"), via_public, also=site.url("/"))
    status, message = await _hop(harness, plan, via_public)
    assert (status, message) == ("ok", "HTTP 200")
    assert _served(site, "/prices.html?hop=named")


@pytest.mark.parametrize(
    ("url", "source", "allow", "refused"),
    [
        ("http://127.0.0.1/a", None, False, True),  # the hop before did not pause: a public host
        ("http://10.0.0.1/a", "https://example.org/?u=http://10.0.0.1", False, True),  # paused, public
        ("http://127.0.0.1/b", "http://127.0.0.1/a", False, False),  # a local site's own redirect
        ("https://example.org/?u=http://127.0.0.1", None, False, False),  # a pattern's false match
        ("http://192.168.1.1/", None, True, False),  # the task names a private address
    ],
)
@pytest.mark.asyncio(loop_scope="session")
async def test_which_hops_are_refused(url: str, source: str | None, allow: bool, refused: bool) -> None:
    hops = HopGuard()  # not attached to a browser: only the judgement runs
    await hops.watch(PrivateNetworkGuard(allow_private=allow), lambda _reason, _url, _navigation: None)
    assert bool(hops._refusing(url, source)) is refused


def _matches(pattern: str, url: str) -> bool:
    """Fetch's urlPattern: `*` is any run of characters, `?` one character, nothing else is special."""
    return re.fullmatch(re.escape(pattern).replace(r"\*", ".*").replace(r"\?", "."), url) is not None


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8080/a", "http://10.1.2.3/", "http://172.16.0.1/", "http://172.31.255.255/",
     "http://192.168.1.1/admin", "http://0.0.0.0/", "http://[::1]:9000/", "https://[::]/", "http://[fc00::1]/",
     "http://[fd12:3456::1]/", "http://[::ffff:7f00:1]/", "http://localhost:3000/", "http://app.localhost/",
     "http://user:pw@10.0.0.1/", "ws://127.0.0.1/socket"],
)  # fmt: skip
def test_every_private_host_pauses_in_the_guard(url: str) -> None:
    """As Chromium writes them (canonical hosts): each URL naming a private host pauses."""
    assert is_private_url(url)
    assert any(_matches(p, url) for p in PATTERNS)


@pytest.mark.parametrize("url", ["https://example.org/", "http://172.32.0.1/", "http://11.0.0.1/x?y=1"])
def test_public_hosts_never_pause(url: str) -> None:
    assert not any(_matches(p, url) for p in PATTERNS)
