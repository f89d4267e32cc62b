"""Routing from meaning (issue: tasks people phrase their own way): what is read, what is changed,
and in which order. Each case here was routed wrong by the keyword rules."""

from __future__ import annotations

import pytest

from planner.context import build_context
from planner.models import ExecutionPlan, PlanMode, StepType
from planner.rules import plan_rules

PRICING = "https://saas.example.com/pricing"
TAB = "https://app.example.com/account"


def _plan(task: str, url: str | None = None) -> ExecutionPlan:
    return plan_rules(task, build_context(task, url=url))


def test_open_url_and_summarize_reads_the_page() -> None:
    plan = _plan(f"Open {PRICING} and summarize the plans it offers")
    assert plan.mode is PlanMode.A
    assert plan.steps[0].type is StepType.OPEN_URL and plan.steps[0].inputs["url"] == PRICING
    assert not plan.policy_gates and all(s.type is not StepType.ACT for s in plan.steps)
    for sq in plan.sub_queries:
        assert "open" not in sq.q.lower().split(), sq.q


@pytest.mark.parametrize(
    ("task", "url"),
    [
        ("Which notification settings do I have on? https://app.example.com/settings", None),
        ("Review my current settings on this page and tell me which ones are risky", TAB),
        ("Explain the charges on my latest invoice", TAB),
        ("Xem bảng điều khiển thanh toán của tôi và giải thích vì sao tháng này đắt hơn", TAB),
        ("Giải thích các khoản phí trong hóa đơn của tôi trên trang này", TAB),
        ("xem bang dieu khien thanh toan cua toi tren trang nay va giai thich vi sao thang nay dat hon", TAB),
    ],
)
def test_reading_my_own_state_and_explaining_it_is_mode_d(task: str, url: str | None) -> None:
    assert _plan(task, url).mode is PlanMode.D


@pytest.mark.parametrize(
    "task",
    [
        "Look up the best noise-cancelling headphones, then add the better one to my cart on "
        "shop.example.com",
        "Research password managers and sign me up for the best one at https://pm.example.com with me@x.io",
        "Check which laptop is lighter, the XPS 13 or the MacBook Air, then add it to the cart on "
        "shop.example.com",
        "Xem gói nào trên https://dichvu.example.vn/bang-gia hợp với 10 người rồi điền sẵn form đăng ký",
        "Find the top-rated pho place in District 1 and reserve a table on https://resto.example.com",
    ],
)
def test_look_up_then_change_is_mode_c(task: str) -> None:
    assert _plan(task).mode is PlanMode.C


@pytest.mark.parametrize(
    ("task", "url", "mode"),
    [
        ("Cancel my order 5521 on https://shop.example.com/orders", None, PlanMode.B),
        ("Could you fill the form on this page with name Lan and email lan@x.vn?", TAB, PlanMode.B),
        ("Can you add this item to my cart?", TAB, PlanMode.B),
        (f"What does the Enterprise package cost? {PRICING}", None, PlanMode.A),
        ("Read https://blog.example.com/post/3 and summarize it", None, PlanMode.A),
        (
            "Which plan is best for a small team? Sign me up for it on https://saas.example.com",
            None,
            PlanMode.C,
        ),
        ("what?", None, PlanMode.CLARIFY),
    ],
)
def test_questions_requests_and_addresses_are_read_for_what_they_mean(
    task: str, url: str | None, mode: PlanMode
) -> None:
    assert _plan(task, url).mode is mode
