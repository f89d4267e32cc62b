"""Each run of a batch gets its browser from the endpoint its worker holds.

The worker sets ENDPOINT (a context variable, so concurrent runs never see each other's) before it
starts or resumes a run; the run's resources read it when the run first needs a browser. Runs on a
grid connect through the batch's one GridClient; a run without an endpoint launches its own local
Chromium, as `waypost run` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path

from browser.driver import BrowserDriver
from browser.grid import GridClient, endpoint_options
from browser.options import LaunchOptions
from executor.run.resources import RunResources, launch_playwright
from executor.run.service import SecretAwareResources
from receipts.signing import KeySource

#: The endpoint URL of the run in this task's context; None launches a local browser.
ENDPOINT: ContextVar[str | None] = ContextVar("waypost_batch_endpoint", default=None)


def endpoint_resources(
    grid: GridClient, base: LaunchOptions, signer: KeySource | None = None
) -> SecretAwareResources:
    """Run resources whose browser comes from the endpoint of the run's worker; `signer` signs each
    run's receipts at its end, as `waypost run` does (receipts/signing.py)."""

    async def driver(resources: RunResources) -> BrowserDriver:
        options = resources.launch_options
        if not (options.ws_endpoint or options.cdp_url):
            return await launch_playwright(resources)
        return await grid.driver(
            options,
            policy=resources.policy,
            vault=resources.vault,
            downloads_dir=resources.run_dir / "downloads",
        )

    def make(run_id: str, run_dir: Path, secrets: Mapping[str, str]) -> RunResources:
        url = ENDPOINT.get()
        options = endpoint_options(url, base) if url else base
        return RunResources(
            run_id=run_id,
            run_dir=run_dir,
            launch_options=options,
            secrets=secrets,
            driver_factory=driver,
            signer=signer,
        )

    return make
