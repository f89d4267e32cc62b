"""Copies of pages read earlier, the task's stated need, and the answers COMPUTE writes from records."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from executor.research.answers import comparison, current_entity, read_state
from executor.research.copies import KnownPage, drop_copies, known_pages
from executor.research.supporting_sentences import (
    Sentence,
    citable_sentences,
    need_phrase,
    need_terms,
    supporting,
)
from executor.research.synth_tools import ComputeTool
from tests.unit.research._helpers import context, ev

PAGE = (
    "Plans and prices. Every plan includes email support and CSV exports. Prices are per month,\n"
    "billed monthly. A small fintech building an internal product usually starts with Pro: real-time "
    "quotes and five years of history. Basic suits hobby projects."
)


@dataclass(frozen=True)
class D:
    url: str
    text: str


def rec(name: str, price: float, url: str = "http://v/plans", **raw: str) -> dict[str, Any]:
    return {"name": name, "price": price, "currency": "USD", "period": "month", "source_url": url,
            "raw": {"Plan": name, "Price": f"${price:g}/mo", **raw}}  # fmt: skip


RECORDS = [rec("Basic", 10, History="1 year"), rec("Pro", 50, History="5 years"), rec("Max", 200)]


def test_a_mirror_of_a_page_read_earlier_is_dropped_even_when_ranked_first() -> None:
    docs = [
        D("http://m/copy", PAGE),
        D("http://v/plans", PAGE),
        D("http://v/other", "Something else entirely."),
    ]
    kept, dropped = drop_copies(docs, [KnownPage("http://v/plans", PAGE)])
    assert kept == [1, 2] and dropped == ["http://m/copy"]


def test_without_an_earlier_read_the_most_linked_copy_stays() -> None:
    docs = [D("http://m/copy", PAGE), D("http://v/plans", PAGE)]
    links = {"http://m/copy": ["http://v/plans"], "http://v/plans": ["http://v/plans#top"]}
    assert drop_copies(docs, links=links) == ([1], ["http://m/copy"])
    assert drop_copies(docs) == ([0], ["http://v/plans"])  # no signal: the better-ranked copy


def test_known_pages_come_from_page_outputs_and_evidence_but_never_from_copies() -> None:
    outputs: dict[str, dict[str, Any]] = {
        "o": {"url": "http://v/plans", "content": PAGE, "content_hash": "h1"},
        "r": {"duplicates": ["http://m/copy"]},
    }
    evidence = [ev("http://m/copy", "x"), ev("http://v/faq", "y")]
    known = known_pages(outputs, evidence, {"http://v/faq": ("FAQ text", "h2")})
    assert [(k.url, k.content_hash) for k in known] == [("http://v/plans", "h1"), ("http://v/faq", "h2")]


def test_the_need_is_what_the_task_says_the_choice_is_for() -> None:
    task = "Research plans on http://v/plans, recommend one for a small fintech, then prefill it"
    assert need_terms(task) == ["small", "fintech"]
    assert need_phrase(task) == "for a small fintech"
    assert need_terms("Open the page and prefill it, don't submit") == []


def test_wrapped_lines_are_one_sentence_and_support_names_the_candidate() -> None:
    pool = citable_sentences({"http://v/plans": PAGE}, [ev("http://v/plans", "Plans")])
    assert Sentence("Prices are per month, billed monthly.", "http://v/plans", 1) in pool
    assert [s.text[:24] for s in supporting("Pro", ["small", "fintech"], pool)] == [
        "A small fintech building"
    ]
    assert supporting("Basic", ["small", "fintech"], pool) == []


async def test_a_stated_need_beats_the_lowest_price_and_is_cited() -> None:
    ctx = context(
        step_type="COMPUTE",
        task="Research the plans on http://v/plans, recommend one for a small fintech, then sign up",
        evidence=[ev("http://v/plans", "Plans"), ev("http://other/x", "Other")],
        step_outputs={
            "o": {"url": "http://v/plans", "content": PAGE},
            "f": {"records": [*RECORDS, rec("Cheap", 5, "http://other/x")]},
        },
    )
    out = (
        await ComputeTool()({"task": "score_and_prepare_payload", "payload": {"email": "a@b.co"}}, ctx)
    ).outputs
    assert out["recommendation"]["name"] == "Pro"
    assert out["payload"] == {"email": "a@b.co", "package": "Pro"}
    assert out["answer"].startswith(
        "Recommended for a small fintech: Pro at $50/mo [1]. Why: A small fintech"
    )
    assert "Runner-up: Basic" in out["answer"] and out["out_of_scope"] == ["Cheap"]


def test_comparison_lists_each_package_with_price_features_and_citations() -> None:
    evidence = [ev("http://v/plans", "Plans", title="Plans - V")]
    pool = citable_sentences({"http://v/plans": PAGE}, evidence)
    text = comparison(RECORDS, pool, evidence)
    assert "Plans - V [1]:\n- Basic: $10/mo (History 1 year) [1]" in text
    assert "By price per month: Basic $10/mo [1] < Pro $50/mo [1] < Max $200/mo [1]." in text
    assert "Every plan includes email support and CSV exports [1]." in text


async def test_explaining_the_state_an_act_step_read() -> None:
    state = "Your account\nAccount\tAcme\nCurrent plan\tPro\nPrice\t$50/mo"
    outputs: dict[str, dict[str, Any]] = {
        "a": {"state_text": state, "state_url": "http://v/account"},
        "o": {"url": "http://v/plans", "content": PAGE},
        "f": {"records": RECORDS},
    }
    read = read_state(outputs)
    assert read is not None and ("Current plan", "Pro") in read.pairs
    assert current_entity(read, ["Basic", "Pro"]) == ("Pro", "Current plan")
    ctx = context(step_type="COMPUTE", task="read my plan, then explain it", step_outputs=outputs,
                  evidence=[ev("http://v/plans", "Plans", title="Plans - V")])  # fmt: skip
    out = (await ComputeTool()({"task": "compare_state_with_sources"}, ctx)).outputs
    assert out["current"] == "Pro"
    answer = out["answer"]
    assert "Your current plan is Pro." in answer
    assert "According to Plans - V [1], Pro costs $50/mo and includes: History 5 years [1]." in answer
    assert "matches the listed price [1]" in answer and "Recommended" not in answer
