"""Reading tasks as people write them into asks (planner/ask_reader.py): each row of
tests/data/ask_cases.jsonl is a task and what it asks, in order, with what it rules out and what the
rules could not read. A prohibition is never an ask; a question is never an action."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from planner.ask_commerce import trip_fields
from planner.ask_reader import read_asks
from planner.ask_words import fact_kind
from planner.asks import AnswerAsk, SubmitAsk

CASES = [json.loads(line) for line in (Path(__file__).parents[2] / "data" / "ask_cases.jsonl").open()]


@pytest.mark.parametrize("case", CASES, ids=[c["task"][:50] for c in CASES])
def test_a_task_reads_as_its_asks(case: dict[str, Any]) -> None:
    asks = read_asks(case["task"])
    assert asks.describe() == case["asks"]
    assert asks.forbidden == case["forbidden"]
    assert asks.unread == case["unread"]


@pytest.mark.parametrize(
    "task",
    [
        "Compare the plans on https://x.test/p. Do not sign up for anything",
        "Fill the form on https://x.test/f with name Ada, don't submit",
        "Điền form trên https://x.test/f với tên Lan, đừng gửi",
        "fill the name Ada on https://x.test/f without submitting it",
    ],
)
def test_a_prohibition_is_a_constraint_never_a_step(task: str) -> None:
    asks = read_asks(task)
    assert asks.forbidden
    assert not [a for a in asks.asks if isinstance(a, SubmitAsk)]


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("when does the offsite take place", "date"),
        ("how many notebooks are in stock", "count"),
        ("how much is the Team plan", "price"),
        ("how much storage am I using", "number"),
        ("what is the support email address", "email"),
        ("who is the CEO of Lumen Works", "person"),
        ("which product is the cheapest", "item"),
        ("Chuyến bay thẳng sớm nhất cất cánh lúc mấy giờ?", "time"),
        ("Tôi còn bao nhiêu thư chưa đọc?", "count"),
        ("cho biết tác giả của cuốn Tắt Đèn", "person"),
    ],
)
def test_a_question_says_what_kind_of_fact_answers_it(question: str, kind: str) -> None:
    assert fact_kind(question) == kind


def test_a_question_and_its_follow_up_about_it_stay_one_question() -> None:
    asks = read_asks("on https://x.test/r tell me the cheapest airline and what it costs")
    assert [a.question for a in asks.asks if isinstance(a, AnswerAsk)] == [
        "the cheapest airline, what it costs"
    ]


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("flights from Hanoi to Singapore on 2027-03-14 for 2 passengers",
         {"from": "Hanoi", "to": "Singapore", "date": "2027-03-14", "passengers": "2"}),
        ("one-way flights London to Paris on 2 April 2027", {"from": "London", "to": "Paris",
                                                             "date": "2027-04-02"}),
        ("chuyến bay từ Hồ Chí Minh đi Đà Nẵng ngày 20/05/2027 cho 1 người",
         {"from": "Hồ Chí Minh", "to": "Đà Nẵng", "date": "2027-05-20", "passengers": "1"}),
    ],
)  # fmt: skip
def test_a_trip_search_is_read_into_its_parts(text: str, fields: dict[str, str]) -> None:
    assert trip_fields(text) == fields
