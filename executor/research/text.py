"""Text primitives shared by ranking and summaries: tokens, sentences, chunks, shingles.

Kept dependency-free and deterministic so ranking, dedupe and extractive summaries agree on what a
"term" and a "sentence" are, and unit tests can pin them down.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_WORD = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9À-Ỹ])|\n{2,}|(?<=\S)\n(?=\S)")
_STOPWORD_TEXT = (
    "a an and are as at be by for from has have in is it its of on or that the their this to was were "
    "will with vs about which what who how can may our your we you they them than then also not into "
    "per all any each"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def normalise(text: str) -> str:
    """Unicode NFKC, collapsed whitespace: the form every comparison works on."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _singular(word: str) -> str:
    """A light plural fold ("datafeeds" -> "datafeed", not "class"), so queries meet page wording."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased, plural-folded word tokens (numbers like 1.200.000 stay whole), stopwords dropped
    by default."""
    words = (w.lower() for w in _WORD.findall(unicodedata.normalize("NFKC", text)))
    return [_singular(w) for w in words if keep_stopwords or (w not in STOPWORDS and len(w) > 1)]


def sentences(text: str) -> list[str]:
    """Sentences and lines of `text`, trimmed; blank pieces dropped."""
    pieces = _SENTENCE_END.split(text.strip())
    return [s for s in (normalise(p) for p in pieces) if s]


def _terminated(sentence: str) -> str:
    """A heading or list item gets a full stop, so it stays its own sentence once lines are joined."""
    sentence = sentence.removeprefix("- ").strip()
    return sentence if sentence[-1:] in {".", "!", "?", ":", ";"} else sentence + "."


@dataclass(frozen=True, slots=True)
class Chunk:
    """A window of a document's text with where it came from, the unit of ranking and evidence."""

    doc_id: int
    index: int
    text: str


def chunk_text(doc_id: int, text: str, *, max_words: int = 80, overlap: int = 20) -> list[Chunk]:
    """Sentence-aligned windows of about `max_words` words; whole trailing sentences of at
    most `overlap` words carry over.

    Sentence alignment keeps snippets readable as citations; a sentence longer than the window is
    cut by words so no chunk grows without bound.
    """
    if max_words <= 0 or overlap < 0 or overlap >= max_words:
        raise ValueError("need max_words > overlap >= 0")
    words_per_sentence = [_terminated(s).split() for s in sentences(text)]
    flat: list[list[str]] = []
    for words in words_per_sentence:
        for start in range(0, len(words), max_words):
            flat.append(words[start : start + max_words])
    chunks: list[Chunk] = []
    current: list[list[str]] = []
    size = 0
    for words in flat:
        if current and size + len(words) > max_words:
            chunks.append(Chunk(doc_id, len(chunks), " ".join(w for s in current for w in s)))
            kept: list[list[str]] = []
            while current and sum(map(len, kept)) + len(current[-1]) <= overlap:
                kept.insert(0, current.pop())
            current = kept if sum(map(len, kept)) + len(words) <= max_words else []
            size = sum(map(len, current))
        current.append(words)
        size += len(words)
    if current:
        chunks.append(Chunk(doc_id, len(chunks), " ".join(w for s in current for w in s)))
    return chunks


def shingles(text: str, size: int = 5) -> frozenset[str]:
    """Word n-grams of the normalised text, for near-duplicate detection."""
    words = tokens(text, keep_stopwords=True)
    if len(words) < size:
        return frozenset({" ".join(words)}) if words else frozenset()
    return frozenset(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)
