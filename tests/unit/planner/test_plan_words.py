"""Plans a person can read and allow: step names say what they do, and reading is never gated."""

from __future__ import annotations

import pytest

from planner.context import build_context
from planner.models import ExecutionPlan, PlanMode, StepType
from planner.rules import plan_rules

TAB = "https://app.example.com/account"


def _plan(task: str, url: str | None = None) -> ExecutionPlan:
    return plan_rules(task, build_context(task, url=url))


@pytest.mark.parametrize(
    ("task", "url", "name"),
    [
        ("Open https://saas.example.com/pricing and summarize the plans", None, "Open the pricing page"),
        (
            "Go to https://app.example.com/signup and sign up with email bob@x.io, don't submit",
            None,
            "Prefill the signup form",
        ),
        (
            "Fill in the contact form on this page with name Bob and phone 0901234567",
            TAB,
            "Fill in the contact form",
        ),
        ("Open github.com/waypost/waypost and star the repository", None, "Star the repository"),
        ("Add the blue T-shirt to the cart on shop.example.com", None, "Add the blue T-shirt to the cart"),
        ("Click the 'Download report' button on this page", TAB, "Click the 'Download report' button"),
        (
            "Log in to portal.example.com with username bob and password hunter2 and download the invoice",
            None,
            "Download the invoice",
        ),
    ],
)
def test_step_names_say_what_they_do(task: str, url: str | None, name: str) -> None:
    assert name in [s.name for s in _plan(task, url).steps]


def test_mode_d_reads_first_without_asking() -> None:
    plan = _plan("Check which plan my account is on at https://cloud.example.com/account and explain it")
    assert plan.mode is PlanMode.D
    read = plan.steps[0]
    assert read.type is StepType.OPEN_URL and read.policy_gate_id is None
    assert read.inputs == {"url": "https://cloud.example.com/account", "purpose": "read_state"}
    assert read.name == "Read the account page, change nothing"
    assert not plan.policy_gates, "nothing in this plan changes anything"
    deps = {s.step_id: s.depends_on for s in plan.steps}

    def reaches_read(step_id: str) -> bool:
        return read.step_id in deps[step_id] or any(reaches_read(d) for d in deps[step_id])

    assert all(reaches_read(s.step_id) for s in plan.steps[1:])


def test_a_fact_the_named_page_holds_is_read_there_without_a_web_search() -> None:
    plan = _plan("What does the Enterprise package cost? https://saas.example.com/pricing")
    assert plan.mode is PlanMode.A
    kinds = [(s.type, s.optional) for s in plan.steps]
    assert kinds[0] == (StepType.OPEN_URL, False)
    assert (StepType.FETCH_DATA, True) in kinds and not [k for k, _ in kinds if k is StepType.RETRIEVE]
    assert not plan.sub_queries  # nothing about the task goes to a public search engine


def test_a_named_page_answers_first_and_the_web_search_is_optional() -> None:
    plan = _plan(
        "Summarize the Enterprise package on https://saas.example.com/pricing and compare it with reviews"
    )
    assert plan.mode is PlanMode.A
    kinds = [(s.type, s.optional) for s in plan.steps]
    assert kinds[0] == (StepType.OPEN_URL, False)
    assert (StepType.RETRIEVE, True) in kinds
    assert all("does" not in sq.q.split() and "What" not in sq.q.split() for sq in plan.sub_queries)


def test_a_gate_reason_agrees_with_how_many_actions_stay_blocked() -> None:
    """ "submit, purchase, delete stays blocked" read wrong in the gate dialog: a list stays plural."""
    prefill = _plan("Open https://app.example.com/signup and prefill name Bob, don't submit")
    reasons = [g.reason for g in prefill.policy_gates if len(g.blocked_actions) > 1]
    said = "Confirm first; submit, purchase, delete stay blocked."
    assert reasons and all(r.endswith(said) for r in reasons)
