"""Answer the question that was asked: the attribute leads, from records first, then sentences."""

from __future__ import annotations

from typing import Any

from executor.research.attribute import from_records, from_sentences, lead, search_note
from executor.research.supporting_sentences import Sentence
from executor.research.synth_tools import ComputeTool
from tests.unit.research._helpers import context, ev

URL = "http://v/pricing"


def rec(name: str, price: float, **raw: str) -> dict[str, Any]:
    return {"name": name, "price": price, "currency": "USD", "period": "month", "source_url": URL,
            "raw": {"Plan": name, "Price": f"${price:g}/mo", **raw}}  # fmt: skip


RECORDS = [
    rec("Starter", 19, SSO="No", **{"API calls per day": "1,000"}),
    rec("Team", 49, SSO="Yes", **{"API calls per day": "10,000"}),
    rec("Enterprise", 999, SSO="Yes", **{"API calls per day": "Unlimited"}),
]
EVIDENCE = [ev(URL, "Plans and prices")]


def test_a_price_question_leads_with_the_price_of_the_named_package() -> None:
    q = f"What does the Enterprise package cost? {URL}"
    assert from_records(q, RECORDS, EVIDENCE) == "Enterprise costs $999 per month [1]."


def test_a_limit_question_names_the_field_it_asked_about() -> None:
    q = "What is the API calls per day limit of Team?"
    assert from_records(q, RECORDS, EVIDENCE) == "Team: API calls per day 10,000 [1]."


def test_which_plan_allows_lists_the_plans_that_say_yes() -> None:
    q = "Which plan allows SSO?"
    assert from_records(q, RECORDS, EVIDENCE) == (
        "Plans that include SSO: Team ($49 per month), Enterprise ($999 per month) [1]."
    )


def test_sentences_answer_when_no_record_does() -> None:
    pool = [
        Sentence("Our team works from Hanoi.", URL, 1),
        Sentence("Acme was founded by Jane Roe in 2001.", URL, 1),
    ]
    assert from_sentences("Who founded Acme?", pool) == "Acme was founded by Jane Roe in 2001 [1]."
    assert lead("Who founded Acme?", [], pool, EVIDENCE) == "Acme was founded by Jane Roe in 2001 [1]."


def test_a_plain_comparison_gets_no_lead() -> None:
    assert lead("Compare the plans", RECORDS, [], EVIDENCE) is None


async def test_compute_answers_the_question_before_the_comparison() -> None:
    ctx = context(
        step_type="COMPUTE",
        task=f"What does the Enterprise package cost? {URL}",
        evidence=EVIDENCE,
        step_outputs={"o": {"url": URL, "content": "Plans and prices."}, "f": {"records": RECORDS}},
    )
    out = (await ComputeTool()({"task": "synthesize_answer"}, ctx)).outputs
    assert out["answer"].startswith("Enterprise costs $999 per month [1].\n")
    assert "Starter" in out["answer"], "the comparison still follows"


def test_an_answer_from_the_named_page_alone_says_so() -> None:
    from planner.models import Step

    steps = [Step(step_id="o1", type="OPEN_URL"), Step(step_id="r1", type="RETRIEVE")]
    page = ev(URL, "Plans").model_copy(update={"step_id": "o1"})
    found = ev("http://other/x", "Other").model_copy(update={"step_id": "r1"})
    assert search_note(steps, [page]) is not None
    assert search_note(steps, [page, found]) is None
    assert search_note(steps[:1], [page]) is None
