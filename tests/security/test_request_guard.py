""" "Don't submit" means no typed value leaves the browser. Found: under no_submit a GET form (after
the page turned the script guard off), an image beacon, a fetch and a link carried the typed value
out, and the answer still said nothing was submitted."""

from __future__ import annotations

import pytest

from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

EMAIL = "ada.lovelace.7731@example.org"
OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": ["submit"]}]


async def test_no_typed_value_leaves_the_page_under_no_submit(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    actions = [
        {"kind": "fill", "target": {"label": "Email"}, "value": EMAIL},
        {"kind": "click", "target": {"text": "Share"}},  # blur: change -> fetch + form.submit(); link
    ]
    inputs = {"url": site.url("/hostile/beacon.html"), "actions": actions}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE, no_submit=True)
    site.clear_posts()
    mark = len(site.get_requests())  # the site is shared: only this run's requests count
    bundle = await act_harness.run(plan, confirm=Answer())
    gets = site.get_requests()[mark:]
    assert any(g.startswith("/hostile/beacon.html") for g in gets)
    leaked = [g for g in gets if "7731" in g or "ada.lovelace" in g or "YWRh" in g]
    assert leaked == [], leaked
    assert site.post_count() == 0
    records = act_harness.actions(bundle)
    blocked = " ".join(r.outcome.message for r in records if r.outcome.status == "blocked")
    assert "carries a typed value" in blocked  # each blocked request is reported
    assert EMAIL not in bundle.model_dump_json()


async def test_a_get_search_form_still_works_under_no_submit(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    actions = [
        {"kind": "fill", "target": {"label": "Search books"}, "value": "dune herbert"},
        {"kind": "press", "target": {"label": "Search books"}, "key": "Enter"},
    ]
    inputs = {"url": site.url("/search.html"), "actions": actions}
    gates = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=gates, no_submit=True)
    mark = len(site.get_requests())
    await act_harness.run(plan, confirm=Answer())
    assert any(g.startswith("/results.html?q=dune") for g in site.get_requests()[mark:])
