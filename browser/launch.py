"""Starting or attaching to Chromium with the flags that work on our machines (docs/architecture.md,
"Platform notes").

One function per way of getting a browser context: fresh launch, persistent profile, CDP attach,
Playwright server. The caller (session.py) owns what comes back and closes it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from playwright.async_api import Browser, BrowserContext, Error, Playwright, ViewportSize

from browser.deadline import BrowserDidNotStart
from browser.discovery import ENV_VAR, find_chromium
from browser.local_network import with_checks
from browser.options import LaunchOptions

BASE_ARGS = (
    # Rasterise whole tiles: with partial raster, two pictures of the same pixels can differ in a few
    # bytes (tiles repainted at different moments), and masked screenshots must be identical.
    "--disable-partial-raster",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def chromium_args(
    extra: list[str] | None = None, *, is_root: bool | None = None, local_network_checks: bool = True
) -> list[str]:
    """--no-sandbox only when running as root, where Chromium's sandbox cannot start. Chromium's
    Local Network Access check on navigations (browser/local_network.py) is on unless the run's task
    names a private address (`local_network_checks=False`)."""
    root = (os.geteuid() == 0) if is_root is None else is_root
    args = (["--no-sandbox"] if root else []) + list(BASE_ARGS)
    args += [a for a in (extra or []) if a not in args]
    return with_checks(args) if local_network_checks else args


@dataclass
class Launched:
    """A browser context and, unless it came from a persistent profile, the browser holding it."""

    context: BrowserContext
    browser: Browser | None
    remote: bool


async def launch(pw: Playwright, options: LaunchOptions, *, private_network: bool = False) -> Launched:
    """`private_network`: the run's task names a private address, so Chromium's own check is off.
    A browser that cannot be started or reached is BrowserDidNotStart, naming the setting to change."""
    try:
        return await _launch(pw, options, private_network)
    except Error as exc:
        raise BrowserDidNotStart(_why_not_started(options, exc)) from exc


def _why_not_started(options: LaunchOptions, exc: Error) -> str:
    said = (exc.message or str(exc)).strip()
    first = said.splitlines()[0].split(": ", 1)[-1][:200] if said else "no reason given"
    if options.cdp_url:
        return f"cannot attach to the browser at {options.cdp_url} (WAYPOST_CDP_URL): {first}"
    if options.ws_endpoint:
        return f"cannot connect to the browser at {options.ws_endpoint}: {first}"
    hints = []
    if not options.headless and ("XServer running" in said or "Missing X server" in said):
        display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        hints.append(f"--headed needs a display, and none answers on DISPLAY={display!r}; run without it")
    if options.executable:
        hints.append(f"check that {ENV_VAR} (browser_path in the settings) names a Chromium executable")
    what = options.executable or "Chromium"
    return f"the browser {what} did not start ({first})" + "".join(f"; {hint}" for hint in hints)


async def _launch(pw: Playwright, options: LaunchOptions, private_network: bool) -> Launched:
    viewport: ViewportSize = {"width": options.viewport_width, "height": options.viewport_height}
    if options.cdp_url:
        browser = await pw.chromium.connect_over_cdp(options.cdp_url)
        context = await browser.new_context(viewport=viewport, accept_downloads=True, service_workers="block")
        return Launched(context=context, browser=browser, remote=True)
    if options.ws_endpoint:
        browser = await pw.chromium.connect(options.ws_endpoint, headers=options.ws_headers or None)
        context = await browser.new_context(viewport=viewport, accept_downloads=True, service_workers="block")
        return Launched(context=context, browser=browser, remote=True)
    # An explicit executable is checked like WAYPOST_BROWSER: a wrong path is ChromiumNotFound with the
    # install advice, not a Playwright error from deep inside the launch.
    env = {ENV_VAR: options.executable} if options.executable else None
    exe = str(find_chromium(bundled=pw.chromium.executable_path, env=env))
    args = chromium_args(options.extra_args, local_network_checks=not private_network)
    if options.user_data_dir:
        context = await pw.chromium.launch_persistent_context(
            options.user_data_dir,
            executable_path=exe,
            headless=options.headless,
            args=args,
            viewport=viewport,
            accept_downloads=True,
            service_workers="block",
        )
        return Launched(context=context, browser=context.browser, remote=False)
    browser = await pw.chromium.launch(executable_path=exe, headless=options.headless, args=args)
    context = await browser.new_context(viewport=viewport, accept_downloads=True, service_workers="block")
    return Launched(context=context, browser=browser, remote=False)
