"""Each step's gate reaches the browser layer: submit blocked or allowed on the live session."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus, parse_action
from browser.options import BrowserPolicy
from executor.act.runner import step_policy
from executor.models import RunStatus
from receipts.layout import RunFolder
from receipts.models import DialogRecord
from receipts.report import read_records
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CREATE = parse_action({"kind": "click", "target": {"role": "button", "name": "Create account"}})


async def test_policy_changes_on_a_live_page(chromium: Browser, site: FixtureSite) -> None:
    site.clear_posts()
    driver = await PlaywrightDriver.on_browser(chromium)
    try:
        await driver.perform(parse_action({"kind": "navigate", "url": site.url("/signup.html")}))
        await driver.set_policy(step_policy(BrowserPolicy(), ["submit", "purchase"]))
        blocked = await driver.perform(CREATE)
        assert blocked.status is OutcomeStatus.BLOCKED and site.post_count() == 0
        await driver.set_policy(step_policy(BrowserPolicy(), ["purchase"]))  # a later step may submit
        sent = await driver.perform(CREATE)
        assert sent.status is OutcomeStatus.OK, sent.message
        assert site.post_count("/signup") == 1
        assert driver.policy.blocked_actions == ["purchase"]
    finally:
        await driver.close()


async def test_dialogs_during_an_action_join_the_receipts(act_harness: ActHarness, site: FixtureSite) -> None:
    actions = [{"kind": "click", "target": {"role": "button", "name": "Show alert"}}]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/dialogs.html"), "actions": actions}}]
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    records = read_records(RunFolder(act_harness.runs_dir / bundle.run_id))
    (dialog,) = [r for _, r in records if isinstance(r, DialogRecord)]
    assert dialog.dialog_type == "alert" and dialog.message == "Hello there" and dialog.step_id == "a1"
