"""One ContextPack from what the person has open (tab, selection, files) and the task text."""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import PurePath

from planner._text import Text, has_terms, has_vietnamese_marks
from planner.lexicon import RESEARCH
from planner.models import AttachedFile, ContextPack, TabContext

_VI_HINTS = frozenset({"va", "cua", "cho", "trang", "toi", "khong", "nhung", "duoc", "voi", "roi", "giup"})


#: English words a sentence cannot do without: with them, marks only in capitalised words are a name's.
_EN_HINTS = frozenset(
    {"the", "for", "by", "and", "on", "to", "of", "me", "my", "with", "in", "at", "is", "please"}
)


def detect_language(task: str) -> str:
    """ "vi" or "en": diacritics decide (not a Vietnamese name's in an English sentence: "audiobooks
    by Tô Hoài"), else common Vietnamese function words typed without them."""
    text = Text(task)
    if text.marked:
        marked = [w for w in task.split() if has_vietnamese_marks(w)]
        english = len(set(text.lower.split()) & _EN_HINTS)
        if not (english >= 2 and all(w[:1].isupper() for w in marked)):
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
