"""A small trigram language model (ARPA text) and a matching pronunciation dictionary.

Restricting the decoder to the words and word orders people use for browser tasks cuts the error
rate a lot against the general English model. Absolute discounting with Katz-style back-off weights,
computed exactly so every history's probabilities sum to one.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping

DISCOUNT = 0.5
UNIGRAM_ADD = 0.5
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_START, _END = "<s>", "</s>"


def words(text: str) -> list[str]:
    """Lower-case words as the recogniser spells them (no digits, no punctuation)."""
    return _WORD.findall(text.lower())


def _log(p: float) -> str:
    return f"{math.log10(p):.4f}" if p > 0 else "-99.0000"


class _Counts:
    def __init__(self, sentences: Iterable[list[str]]) -> None:
        self.uni: Counter[str] = Counter()
        self.bi: Counter[tuple[str, ...]] = Counter()
        self.tri: Counter[tuple[str, ...]] = Counter()
        for sentence in sentences:
            tokens = [_START, *sentence, _END]
            self.uni.update(tokens[1:])
            self.bi.update(itertools.pairwise(tokens))
            self.tri.update(zip(tokens, tokens[1:], tokens[2:], strict=False))
        self.vocab = sorted({*self.uni, _START})

    def uni_probs(self) -> dict[str, float]:
        total = sum(self.uni.values()) + UNIGRAM_ADD * len(self.uni)
        probs = {w: (c + UNIGRAM_ADD) / total for w, c in self.uni.items()}
        probs[_START] = 0.0
        return probs


def _discounted(
    counts: Mapping[tuple[str, ...], int], lower: Mapping[str, float] | None = None
) -> tuple[dict[tuple[str, ...], float], dict[tuple[str, ...], float]]:
    """Discounted probabilities per n-gram and the left-over mass per history."""
    history_total: dict[tuple[str, ...], int] = defaultdict(int)
    history_types: dict[tuple[str, ...], int] = defaultdict(int)
    for gram, c in counts.items():
        history_total[gram[:-1]] += c
        history_types[gram[:-1]] += 1
    probs = {g: (c - DISCOUNT) / history_total[g[:-1]] for g, c in counts.items()}
    left = {h: DISCOUNT * history_types[h] / history_total[h] for h in history_total}
    return probs, left


def build_arpa(sentences: Iterable[str]) -> str:
    """ARPA text of a trigram model over these sentences."""
    counts = _Counts(words(s) for s in sentences)
    p1 = counts.uni_probs()
    p2, left2 = _discounted(counts.bi)
    p3, left3 = _discounted(counts.tri)
    seen_after: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for gram in p2:
        seen_after[gram[:1]].append(gram[1])
    alpha1 = {
        h: left2[h] / max(1e-9, 1.0 - sum(p1[w] for w in followers)) for h, followers in seen_after.items()
    }

    def p_bigram(v: str, w: str) -> float:
        return p2.get((v, w), alpha1.get((v,), 1.0) * p1[w])

    seen_after3: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for gram in p3:
        seen_after3[gram[:2]].append(gram[2])
    alpha2 = {
        h: left3[h] / max(1e-9, 1.0 - sum(p_bigram(h[1], w) for w in followers))
        for h, followers in seen_after3.items()
    }
    lines = ["\\data\\", f"ngram 1={len(counts.vocab)}", f"ngram 2={len(p2)}", f"ngram 3={len(p3)}", ""]
    lines.append("\\1-grams:")
    for w in counts.vocab:
        back = alpha1.get((w,))
        lines.append(f"{_log(p1[w])}\t{w}" + (f"\t{_log(back)}" if back else ""))
    lines += ["", "\\2-grams:"]
    for gram, p in sorted(p2.items()):
        back = alpha2.get(gram)
        lines.append(f"{_log(p)}\t{' '.join(gram)}" + (f"\t{_log(back)}" if back else ""))
    lines += ["", "\\3-grams:"]
    lines += [f"{_log(p)}\t{' '.join(gram)}" for gram, p in sorted(p3.items())]
    lines += ["", "\\end\\", ""]
    return "\n".join(lines)


def read_dictionary(text: str) -> dict[str, list[str]]:
    """CMUdict-style lines ("word(2) P H O N E S") as word -> pronunciations."""
    entries: dict[str, list[str]] = defaultdict(list)
    for line in text.splitlines():
        head, _, phones = line.partition(" ")
        if phones:
            entries[head.split("(")[0]].append(phones.split("#")[0].strip())
    return entries


def _compound(word: str, known: Mapping[str, list[str]]) -> list[str]:
    """Pronunciations of a word the dictionary lacks that splits into two it has (datafeed)."""
    for cut in range(2, len(word) - 1):
        left, right = word[:cut], word[cut:]
        if left in known and right in known:
            return [f"{known[left][0]} {known[right][0]}"]
    return []


def build_dictionary(vocab: Iterable[str], known: Mapping[str, list[str]]) -> tuple[str, list[str]]:
    """Dictionary text for these words, and the words it could not pronounce (left out of the LM)."""
    lines: list[str] = []
    missing: list[str] = []
    for word in sorted(set(vocab)):
        prons = known.get(word) or _compound(word, known)
        if not prons:
            missing.append(word)
        for i, pron in enumerate(prons):
            lines.append(f"{word}{'' if i == 0 else f'({i + 1})'} {pron}")
    return "\n".join(lines) + "\n", missing
