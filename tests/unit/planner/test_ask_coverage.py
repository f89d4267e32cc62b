"""Every value a task gives lands in an ask or is said unread (planner/ask_coverage.py)."""

from __future__ import annotations

import pytest

from planner.ask_coverage import stated_values
from planner.ask_reader import read_asks


@pytest.mark.parametrize(
    ("task", "values"),
    [
        ("Click Go", []),  # a verb opening the sentence is not part of a name
        ("Register Jo Smith at URL, jo@example.com", ["Jo Smith", "jo@example.com"]),
        ("Book a room for 3 nights, call +44 20 7946 0000", ["3 nights", "+44 20 7946 0000"]),
        ('Rename it to "Apollo 11"', ["Apollo 11"]),
        ("Tắt email rồi lưu lại, đừng đổi mấy cái khác nhé", []),  # small Vietnamese letters are no name
    ],
)
def test_the_values_a_task_gives(task: str, values: list[str]) -> None:
    assert stated_values(task) == values


def test_a_value_no_ask_uses_is_unread_and_a_bare_address_is_filled() -> None:
    asks = read_asks("Register me for the 5k run on https://x.test/race: Jo Smith, jo@example.com")
    assert asks.unread == ["Jo Smith"]  # never a sign-up that leaves the name out and calls it done
    assert [(a.kind, getattr(a, "field", "")) for a in asks.asks] == [("fill", "email"), ("submit", "")]
