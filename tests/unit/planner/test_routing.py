"""The routing table: every phrasing lands in its mode, with reason codes that say why."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.context import build_context
from planner.models import PlanMode, PlanStatus
from planner.rules import RulePlanner, plan_rules
from tests.unit.planner.routing_cases import CASES, CORPUS, HELDOUT, Case


def test_table_is_broad_enough() -> None:
    counts = Counter(c.mode for c in CASES)
    assert len(CASES) >= 300
    assert set(counts) == {"A", "B", "C", "D", "CLARIFY"}
    assert min(counts.values()) >= 30
    assert sum(c.url is not None or "http" in c.task for c in CASES) >= 100, "URLs present"
    assert sum(c.url is None and "http" not in c.task for c in CASES) >= 100, "URLs absent"
    assert sum(c.task.rstrip().endswith("?") for c in CASES) >= 40, "question forms"


def test_held_out_set_is_apart_from_the_corpus() -> None:
    assert len(HELDOUT) >= 50
    assert not {c.task for c in HELDOUT} & {c.task for c in CORPUS}
    assert set(Counter(c.mode for c in HELDOUT)) == {"A", "B", "C", "D", "CLARIFY"}


@pytest.mark.parametrize("case", CASES, ids=[c.task[:48] for c in CASES])
def test_mode(case: Case) -> None:
    plan = plan_rules(case.task, build_context(case.task, url=case.url))
    assert plan.mode.value == case.mode, plan.reason_codes
    assert plan.reason_codes, "every decision explains itself"
    if case.mode == "CLARIFY":
        assert plan.plan_status is PlanStatus.NEEDS_CLARIFICATION
        assert plan.clarification_question and plan.clarification_question.endswith("?")
        assert plan.reason_codes[0].startswith("CLARIFY:")
    else:
        assert plan.plan_status is PlanStatus.READY
        assert plan.reason_codes[0].startswith(f"MODE_{case.mode}:")


async def test_rule_planner_is_a_planner() -> None:
    from planner.base import Planner

    planner = RulePlanner()
    assert isinstance(planner, Planner)
    plan = await planner.plan("Compare Notion and Obsidian pricing with sources")
    assert plan.mode is PlanMode.A


def test_no_intent_asks_in_the_task_language() -> None:
    vi = plan_rules("xin chào")
    en = plan_rules("hello")
    assert vi.clarification_question is not None and "Bạn" in vi.clarification_question
    assert en.clarification_question is not None and en.clarification_question.startswith("What")


def test_action_without_a_page_asks_which_page() -> None:
    plan = plan_rules("Fill the form with name Alice and email a@b.co")
    assert plan.mode is PlanMode.CLARIFY
    assert "CLARIFY:missing_target" in plan.reason_codes
    assert "WOULD_BE_MODE_B" in plan.reason_codes
    assert plan.clarification_question is not None and "URL" in plan.clarification_question


def test_same_task_with_a_tab_is_mode_b() -> None:
    task = "Fill the form with name Alice and email a@b.co"
    plan = plan_rules(task, build_context(task, url="https://forms.example.com/x"))
    assert plan.mode is PlanMode.B
    assert "TARGET_ACTIVE_TAB" in plan.reason_codes


@pytest.mark.parametrize(
    ("task", "code"),
    [
        ("Compare", "CLARIFY:missing_topic"),
        ("tìm hiểu", "CLARIFY:missing_topic"),
        ("?", "CLARIFY:missing_topic"),
        ("Summarize this page", "CLARIFY:missing_target"),
        ("", "CLARIFY:no_intent"),
        ("https://example.com", "CLARIFY:no_intent"),
    ],
)
def test_research_needs_a_topic_or_a_page(task: str, code: str) -> None:
    plan = plan_rules(task)
    assert plan.mode is PlanMode.CLARIFY and plan.reason_codes[0] == code
    assert plan.clarification_question


def test_never_raises_on_odd_input() -> None:
    for task in ["🙂", "a" * 5000, "password: ", "fill name , email", "\x00\n\t", "{{secret:x}}"]:
        plan = plan_rules(task)
        assert plan.reason_codes
