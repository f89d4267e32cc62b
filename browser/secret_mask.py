"""Finds where a page shows a secret, so the screenshot paints it over.

A page can display a declared secret (an account page showing its API key), or reveal a typed one
(a script that turns the password field into type=text, or echoes it as text). Before each capture,
browser/_secret_mask.js marks in every frame the elements whose text, value or placeholder holds a
secret in a form a page shows (as typed, upper or lower case, base64) with `data-waypost-secret`;
the capture's mask selector includes that marker, so Playwright's deterministic masked screenshot
(animations stopped, caret hidden) covers them. The marker is one of Waypost's own attributes, which
the DOM hash ignores. The values go to the browser that already holds them, never elsewhere.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterable
from pathlib import Path

from playwright.async_api import Error, Page

SECRET_MARK = "data-waypost-secret"
_SCRIPT = Path(__file__).with_name("_secret_mask.js").read_text(encoding="utf-8")
#: Shorter values would mark ordinary text; the recorder refuses to declare them anyway.
MIN_LENGTH = 3


def shown_forms(values: Iterable[str]) -> list[str]:
    """The forms in which a page displays a value: as typed, upper or lower case, base64."""
    forms: set[str] = set()
    for value in values:
        if len(value) < MIN_LENGTH:
            continue
        b64 = base64.b64encode(value.encode("utf-8")).decode("ascii")
        forms |= {value, value.upper(), value.lower(), b64, b64.rstrip("=")}
    return sorted(forms, key=len, reverse=True)


async def mark_secrets(page: Page, values: Iterable[str]) -> int | None:
    """Marks the elements showing a secret in every frame; how many, or None when a frame did not
    answer (mid-navigation) and so may show one unmarked."""
    forms = shown_forms(values)
    if not forms:
        return 0
    frames = page.frames
    results = await asyncio.gather(*(f.evaluate(_SCRIPT, forms) for f in frames), return_exceptions=True)
    total = 0
    for result in results:
        if isinstance(result, Error):
            return None
        if isinstance(result, BaseException):
            raise result  # cancellation or a bug, never a page problem
        total += int(result)
    return total
