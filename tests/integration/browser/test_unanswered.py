"""A form post still waiting for the server's answer, in a real Chromium: the driver knows, and an
action that left one waiting is journaled as sent but not settled (docs/architecture.md, "Actions in
flight"): a resume then treats its outcome as unknown instead of taking the click as done."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from browser.driver import PlaywrightDriver
from browser.models import parse_action
from executor.act.intent import Intent
from executor.act.perform import ActEnv, Performed, capture_before, perform
from executor.act.progress import StepProgress
from executor.journal.views import receipts_journal
from receipts.recorder import JsonlRecorder
from tests.integration.browser._helpers import act
from tests.support.fault_site import FaultSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest.fixture
def fault_site() -> AsyncIterator[FaultSite]:  # type: ignore[misc]
    with FaultSite() as site:
        yield site


class Saves:
    """An IntentLog that keeps what was saved, in order."""

    def __init__(self) -> None:
        self.saved: list[tuple[Intent | None, bool]] = []

    async def save(self, outputs: dict[str, Any], *, settled: bool, last_url: str | None) -> None:
        self.saved.append((Intent.from_outputs(outputs), settled))


@pytest_asyncio.fixture(loop_scope="session")
async def recorder(tmp_path: Path) -> AsyncIterator[JsonlRecorder]:
    async with await JsonlRecorder.open(tmp_path / "run_unanswered", fsync=False) as rec:
        yield rec


async def _journaled_click(
    driver: PlaywrightDriver, recorder: JsonlRecorder, run_dir: Path, page: str, button: str
) -> tuple[asyncio.Future[Performed], Saves]:
    """On `page`, a click on `button` performed by an act step whose intents are kept in a Saves."""
    saves = Saves()
    env = ActEnv(
        driver=driver, recorder=recorder, journal=receipts_journal(recorder.run_id, recorder),
        run_id=recorder.run_id, step_id="s1", run_dir=run_dir,
        progress=StepProgress(), intents=saves, listed=True,
    )  # fmt: skip
    await act(driver, "navigate", url=page)
    click = parse_action({"kind": "click", "target": {"role": "button", "name": button}})
    return asyncio.ensure_future(perform(env, click, None, await capture_before(env))), saves


async def _sent(site: FaultSite, path: str) -> None:
    """Waits (off the loop) until the server has the POST: the route let it through, so the browser
    has reported the request to this process."""
    await asyncio.to_thread(site.wait_for_post, path)


async def test_the_driver_knows_a_post_still_waiting_for_its_answer(
    driver: PlaywrightDriver, fault_site: FaultSite
) -> None:
    await act(driver, "navigate", url=fault_site.url("/form-fetch"))
    assert driver.unanswered() == []
    click = await act(driver, "click", target={"role": "button", "name": "Send"})
    assert click.ok  # the page took the click and posts in the background; no answer comes
    await _sent(fault_site, "/submit-never")
    assert driver.unanswered() == [f"POST {fault_site.url('/submit-never')}"]


async def test_an_answered_post_is_not_waiting(driver: PlaywrightDriver, fault_site: FaultSite) -> None:
    await act(driver, "navigate", url=fault_site.url("/form"))
    await act(driver, "click", target={"role": "button", "name": "Send"})
    await act(driver, "wait", text="Received")
    assert driver.unanswered() == []


async def test_a_click_whose_post_waits_is_journaled_unsettled_with_the_post(
    driver: PlaywrightDriver, fault_site: FaultSite, recorder: JsonlRecorder, tmp_path: Path
) -> None:
    send, saves = await _journaled_click(driver, recorder, tmp_path, fault_site.url("/form-fetch"), "Send")
    await _sent(fault_site, "/submit-never")
    done = await send
    assert done.outcome.ok
    assert all(not settled for _, settled in saves.saved)  # never settled: nobody saw the answer
    last = saves.saved[-1][0]
    assert last is not None and last.outcome is None
    assert last.awaiting == [f"POST {fault_site.url('/submit-never')}"]


async def test_a_click_that_sends_nothing_is_settled(
    driver: PlaywrightDriver, fault_site: FaultSite, recorder: JsonlRecorder, tmp_path: Path
) -> None:
    click, saves = await _journaled_click(driver, recorder, tmp_path, fault_site.url("/go"), "Go")
    await click
    assert [settled for _, settled in saves.saved] == [False, True]
