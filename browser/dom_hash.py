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
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from playwright.async_api import Error, Page

_SCRIPT = Path(__file__).with_name("_dom_hash.js").read_text(encoding="utf-8")


async def normalised_dom(page: Page) -> str:
    """The text the hash is taken over; frames that go away mid-read are skipped."""
    parts: list[str] = []
    for frame in page.frames:
        try:
            body = await frame.evaluate(_SCRIPT)
        except Error:
            continue  # detached or navigating frame: it has no stable DOM to hash
        parts.append(f"frame {frame.url}\n{body}\n")
    return "".join(parts)


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def dom_hash(page: Page) -> str:
    return hash_text(await normalised_dom(page))
