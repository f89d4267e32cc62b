"""Forms on the fixture site: a prefill that never submits, a sign-in whose secret lands nowhere."""

from __future__ import annotations

import pytest

from executor.models import RunStatus
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_prefill_from_payload_stops_before_submit(act_harness: ActHarness, site: FixtureSite) -> None:
    site.clear_posts()
    plan = act_plan(
        [
            {
                "step_id": "a1",
                "type": "ACT",
                "inputs": {
                    "url": site.url("/signup.html"),
                    "goal": "Prefill the signup form",
                    "payload": {"name": "Ada Lovelace", "email": "ada@example.com"},
                },
            }
        ],
        no_submit=True,
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    fills = {(r.action["kind"], r.value) for r in act_harness.actions(bundle) if r.outcome.status == "ok"}
    assert {("fill", "Ada Lovelace"), ("fill", "ada@example.com")} <= fills
    assert site.post_count() == 0
    (step,) = bundle.step_runs
    assert step.outputs["status"] == "done"
    assert step.outputs["fsm"][0] == "idle" and step.outputs["fsm"][-1] == "done"


async def test_listed_submit_click_is_refused_under_no_submit(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    actions = [
        {"kind": "fill", "target": {"label": "Name"}, "value": "Ada"},
        {"kind": "fill", "target": {"label": "Email"}, "value": "ada@example.com"},
        {"kind": "click", "target": {"role": "button", "name": "Create account"}, "optional": True},
        {"kind": "press", "key": "Enter", "target": {"label": "Email"}, "optional": True},
    ]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/signup.html"), "actions": actions}}],
        no_submit=True,
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    records = act_harness.actions(bundle)
    refused = [r for r in records if r.outcome.status == "blocked"]
    assert [r.action["kind"] for r in refused] == ["click", "press"]
    assert all(r.gate is not None and r.gate.gate_id == "gate_action" for r in records)
    assert site.post_count() == 0
    assert len(bundle.step_runs[0].outputs["refused"]) == 2


SECRET = "Hunter2-zq9-Waypost-secret"


async def test_login_with_declared_secret_leaves_it_in_no_file(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    act_harness.secrets = {"site_password": SECRET}
    actions = [
        {"kind": "fill", "target": {"label": "Username"}, "value": "ada"},
        {"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:site_password}}"},
        {"kind": "click", "target": {"role": "button", "name": "Sign in"}},
    ]
    login_gate = {"gate_id": "gate_login", "kind": "login", "blocked_actions": ["purchase", "delete"]}
    plan = act_plan(
        [{"step_id": "a0", "type": "ACT", "inputs": {"url": site.url("/login.html"), "actions": actions}}],
        gates=[login_gate],
    )
    answers = Answer()
    bundle = await act_harness.run(plan, confirm=answers)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [r.decision.gate_id for r in answers.requests] == ["gate_login"]  # the login gate covered it
    assert site.post_count("/login") == 1
    assert SECRET.encode() in site.post_bodies("/login")[0]  # the site got it ...
    run_dir = act_harness.runs_dir / bundle.run_id
    files = [p for p in run_dir.rglob("*") if p.is_file()]
    assert any(p.suffix == ".png" for p in files)
    for path in files:  # ... and no file of the run holds it
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in bundle.model_dump_json()
