"""How a run reads in the History list: where it went, when, and what sets it apart.

Why: example tasks and repeated tasks begin with the same words and the same long address, so a
list of whole task texts shows rows that look alike. Each row shows the site apart, the task with its
addresses shortened to their page, and, where it begins as another row does, only the words from
where it differs. The whole task stays in the tooltip.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from urllib.parse import urlsplit

_URL = re.compile(r"https?://[^\s,;)\"']+")
#: Rows sharing at least this many leading words are shortened to where they differ.
SHARED_WORDS = 4


def site_of(task: str) -> str:
    """The first address in the task as host[:port]; "" when the task names none."""
    match = _URL.search(task)
    if match is None:
        return ""
    return urlsplit(match.group(0)).netloc


def _page(match: re.Match[str]) -> str:
    parts = urlsplit(match.group(0))
    page = parts.path.rstrip("/").rsplit("/", 1)[-1]
    return page or parts.netloc


def short_task(task: str) -> str:
    """The task with each address shortened to its page ("…/signup.html" -> "signup.html")."""
    return _URL.sub(_page, " ".join(task.split()))


def _key(word: str) -> str:
    return word.strip(".,;:!?").lower()


def _shared(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and _key(a[n]) == _key(b[n]):
        n += 1
    return n


def distinctive(tasks: Sequence[str]) -> list[str]:
    """Each task as shown: shortened, and from where it differs when it begins as another does.
    Identical tasks stay whole (their time and status tell them apart)."""
    words = [short_task(t).split() for t in tasks]
    shown = []
    for i, own in enumerate(words):
        shared = max(
            (_shared(own, other) for j, other in enumerate(words) if j != i and other != own), default=0
        )
        if shared >= SHARED_WORDS and shared < len(own):
            shown.append("… " + " ".join(own[shared:]))
        else:
            shown.append(" ".join(own))
    return shown


def when_text(moment: datetime, now: datetime | None = None) -> str:
    """Local time to the second (two runs of one task a minute apart differ); the day when not today,
    the year when not this year."""
    local = moment.astimezone()
    today = (now or datetime.now().astimezone()).date()
    if local.date() == today:
        return local.strftime("%H:%M:%S")
    return local.strftime("%b %d %H:%M:%S" if local.year == today.year else "%Y-%m-%d %H:%M:%S")
