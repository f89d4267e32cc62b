"""DOM hash: sha256 of a normalised serialisation of every frame of a page.

Normalisation (implemented in _dom_hash.js, one pass per frame, main frame first):
- the element tree in document order; open shadow roots serialised in place as `<#shadow>...`;
- dropped: comments, doctype, <script>, <style>, <noscript>, <template>, <link>, <meta>;
- text nodes: whitespace runs collapsed to one space, trimmed; whitespace-only text removed;
- attributes sorted by name; volatile ones dropped: Waypost's own markers (data-wp-*,
  data-waypost-*), nonce, integrity, and the value/checked/selected *attributes* (their initial
  state), which are replaced by the live state:
- live form state: `:value="..."` for inputs and textareas, `:checked=true|false` for checkboxes and
  radios, `:selected=true|false` for options;
- password and sensitive fields (data-sensitive, autocomplete=cc-*) contribute only `:len=N`, the
  length of their value, never the value;
- each frame contributes `frame <url>\\n<serialisation>\\n`; the hash is over the UTF-8 bytes.

So a reload of an unchanged page gives the same hash, typing into a field changes it, and the hash
never depends on a secret's characters.

Frames are read concurrently (one round trip for the whole page, not one per frame); the parts are
joined in `page.frames` order, so concurrency never changes the text.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Error, Frame, Page

_SCRIPT = Path(__file__).with_name("_dom_hash.js").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class DomState:
    """What one pass over a page tells: its DOM hash, its title, and which frames hold an element
    matching the sensitive selector (so a screenshot masks exactly those, or needs no mask).
    `complete` is False when a frame did not answer (mid-navigation): nothing is known of it."""

    dom_hash: str
    title: str
    sensitive_frames: list[Frame] = field(default_factory=list)
    complete: bool = True
    #: The main frame's scroll offsets, viewport size, pixel ratio and focused element: two states
    #: with the same hash and view show the same picture (receipts reuse one file for both).
    #: None when the main frame did not answer.
    view: str | None = None


async def _each_frame(page: Page, arg: str | None) -> tuple[list[tuple[Frame, Any]], int]:
    """The script's result in every frame that answered, in `page.frames` order, and how many
    frames were asked."""
    frames = page.frames
    results = await asyncio.gather(*(f.evaluate(_SCRIPT, arg) for f in frames), return_exceptions=True)
    answered: list[tuple[Frame, Any]] = []
    for frame, result in zip(frames, results, strict=True):
        if isinstance(result, Error):
            continue  # detached or navigating frame: it has no stable DOM to hash
        if isinstance(result, BaseException):
            raise result  # not a page problem (cancellation, a bug): never swallowed
        answered.append((frame, result))
    return answered, len(frames)


def _joined(parts: list[tuple[Frame, str]]) -> str:
    return "".join(f"frame {frame.url}\n{body}\n" for frame, body in parts)


async def normalised_dom(page: Page) -> str:
    """The text the hash is taken over; frames that go away mid-read are skipped."""
    answered, _ = await _each_frame(page, None)
    return _joined(answered)


async def dom_state(page: Page, sensitive_selector: str) -> DomState:
    """DOM hash, title and sensitive frames in the same single pass (one round trip per frame,
    all frames at once): the hash is the one `dom_hash` gives; the title is "" mid-navigation."""
    answered, asked = await _each_frame(page, sensitive_selector)
    main = next((r for f, r in answered if f == page.main_frame), None)
    title = str(main["title"]) if main is not None else ""
    return DomState(
        dom_hash=hash_text(_joined([(f, str(r["dom"])) for f, r in answered])),
        title=title,
        sensitive_frames=[f for f, r in answered if r["sensitive"]],
        complete=len(answered) == asked,
        view=str(main["view"]) if main is not None else None,
    )


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def dom_hash(page: Page) -> str:
    return hash_text(await normalised_dom(page))
