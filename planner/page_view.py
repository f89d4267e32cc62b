"""Which page picture a model may see now: the ACT runner opens a scope with a picture source.

Keeps the planner free of browser imports: a source is any `async () -> bytes | None` (JPEG).
Pictures are opt-in (LLMSettings.images); outside a scope there is no picture.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

PictureSource = Callable[[], Awaitable[bytes | None]]

_source: ContextVar[PictureSource | None] = ContextVar("waypost_page_picture", default=None)


@contextmanager
def showing(source: PictureSource) -> Iterator[None]:
    token = _source.set(source)
    try:
        yield
    finally:
        _source.reset(token)


async def current_picture() -> bytes | None:
    source = _source.get()
    return await source() if source is not None else None
