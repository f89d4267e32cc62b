"""One ContextPack from what the person has open (tab, selection, files) and the task text."""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import PurePath

from planner._text import Text, has_terms
from planner.lexicon import RESEARCH
from planner.models import AttachedFile, ContextPack, TabContext

_VI_HINTS = frozenset({"va", "cua", "cho", "trang", "toi", "khong", "nhung", "duoc", "voi", "roi", "giup"})


def detect_language(task: str) -> str:
    """ "vi" or "en": diacritics decide, else common Vietnamese function words typed without them."""
    text = Text(task)
    if text.marked:
        return "vi"
    words = set(text.folded.split())
    hits = len(words & _VI_HINTS)
    return "vi" if hits >= 2 or (hits == 1 and not has_terms(text, RESEARCH) and len(words) < 6) else "en"


def build_context(
    task: str,
    *,
    url: str | None = None,
    title: str | None = None,
    selection: str = "",
    files: Sequence[str] = (),
    locale: str | None = None,
) -> ContextPack:
    """Pure: no file is opened, attached files are described by name and guessed type only."""
    attached = [
        AttachedFile(path=str(p), name=PurePath(p).name, mime_type=mimetypes.guess_type(str(p))[0])
        for p in files
    ]
    return ContextPack(
        active_tab=TabContext(url=url or None, title=title or None, selection_text=selection.strip()),
        attached_files=attached,
        locale=locale or detect_language(task),
    )
