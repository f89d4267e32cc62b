"""Slots read like a person: one row of tests/data/slot_cases.jsonl per task -> payload case."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner._text import Text
from planner.payload import extract_payload

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
