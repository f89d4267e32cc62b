"""The type of the `make_driver` fixture: builds a driver on the shared Chromium with a policy and secrets."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from browser.driver import PlaywrightDriver

MakeDriver = Callable[..., Awaitable[PlaywrightDriver]]
