"""Finds where a page shows a secret, so the screenshot paints it over.

A page can display a declared secret (an account page showing its API key), or reveal a typed one
(a script that turns the password field into type=text, or echoes it as text). Before each capture,
browser/_secret_mask.js collects each frame's visible strings (text nodes, field values and
placeholders); they are matched here, in Python, against the forms a page shows a value in (as
typed, upper or lower case, backwards, base64), after both sides are squeezed: characters that
render as nothing, spaces and line breaks removed, so an echo spelled with zero-width joiners between
its letters is still found; the script then marks the matching elements with
`data-waypost-secret` (a secret split over inline elements marks the innermost element holding it).
The capture's mask selector includes that marker, so Playwright's deterministic masked screenshot
(animations stopped, caret hidden) covers them. The marker is one of Waypost's own attributes, which
the DOM hash ignores.

No secret ever enters the page: page script can hook any built-in the marking script would call,
so the script receives only indices. What a page can learn is which of its own elements got the
marker (as it can see any mask).
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from playwright.async_api import Error, Frame, Page

from common.secrecy import spread_forms, visible

SECRET_MARK = "data-waypost-secret"
_SCRIPT = Path(__file__).with_name("_secret_mask.js").read_text(encoding="utf-8")
#: Shorter values would mark ordinary text; the recorder refuses to declare them anyway.
MIN_LENGTH = 3


def shown_forms(values: Iterable[str]) -> list[str]:
    """The forms in which a page displays a value: as typed, upper or lower case, backwards, base64;
    squeezed (`squeezed`) as the page's strings are before they are compared."""
    forms: set[str] = set()
    for value in values:
        if len(value) < MIN_LENGTH:
            continue
        b64 = base64.b64encode(value.encode("utf-8")).decode("ascii")
        forms |= {value, value.upper(), value.lower(), b64, b64.rstrip("=")} | spread_forms(value)
    return sorted({squeezed(f) for f in forms} - {""}, key=len, reverse=True)


def squeezed(text: str) -> str:
    """Text as it reads on screen, for matching: no characters that render as nothing (a secret
    spelled with zero-width joiners between its letters still reads as the secret), no spaces or
    line breaks (one split over lines still does)."""
    return "".join(visible(text).split())


def _matches(strings: Any, pattern: re.Pattern[str]) -> list[int]:
    return [i for i, s in enumerate(strings) if isinstance(s, str) and pattern.search(squeezed(s))]


def _innermost(data: Any, pattern: re.Pattern[str]) -> list[int]:
    """Elements holding a secret split over several text nodes: the innermost whose text has it."""
    texts: list[str] = data["texts"]
    holders = [
        (i, span) for i, span in enumerate(data["spans"])
        if span and pattern.search(squeezed("".join(texts[span[0] : span[1] + 1])))
    ]  # fmt: skip
    spans = [span for _, span in holders]
    inner = [(i, s) for i, s in holders if not any(o != s and s[0] <= o[0] and o[1] <= s[1] for o in spans)]
    deepest = {tuple(s): i for i, s in inner}  # nested, same text: the last in document order is innermost
    return sorted(deepest.values())


async def _mark_frame(frame: Frame, pattern: re.Pattern[str]) -> int:
    try:
        data = json.loads(await frame.evaluate(_SCRIPT, None))
        texts = _matches(data["texts"], pattern)
    except (json.JSONDecodeError, TypeError, KeyError) as exc:  # a page that broke JSON.stringify
        raise Error(f"the page's strings could not be read: {exc}") from exc
    whole = squeezed("".join(data["texts"]))
    elements = [] if texts or not pattern.search(whole) else _innermost(data, pattern)
    chosen = {"texts": texts, "fields": _matches(data["fields"], pattern), "elements": elements}
    if not any(chosen.values()):
        return 0
    return int(await frame.evaluate(_SCRIPT, chosen))


async def mark_secrets(page: Page, values: Iterable[str]) -> int | None:
    """Marks the elements showing a secret in every frame; how many, or None when a frame did not
    answer (mid-navigation) and so may show one unmarked."""
    forms = shown_forms(values)
    if not forms:
        return 0
    pattern = re.compile("|".join(re.escape(f) for f in forms))
    results = await asyncio.gather(*(_mark_frame(f, pattern) for f in page.frames), return_exceptions=True)
    total = 0
    for result in results:
        if isinstance(result, Error):
            return None
        if isinstance(result, BaseException):
            raise result  # cancellation or a bug, never a page problem
        total += result
    return total
