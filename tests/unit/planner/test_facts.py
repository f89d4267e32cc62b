"""Answering from a page's words (planner/facts.py, planner/table_facts.py): the fact of the kind the
question asks for, on the line that is about what it asks; no such fact is no answer."""

from __future__ import annotations

import pytest

from planner.facts import find_fact, labelled_fact

TABLE = (
    "Office supplies\nProduct\tPrice (EUR)\tIn stock\n"
    "Stapler\t12.50\t7\nNotebook\t3.20\t42\nPencil\t0.80\t310\n"
)
PLANS = (
    "Plan\tUsers\tStorage\tPrice per month\n"
    "Free\t1 user\t2 GB\t$0\nTeam\tUp to 10 users\t100 GB\t$29\nBusiness\tUp to 50 users\t500 GB\t$79\n"
    "Enterprise\tMore than 50 users\tTo suit\tCustom\n"
)
CARDS = "Teapots\nGlass Teapot\n24.50 EUR\nPorcelain Teapot\n29.00 EUR\nCast Iron Teapot\n42.00 EUR\n"
FLIGHTS = (
    "Lotus Air LA 502\n05:05 → 09:50 · 4h 45m · 1 stop (Hanoi)\n$71 per person\nSelect\n"
    "VietSky VS 120\n06:10 → 07:35 · 1h 25m · Direct\n$58 per person\nSelect\n"
)


@pytest.mark.parametrize(
    ("question", "kind", "text", "value"),
    [
        ("which product is the cheapest", "item", TABLE, "Pencil is the cheapest (0.80)"),
        ("how many notebooks are in stock", "count", TABLE, "42"),
        ("the price of the stapler", "price", TABLE, "12.50"),
        ("which one is cheapest", "item", CARDS, "Glass Teapot is the cheapest (24.50 EUR)"),
        (
            "Chuyến bay thẳng sớm nhất cất cánh lúc mấy giờ?",
            "time",
            FLIGHTS,
            "06:10: VietSky VS 120 is the earliest",
        ),
        (
            "when does the offsite take place",
            "date",
            "Anna Lee: Offsite\nThe team offsite moves to 12 June.",
            "12 June",
        ),
        (
            "the support email address",
            "email",
            "Help\nWrite to help@zephyr.example for support.",
            "help@zephyr.example",
        ),
        ("which plan the Billing tab shows", "item", "Plan: Team\nRenewal date: 1 March 2027", "Team"),
        ("Gói Business được bao nhiêu GB dung lượng vậy?", "count", PLANS, "500 GB"),
        (  # the header dates the message; the body says when the train leaves
            "when's my Harbor Rail train",
            "date",
            "Harbor Rail <tickets@harbor.example> to me, 2 Feb\nDear Ana, your train to Lyon leaves on 14 Ma"
            "rch 2027.",
            "14 March 2027",
        ),
        (  # a label above its value, with the page's headings not repeated between them
            "how much storage am I using?",
            "number",
            "Overview\nPlan\nPro\nStorage\n38.2 GB of 100 GB used\nMembers\n6 of 10 seats taken",
            "38.2 GB",
        ),
    ],
)
def test_the_fact_asked_for_is_found_where_the_page_says_it(
    question: str, kind: str, text: str, value: str
) -> None:
    fact = find_fact(question, kind, text)  # type: ignore[arg-type]
    assert fact is not None and fact.value == value


def test_a_labelled_value_ends_with_its_sentence() -> None:
    fact = labelled_fact(
        "what's the confirmation number?", "Thanks!\nConfirmation number: ZK91. Keep it safe."
    )
    assert fact is not None and fact.value == "ZK91"


def test_a_gist_says_what_changed_and_what_to_do() -> None:
    mail = (
        "Price change\nOmar Haddad <omar@lumen.example> to me, 3 May\n"
        "Hello Ana, Your hosting plan moves to 18 EUR a month from 1 July 2027. Nothing else changes. "
        "Please reply by 15 June if you would rather cancel. Best regards, Omar"
    )
    fact = find_fact("give me the gist of Omar's price change email", "text", mail)
    assert fact is not None
    assert "18 EUR" in fact.value and "15 June" in fact.value and "Hello" not in fact.value
    one = find_fact("summarize Omar's email in one sentence", "text", mail)
    assert one is not None and one.value.count(".") == 1


def test_a_recommendation_meets_the_stated_needs_and_says_why() -> None:
    fact = find_fact("which plan is the cheapest one that allows 8 users and 50 GB", "item", PLANS)
    assert fact is not None and fact.satisfied and fact.value.startswith("Team")
    assert "100 GB" in fact.because and "Free offers too little" in fact.because


def test_needs_no_row_meets_are_said_not_hidden() -> None:
    fact = find_fact("which plan covers 80 users for under $50 a month", "item", PLANS)
    assert fact is not None and not fact.satisfied
    assert "Business" in fact.because or "Enterprise" in fact.because


@pytest.mark.parametrize(
    ("question", "kind", "text"),
    [
        (
            "when does the team offsite take place",
            "date",
            "Maria Costa: Lunch on Thursday?\nTom: Quarterly report",
        ),
        ("how many Stoneware Mugs do they have in stock", "count", "Mugs\nIn stock · 4.8 ★\nFrom 8.90 EUR"),
        ("the price of the Titanium Kettle", "price", TABLE),
    ],
)
def test_no_fact_of_the_kind_asked_about_that_subject_is_no_answer(
    question: str, kind: str, text: str
) -> None:
    assert find_fact(question, kind, text) is None  # type: ignore[arg-type]


def test_a_phone_number_is_asked_for_as_one_and_no_number_is_no_answer() -> None:
    """ "What is the CEO's phone number on terms.html?" was answered Done with the page's first lines."""
    from planner.ask_words import fact_kind

    assert fact_kind("What is the CEO's phone number on http://127.0.0.1:8765/terms.html?") == "phone"
    assert fact_kind("số điện thoại của cửa hàng là gì") == "phone"
    fact = find_fact("the support phone number", "phone", "Help\nCall +1 (555) 010-0199 for support, 9-17.")
    assert fact is not None and fact.value == "+1 (555) 010-0199"
    terms = "Terms of use\nStarter and Pro licences allow internal use only.\nBilled monthly, 12 months."
    assert find_fact("the CEO's phone number", "phone", terms) is None
