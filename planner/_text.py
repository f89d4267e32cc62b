"""Text helpers shared by the understanding stage: folding Vietnamese and phrase matching.

Folding keeps one character per input character, so a match found in the folded text can be cut
out of the original text at the same offsets (names keep their diacritics and case).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

_VI_MARKED = re.compile(
    "[àáạảãâầấậẩẫăằắặẳẵèéẹẻẽêềếệểễìíịỉĩòóọỏõôồốộổỗơờớợởỡùúụủũưừứựửữỳýỵỷỹđ]", re.IGNORECASE
)


@lru_cache(maxsize=4096)
def _fold_char(ch: str) -> str:
    if ch in "đĐ":
        return "d"
    base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
    return base.lower() if len(base) == 1 else ch.lower()


class _FoldTable(dict[int, str]):
    """str.translate table filled on first sight of each character (one char in, one char out)."""

    def __missing__(self, code: int) -> str:
        folded = _fold_char(chr(code))
        self[code] = folded
        return folded


_FOLD = _FoldTable()


def fold(text: str) -> str:
    """Lower-cased text without diacritics, same length as `text`."""
    return text.translate(_FOLD)


def has_vietnamese_marks(text: str) -> bool:
    return _VI_MARKED.search(text) is not None


def collapse_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=1024)
def phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation of folded phrases, longest first, bounded by non-word characters."""
    folded = sorted({fold(p) for p in phrases}, key=len, reverse=True)
    body = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in folded)
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w])")


def strip_quotes(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] in "\"'“‘«" and value[-1] in "\"'”’»":
        return value[1:-1].strip()
    return value


def lower_keep_length(text: str) -> str:
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


class Text:
    """A task text in three aligned forms: original, lower-cased, and folded (no diacritics)."""

    __slots__ = ("folded", "lower", "marked", "original")

    def __init__(self, original: str) -> None:
        self.original = original
        self.lower = lower_keep_length(original)
        self.folded = fold(original)
        self.marked = has_vietnamese_marks(original)


@lru_cache(maxsize=1024)
def _accent_pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    marked = sorted({lower_keep_length(p) for p in phrases if has_vietnamese_marks(p)}, key=len, reverse=True)
    if not marked:
        return None
    body = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in marked)
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w])")


@lru_cache(maxsize=1024)
def _plain_pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    plain = tuple(p for p in phrases if not has_vietnamese_marks(p))
    return phrase_pattern(plain) if plain else None


_Marked = tuple[re.Pattern[str] | None, re.Pattern[str] | None]
#: id(phrases) -> (phrases, pattern(s)). Lexicon tuples live for the whole process, and hashing a
#: 150-phrase tuple on every lookup (as lru_cache would) costs more than the matching itself. The
#: folded pattern and the two a text with diacritics needs are built apart: most texts have none,
#: and compiling patterns a text never uses was a good part of `waypost plan`'s start.
_FOLDED: dict[int, tuple[tuple[str, ...], re.Pattern[str]]] = {}
_MARKED: dict[int, tuple[tuple[str, ...], _Marked]] = {}
_T = TypeVar("_T")


def _by_id(
    cache: dict[int, tuple[tuple[str, ...], _T]], phrases: tuple[str, ...], build: Callable[[], _T]
) -> _T:
    entry = cache.get(id(phrases))
    if entry is not None and entry[0] is phrases:
        return entry[1]
    built = build()
    if len(cache) < 4096:
        cache[id(phrases)] = (phrases, built)
    return built


def search_terms(text: Text, phrases: tuple[str, ...]) -> list[re.Match[str]]:
    """Matches of `phrases` in `text`, accent-exact when the text itself carries diacritics.

    A Vietnamese text typed with diacritics is matched against the accented phrases, so "mô tả"
    (describe) never reads as "mở" (open); a text typed without them falls back to folded matching.
    """
    if not text.marked:
        return list(_by_id(_FOLDED, phrases, lambda: phrase_pattern(phrases)).finditer(text.folded))
    accented, plain = _by_id(_MARKED, phrases, lambda: (_accent_pattern(phrases), _plain_pattern(phrases)))
    found: list[re.Match[str]] = []
    if accented is not None:
        found.extend(accented.finditer(text.lower))
    if plain is not None:
        found.extend(plain.finditer(text.folded))
    if accented is not None and plain is not None:
        found.sort(key=lambda m: m.start())
    return found


def has_terms(text: Text, phrases: tuple[str, ...]) -> bool:
    return bool(search_terms(text, phrases))
