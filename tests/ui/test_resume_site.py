"""The demo site's address is recorded with the plan, and a resume after a restart serves it there.

Two sessions share one run store, as a relaunch does; each has its own demo site. The first session's
address is taken from a free port, the second's from another, as when the fixed port was busy.
"""

from __future__ import annotations

import asyncio
import socket
import urllib.request
from collections.abc import Callable, Iterator

import pytest

from app.demo.server import DemoSite
from app.demo.sites import DemoSites
from executor.models import RunStatus
from executor.run.service import AgentCore
from tests.support.window import next_emit, research_then_act
from ui.controller import RunController
from ui.site_record import stamp_site


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def first_session_site() -> Iterator[DemoSite]:
    site = DemoSite(_free_port(), fallback=False).start()
    yield site
    site.stop()


async def _paused_run(core: AgentCore, site: DemoSite) -> str:
    """Session one: a plan made beside `site`, run to its gate, paused there (the app was closed)."""
    controller = RunController(core, site=DemoSites(site))
    planned = next_emit(controller.plan_ready)
    controller.plan_task(f"Research the datafeed packages on {site.url('/datafeed.html')}", planner="rules")
    (result,) = await asyncio.wait_for(planned, 10)
    context = result.plan.context
    assert context is not None and context.local_site == site.base_url  # recorded by planning
    await controller.wait_idle()
    asked = next_emit(controller.gate_requested)
    controller.run_plan(stamp_site(research_then_act(), site.base_url))
    await asyncio.wait_for(asked, 10)
    finished = next_emit(controller.run_finished)
    controller.pause()  # at a gate: the run ends NEEDS_CONFIRMATION, resumable
    (bundle,) = await asyncio.wait_for(finished, 10)
    assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION
    await controller.wait_idle()
    return str(bundle.run_id)


def _answers(url: str) -> bool:
    with urllib.request.urlopen(url, timeout=5) as response:
        return bool(response.status == 200)


async def test_resume_serves_the_demo_site_at_the_address_the_run_recorded(
    make_core: Callable[..., AgentCore], first_session_site: DemoSite
) -> None:
    first = make_core()
    run_id = await _paused_run(first, first_session_site)
    old_address = first_session_site.base_url
    plan = first.store.load_plan(run_id)
    assert plan.context is not None and plan.context.local_site == old_address  # in the run store
    first_session_site.stop()
    with DemoSite(None) as now:  # the relaunch got another port
        sites = DemoSites(now)
        try:
            controller = RunController(make_core(), site=sites)
            finished = next_emit(controller.run_finished)
            controller.resume_run(run_id, approve_pending=True)
            (bundle,) = await asyncio.wait_for(finished, 10)
            assert bundle.run_status is RunStatus.SUCCESS
            assert now.base_url != old_address
            assert _answers(old_address + "/datafeed.html")  # the run's pages are where it left them
        finally:
            sites.close()


async def test_resume_says_why_when_the_recorded_port_is_taken(
    make_core: Callable[..., AgentCore], first_session_site: DemoSite
) -> None:
    first = make_core()
    run_id = await _paused_run(first, first_session_site)
    with DemoSite(None) as now:  # the old address still answers, but for another program
        controller = RunController(make_core(), site=DemoSites(now))
        failed = next_emit(controller.failed)
        controller.resume_run(run_id, approve_pending=True)
        (message,) = await asyncio.wait_for(failed, 10)
        await controller.wait_idle()
        assert f"port {first_session_site.base_url.rsplit(':', 1)[1]} is now taken" in message
        assert [str(r.status) for r in controller.history()] == ["NEEDS_CONFIRMATION"]  # still resumable
