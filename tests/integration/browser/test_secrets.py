"""A declared secret is typed for real and never comes back out of the driver."""

from __future__ import annotations

import pytest

from browser.models import OutcomeStatus, parse_action
from browser.options import BrowserPolicy
from common.secrecy import SecretVault
from tests.integration.browser._helpers import act
from tests.support.make_driver import MakeDriver
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SECRET = "Tr0ub4dor&3-horse"


async def test_secret_is_typed_but_absent_from_everything_returned(
    make_driver: MakeDriver, site: FixtureSite
) -> None:
    vault = SecretVault({"site_password": SECRET})
    vault.bind("site_password", origins=[site.url("/")], fields=["Full name"])  # the person named it
    driver = await make_driver(policy=BrowserPolicy(accept_dialogs=True), secrets=vault)
    await act(driver, "navigate", url=site.url("/form.html"))
    texts: list[str] = []
    fill = await act(driver, "fill", target={"label": "Full name"}, value="{{secret:site_password}}")
    assert fill.ok
    page = driver.session.page
    assert await page.locator("#full-name").input_value() == SECRET  # really typed
    texts.append(fill.model_dump_json())
    await act(driver, "click", target={"role": "button", "name": "Save draft"})  # echoes the name
    for action in (
        {"kind": "extract", "target": {"selector": "#status"}},
        {"kind": "extract"},
        {"kind": "extract", "what": "attribute", "attribute": "value", "target": {"label": "Full name"}},
        {"kind": "click", "target": {"text": SECRET}, "timeout_ms": 200},
    ):
        texts.append((await driver.perform(parse_action(action))).model_dump_json())
    observation = await driver.observe()
    texts.append(observation.model_dump_json())
    texts.append(observation.render())
    await page.evaluate("v => alert('your password is ' + v)", SECRET)
    texts.extend(d.model_dump_json() for d in driver.dialogs)
    capture = await driver.capture(screenshot=False)
    texts.append(capture.model_dump_json())
    joined = "\n".join(texts)
    assert SECRET not in joined
    assert "[REDACTED]" in joined


async def test_undeclared_secret_is_an_error_not_a_literal(
    make_driver: MakeDriver, site: FixtureSite
) -> None:
    driver = await make_driver(secrets=SecretVault({"known": "known-value-1"}))
    await act(driver, "navigate", url=site.url("/form.html"))
    outcome = await act(driver, "fill", target={"label": "Full name"}, value="{{secret:unknown}}")
    assert outcome.status is OutcomeStatus.ERROR
    assert await driver.session.page.locator("#full-name").input_value() == ""
