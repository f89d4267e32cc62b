"""A Playwright trace of a run (screenshots, DOM snapshots, network) for the run folder's trace.zip.

Secrets leak into traces by default: DOM snapshots hold typed values, network entries hold request
bodies, and screenshots show whatever the page showed. So for a run whose vault holds secrets the
trace is recorded without screenshots, and every entry of the zip is rewritten with every form of
every secret value replaced (`common.secrecy`: plain, URL-, HTML-, JSON-escaped, base64). The
rewritten zip is then read back entry by entry; if any form of a value is still there, no trace is
kept and the reason says so (docs/architecture.md, "Traces").
"""

from __future__ import annotations

import asyncio
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import BrowserContext, Error

from common.secrecy import REDACTED, secret_forms

IMAGE_SUFFIXES = (".jpeg", ".jpg", ".png", ".webp")


@dataclass(frozen=True)
class TraceOutcome:
    """`path` when a trace was kept; otherwise `why` says in a sentence why there is none."""

    path: Path | None
    why: str = ""


async def start_trace(context: BrowserContext, *, with_secrets: bool) -> None:
    """Starts recording; a run holding secrets records no screenshots (pixels cannot be scrubbed)."""
    await context.tracing.start(screenshots=not with_secrets, snapshots=True, sources=False)


async def stop_trace(context: BrowserContext, path: Path, secrets: Iterable[str]) -> TraceOutcome:
    values = [v for v in secrets if v]
    try:
        await context.tracing.stop(path=str(path))
    except Error as exc:
        return TraceOutcome(None, f"no trace: Playwright could not write it ({str(exc).splitlines()[0]})")
    if not values:
        return TraceOutcome(path)
    forms = sorted({f.encode() for v in values for f in secret_forms(v) if f}, key=len, reverse=True)
    if not await asyncio.to_thread(_scrubbed, path, forms):
        return TraceOutcome(None, "no trace kept: a secret's value could not be removed from every entry")
    return TraceOutcome(path)


def _scrubbed(path: Path, forms: list[bytes]) -> bool:
    """Rewrites the zip without the secrets; False (and no file) when a form of one is still there."""
    _rewrite(path, forms)
    if _holds_any(path, forms):
        path.unlink(missing_ok=True)
        return False
    return True


def _scrub(data: bytes, forms: list[bytes]) -> bytes:
    for form in forms:
        data = data.replace(form, REDACTED.encode())
    return data


def _rewrite(path: Path, forms: list[bytes]) -> None:
    """Every entry scrubbed; pictures dropped (a run with secrets records none; any that came anyway go)."""
    tmp = path.with_suffix(".zip.tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as out:
        for info in src.infolist():
            if info.filename.lower().endswith(IMAGE_SUFFIXES):
                continue
            out.writestr(info.filename, _scrub(src.read(info), forms))
    tmp.replace(path)


def _holds_any(path: Path, forms: list[bytes]) -> bool:
    with zipfile.ZipFile(path) as zf:
        return any(form in zf.read(name) for name in zf.namelist() for form in forms)
