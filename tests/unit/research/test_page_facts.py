"""Questions about the pages a task opened (executor/research/page_facts.py): each page read as one
text, each question answered from the page that holds its fact, or left unanswered."""

from __future__ import annotations

import pytest

from executor.errors import FatalToolError
from executor.models import RuntimeCtxV1
from executor.research import page_facts
from executor.research.synth_tools import ComputeTool
from executor.tools.boundary import ToolContext
from planner.asks import AnswerAsk
from planner.models import StepType
from planner.rules import plan_rules

ACCOUNT = {
    "url": "http://site.test/account",
    "title": "Overview",
    "headings": ["Account overview", "Plan", "Storage", "Members", "Aria-only heading"],
    "content": "Account overview\nPlan\nPro, 12 USD a month\nStorage\n38.2 GB of 100 GB used\nMembers\n6 of "
    "10 seats",
}
BOOKING = {
    "url": "http://site.test/mail/7",
    "title": "Your booking",
    "content": "Harbor Rail <tickets@harbor.example> to me, 2 Feb\nTrain to Lyon on 14 March 2027.\n"
    "Booking reference: HR-5521. Coach 4.",
}


def test_a_heading_the_content_has_does_not_part_a_label_from_its_value() -> None:
    pages = page_facts.page_texts({"o1": ACCOUNT})
    assert pages[0].text.count("Storage") == 1 and "Aria-only heading" in pages[0].text
    (found,) = page_facts.answer(
        [AnswerAsk(question="how much storage am I using?", expects="number")], pages
    )
    assert found.fact is not None and found.fact.value == "38.2 GB"


def test_a_question_for_a_labelled_value_is_answered_with_the_value() -> None:
    ask = AnswerAsk(question="what's the booking code?", expects="text")
    assert page_facts.asks_a_label(ask)
    assert not page_facts.asks_a_label(
        AnswerAsk(question="what's the history of rail travel in France and why it matters", expects="text")
    )
    (found,) = page_facts.answer([ask], page_facts.page_texts({"o1": BOOKING}))
    assert found.fact is not None and found.fact.value == "HR-5521"


def test_a_question_in_vietnamese_follows_the_sites_pricing_link() -> None:
    """ "Gói Business được bao nhiêu GB dung lượng?" is about plans and storage: the site's "Pricing"
    link is where a person reads on, although the link does not name the Business plan."""
    home = page_facts.page_text(
        "http://site.test/index.html",
        "Cloudlet\nFiles for teams",
        [],
        [{"url": "pricing.html", "text": "Pricing"}, {"url": "blog.html", "text": "Blog"}],
    )
    question = "Gói Business được bao nhiêu GB dung lượng vậy?"
    assert page_facts.links_about(home, question) == ["http://site.test/pricing.html"]


async def test_reading_the_page_is_not_doing_what_the_rules_could_not_read() -> None:
    """ "Free up some storage on URL, but do not delete any of my files": the page is read, and the
    step says it did not do the part it could not read, never a SUCCESS with the page pasted."""
    plan = plan_rules(
        "Free up some storage on http://site.test/account/data.html, but do not delete any of my files"
    )
    step = next(s for s in plan.steps if s.type is StepType.COMPUTE)
    ctx = ToolContext(run_id="run_test", trace_id="trace_test", plan=plan, step=step, runtime=RuntimeCtxV1(),
                      gate=None, step_outputs={"stp_o1": ACCOUNT}, evidence=[])  # fmt: skip
    with pytest.raises(FatalToolError, match='I did not do "Free up some storage"') as refused:
        await ComputeTool()({"task": "synthesize_answer"}, ctx)
    # what the page says under "Storage" comes with the refusal: the person sees why in its words
    assert refused.value.args[0].endswith('The page says: "38.2 GB of 100 GB used"'), refused.value.args[0]


def test_a_link_named_like_the_answer_is_followed_not_quoted() -> None:
    """ "Where are the workshop opening hours?" on a page whose only such line is the link "Workshop
    opening hours": the line says where the answer is, so the page does not answer it."""
    home = page_facts.page_text(
        "http://site.test/index.html",
        "Makers Club\nWorkshop opening hours\nNews",
        [],
        [{"url": "hours.html", "text": "Workshop opening hours"}],
    )
    ask = AnswerAsk(question="what are the workshop opening hours exactly?", expects="text")
    assert page_facts.asks_on_page(ask)
    assert not page_facts.asks_on_page(AnswerAsk(question="compare the plans", expects="text"))
    (found,) = page_facts.answer([ask], [home])
    assert found.fact is None
    assert page_facts.links_about(home, ask.question) == ["http://site.test/hours.html"]


@pytest.mark.parametrize("question", ["And why?", "what does it include?", "and what do they cost?"])
def test_a_follow_up_about_the_last_answer_is_not_a_page_question(question: str) -> None:
    """It is about the item the question before it found, which the answer's account of that item
    says: it is not looked for as a line of the page."""
    assert not page_facts.asks_on_page(AnswerAsk(question=question, expects="text"))


def test_a_question_about_the_sites_own_policy_is_a_page_question() -> None:
    """ "What's their refund policy?": "their" is the site, not the last answer."""
    assert page_facts.asks_on_page(AnswerAsk(question="what's their refund policy?", expects="text"))


def test_a_refusal_quotes_the_section_that_names_what_was_asked_up_to_the_next_heading() -> None:
    data = page_facts.page_text(
        "http://site.test/data",
        "Brightdesk\nOverview Members Data Sign up\nStorage\n"
        "38.2 GB of 100 GB used. The Archive folder holds 12.4 GB.\n"
        "Clean up permanently deletes every file in Archive (12.4 GB). This cannot be undone.\n"
        "Export\nGet a copy of everything in your workspace.",
        [],
        [],
    )
    said = page_facts.said_about("Free up some storage", [data])
    assert said[0] == "38.2 GB of 100 GB used." and said[-1] == "This cannot be undone.", said
