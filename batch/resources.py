"""Each run of a batch gets its browser from the endpoint its worker holds.

The worker sets ENDPOINT (a context variable, so concurrent runs never see each other's) before it
starts or resumes a run; the run's resources read it when the run first needs a browser.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path

from playwright.async_api import Error as PlaywrightError

from browser.deadline import BrowserLost
from browser.driver import BrowserDriver
from browser.grid import endpoint_options
from browser.options import LaunchOptions
from executor.run_resources import RunResources, launch_playwright
from executor.service import SecretAwareResources

#: The endpoint URL of the run in this task's context; None launches a local browser.
ENDPOINT: ContextVar[str | None] = ContextVar("waypost_batch_endpoint", default=None)


async def _connect(resources: RunResources) -> BrowserDriver:
    """A browser from the run's endpoint; one that cannot be reached is a lost browser (the batch
    moves the run to another endpoint), not a Playwright traceback."""
    try:
        return await launch_playwright(resources)
    except PlaywrightError as exc:
        where = resources.launch_options.ws_endpoint or resources.launch_options.cdp_url or "this machine"
        said = exc.message.splitlines()[0] if exc.message else type(exc).__name__
        raise BrowserLost(f"the browser at {where} could not be reached ({said})") from exc


def endpoint_resources(base: LaunchOptions) -> SecretAwareResources:
    def make(run_id: str, run_dir: Path, secrets: Mapping[str, str]) -> RunResources:
        url = ENDPOINT.get()
        options = endpoint_options(url, base) if url else base
        return RunResources(
            run_id=run_id, run_dir=run_dir, launch_options=options, secrets=secrets, driver_factory=_connect
        )

    return make
