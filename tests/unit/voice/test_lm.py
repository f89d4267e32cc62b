"""The task language model is a proper probability model, and its dictionary covers its words."""

from __future__ import annotations

import math
import re
from collections import defaultdict

from voice.lm import build_arpa, build_dictionary, read_dictionary, words
from voice.phrases import task_sentences


def _sections(arpa: str) -> dict[int, dict[tuple[str, ...], tuple[float, float]]]:
    out: dict[int, dict[tuple[str, ...], tuple[float, float]]] = defaultdict(dict)
    order = 0
    for line in arpa.splitlines():
        header = re.match(r"\\(\d)-grams:", line)
        if header:
            order = int(header.group(1))
            continue
        fields = line.split("\t")
        if order and len(fields) >= 2:
            back = float(fields[2]) if len(fields) > 2 else 0.0
            out[order][tuple(fields[1].split())] = (float(fields[0]), back)
    return out


def test_every_bigram_history_sums_to_one() -> None:
    grams = _sections(build_arpa(["open the page", "open the form", "read the page", "close it"]))
    uni, bi = grams[1], grams[2]
    for (history,), (_, back) in uni.items():
        total = 0.0
        for (w,), (logp, _) in uni.items():
            explicit = bi.get((history, w))
            total += 10 ** explicit[0] if explicit else 10**back * 10**logp
        if any(h == history for h, _ in bi):
            assert math.isclose(total, 1.0, rel_tol=1e-3), history


def test_compound_words_get_a_pronunciation() -> None:
    known = read_dictionary("data D EY T AH\nfeed F IY D\nthe DH AH\nthe(2) DH IY\n")
    text, missing = build_dictionary({"datafeed", "the", "zzqx"}, known)
    assert "datafeed D EY T AH F IY D" in text
    assert "the(2) DH IY" in text
    assert missing == ["zzqx"]


def test_phrases_cover_the_example_tasks() -> None:
    vocab = {w for s in task_sentences() for w in words(s)}
    assert {"research", "datafeed", "packages", "compare", "prices", "prefill", "submit"} <= vocab
