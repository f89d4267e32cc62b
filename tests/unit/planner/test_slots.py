"""Slots read like a person: one row of tests/data/slot_cases.jsonl per task -> payload case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner._text import Text
from planner.booking_fields import option_for, same_slot
from planner.grounding import words_score
from planner.payload import extract_payload
from planner.slots import clock_value

ROWS = [
    json.loads(line)
    for line in (Path(__file__).resolve().parents[2] / "data" / "slot_cases.jsonl")
    .read_text(encoding="utf-8")
    .splitlines()
    if line.strip()
]


def test_the_table_is_broad_enough() -> None:
    assert len(ROWS) >= 100


@pytest.mark.parametrize("row", ROWS, ids=[r["task"][:60] for r in ROWS])
def test_task_to_payload(row: dict[str, object]) -> None:
    assert extract_payload(Text(str(row["task"]))) == row["payload"]


@pytest.mark.parametrize(
    ("said", "clock"),
    [("7pm", "19:00"), ("7:30 p.m.", "19:30"), ("19h", "19:00"), ("6 giờ 30 tối", "18:30"),
     ("9 giờ sáng", "09:00"),
     ("12am", "00:00"), ("19:30", "19:30"), ("7", None), ("13pm", None), ("25:00", None)],
)  # fmt: skip
def test_a_time_of_day_is_read_as_a_time_input_takes_it(said: str, clock: str | None) -> None:
    assert clock_value(said) == clock


def test_a_list_offers_the_same_time_or_day_however_it_is_written() -> None:
    times = ["6:00 PM", "7:00 PM (2 tables left)", "7:30 PM"]
    assert option_for("19:00", times, words_score) == "7:00 PM (2 tables left)"
    assert option_for("thứ Năm", ["Wednesday", "Thursday"], words_score) == "Thursday"
    assert same_slot("Fri", "thứ Sáu") and not same_slot("19:00", "7:30 PM")


def test_a_time_or_date_not_offered_is_no_option_however_close_its_words() -> None:
    """ "2027-03-13" shares most of "2027-03-12"'s words; picking it would book another day."""
    assert option_for("2027-03-12", ["2027-03-13", "2027-03-14"], words_score) is None
    assert option_for("19:00", ["18:00", "19:30"], words_score) is None
    assert option_for("Friday", ["Thursday", "Saturday"], words_score) is None
    assert option_for("4", ["2 people", "4 people"], words_score) == "4 people"
