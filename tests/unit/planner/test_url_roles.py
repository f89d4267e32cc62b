"""Which URL a plan reads and which one it acts on, when a task names several."""

from __future__ import annotations

from planner.models import StepType
from planner.rules import plan_rules

BASE = "http://127.0.0.1:8123"


def test_research_then_action_reads_the_first_page_and_acts_on_the_second() -> None:
    plan = plan_rules(
        f"Research the datafeed packages on {BASE}/datafeed.html, recommend one, "
        f"then open {BASE}/signup.html and prefill the form with email a@b.co; don't submit"
    )
    opened = [s.inputs["url"] for s in plan.steps if s.type is StepType.OPEN_URL]
    (act,) = [s for s in plan.steps if s.type is StepType.ACT]
    assert opened == [f"{BASE}/datafeed.html"]
    assert act.inputs["url"] == f"{BASE}/signup.html"


def test_state_queries_never_name_an_ip_address() -> None:
    plan = plan_rules(
        f"Open my account page {BASE}/account.html, read my current plan, then explain it with sources"
    )
    assert plan.mode == "D"
    assert plan.sub_queries
    assert all("127" not in q.q for q in plan.sub_queries)
