"""Navigation policy. Found: link-local addresses (the cloud metadata range 169.254.0.0/16) were
reachable from a run."""

from __future__ import annotations

import pytest

from browser.click_facts import ClickFacts, javascript_refusal
from browser.url_policy import UrlPolicy
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "https://169.254.1.1:8443/x",
        "http://[fe80::1]/",
        "ws://169.254.0.9/",
    ],
)
def test_link_local_addresses_are_refused(url: str) -> None:
    assert "link-local" in (UrlPolicy().check(url) or "")


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/", "https://example.org/", "http://10.0.0.1/"])
def test_other_hosts_pass_this_rule(url: str) -> None:
    assert UrlPolicy().check(url) is None


# Found: a `javascript:` link ran its script when clicked (no request, so the URL policy never saw it).


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_javascript_link_is_not_run_when_clicked(act_harness: ActHarness, site: FixtureSite) -> None:
    actions = [{"kind": "click", "target": {"role": "link", "name": "Read more"}}]
    inputs = {"url": site.url("/hostile/javascript_link.html"), "actions": actions}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    bundle = await act_harness.run(plan, confirm=Answer())
    (click,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert click.outcome.status == "blocked" and "javascript:" in click.outcome.message  # in the receipt
    assert not any("ran=javascript-link" in g for g in site.get_requests())


@pytest.mark.parametrize(
    "href", ["javascript:alert(1)", " JaVaScRiPt:x", "\x01javascript:x", "java\tscript:x", "jav\nascript:x"]
)
def test_javascript_urls_in_any_disguise_are_recognised(href: str) -> None:
    assert javascript_refusal(ClickFacts(href=href)) is not None
    assert "refused" in (UrlPolicy().check(href.strip()) or "refused")


def test_ordinary_links_are_not_javascript() -> None:
    assert javascript_refusal(ClickFacts(href="/javascript-guide.html")) is None
