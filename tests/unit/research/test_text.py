from __future__ import annotations

import pytest

from executor.research.text import chunk_text, jaccard, sentences, shingles, tokens


def test_tokens_keep_numbers_whole_and_drop_stopwords() -> None:
    assert tokens("The Beta Basic costs 1.200.000 VND/tháng") == [
        "beta",
        "basic",
        "cost",
        "1.200.000",
        "vnd",
        "tháng",
    ]


def test_sentences_split_on_ends_and_lines() -> None:
    assert sentences("Pro is $99. It allows use!\nNext line\n\nLast one.") == [
        "Pro is $99.",
        "It allows use!",
        "Next line",
        "Last one.",
    ]


def test_chunks_respect_the_window_and_carry_whole_sentences_over() -> None:
    text = " ".join(f"Sentence number {i} is here." for i in range(40))
    chunks = chunk_text(0, text, max_words=30, overlap=10)
    assert all(len(c.text.split()) <= 30 for c in chunks)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert chunks[1].text.startswith("Sentence number 4 is here.")  # two 5-word sentences carried over
    assert "Sentence number 39 is here." in chunks[-1].text


def test_a_sentence_longer_than_the_window_is_cut() -> None:
    chunks = chunk_text(3, "word " * 130, max_words=50, overlap=0)
    assert [len(c.text.split()) for c in chunks] == [50, 50, 30]
    assert {c.doc_id for c in chunks} == {3}


def test_headings_become_their_own_sentences() -> None:
    chunks = chunk_text(0, "Packages and prices\nStarter costs $49 per month.")
    assert chunks[0].text == "Packages and prices. Starter costs $49 per month."


def test_bad_window_is_refused() -> None:
    with pytest.raises(ValueError, match="max_words"):
        chunk_text(0, "x", max_words=10, overlap=10)


def test_shingle_jaccard_sees_near_duplicates() -> None:
    a = shingles("Acme Data sells end of day and intraday market datafeeds for HOSE and HNX.")
    b = shingles("Acme Data sells end of day and intraday market datafeeds for HOSE and HNX today.")
    c = shingles("Our team drinks a lot of espresso every single morning in the office.")
    assert jaccard(a, b) > 0.8
    assert jaccard(a, c) == 0.0
    assert jaccard(frozenset(), a) == 0.0


def test_plurals_fold_but_short_and_ss_words_stay() -> None:
    assert tokens("datafeeds packages class bus gas is") == ["datafeed", "package", "class", "bus", "gas"]
