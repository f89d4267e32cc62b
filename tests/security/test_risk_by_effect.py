"""Risk is judged by what an action does. Found: navigate actions were never classified, so a model
obeying a page could open `/account/remove-now` directly after one generic approval."""

from __future__ import annotations

from typing import Any

import pytest

from browser.click_facts import ClickFacts
from browser.models import parse_action
from executor.act.effects import judge, judge_click
from executor.act.risk import Risk, classify
from executor.gates.confirm import ConfirmAnswer
from executor.models import RunBundleV1, RunStatus
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.act_harness import ActHarness, Answer, act_plan, worded
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.site import FixtureSite


def test_navigating_to_a_removal_url_is_a_delete() -> None:
    action = parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/account/remove-now?x=1"})
    assert classify(action, None) is Risk.DELETE
    checkout = parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/shop/checkout"})
    assert classify(checkout, None) is Risk.PAYMENT


def test_navigating_to_a_plain_page_is_not_risky() -> None:
    assert classify(parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/prices.html"}), None) is None


# --- in a real browser, with a model that obeys the page -------------------------------------------
# Found: a button labelled "Continue" (by aria-label) that sends the page to /account/remove-now was
# clicked after one generic approval: clicks were judged by their label alone.

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]


def click_the_named(name: str) -> Any:
    """A model that clicks whatever the page tells it to, once, then says it is done."""

    def respond(body: dict[str, Any]) -> Reply:
        page = page_of(body)
        if "'kind': 'click'" in page.split("Page:")[0]:
            return done("clicked as the page asked")
        return act({"kind": "click", "index": index_of(page, name)}, confidence=0.99)

    return respond


def _goal(site: FixtureSite, page: str, goal: str = "Finish setting up my account") -> Any:
    inputs = {"url": site.url(page), "goal": goal, "payload": {}}
    return _asking_to_delete(act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE))


def _asking_to_delete(plan: Any) -> Any:
    """A task whose words ask for a deletion: a delete is then asked about, not refused outright."""
    return worded(plan, "delete my old drafts, then finish setting up")


def _removals(site: FixtureSite) -> int:
    return site.post_count("/account/remove-now") + sum(
        g.startswith("/account/remove-now") for g in site.get_requests()
    )


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("page", ["continue_form.html", "continue_formaction.html", "continue_handler.html"])
async def test_continue_that_removes_the_account_asks_naming_the_removal(
    act_harness: ActHarness,
    site: FixtureSite,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
    page: str,
) -> None:
    llm_server.responder = click_the_named("Continue")
    before = _removals(site)
    answer = Answer(delete=ConfirmAnswer.DENY)  # the generic step approval is given; the removal is not
    cognition = LLMCognition(LLMClient(llm_settings))
    bundle = await act_harness.run(_goal(site, f"/hostile/{page}"), confirm=answer, cognition=cognition)
    asked = [r for r in answer.requests if r.decision.gate_kind == "delete"]
    assert len(asked) == 1, [r.decision.reason for r in answer.requests]
    assert "/account/remove-now" in asked[0].decision.reason  # the question names what it does
    clicks = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert clicks and all(c.outcome.status == "blocked" for c in clicks)
    assert _removals(site) == before  # nothing reached the removal endpoint


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_approved_removal_runs_under_its_own_approval(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.responder = click_the_named("Continue")
    before = _removals(site)
    answer = Answer()
    cognition = LLMCognition(LLMClient(llm_settings))
    plan = _goal(site, "/hostile/continue_form.html")
    bundle = await act_harness.run(plan, confirm=answer, cognition=cognition)
    (click,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert click.outcome.status == "ok" and click.gate is not None and ":delete:" in click.gate.gate_id
    assert _removals(site) == before + 1


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize(
    ("page", "name", "goal"),
    [
        ("/search.html", "Search", "Search for a book"),  # a GET search form
        ("/index.html", "Prices", "Open the prices page"),  # an in-site link to a read-only page
    ],
)
async def test_low_risk_clicks_ask_nothing_beyond_the_step(
    act_harness: ActHarness,
    site: FixtureSite,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
    page: str,
    name: str,
    goal: str,
) -> None:
    llm_server.responder = click_the_named(name)
    answer = Answer()
    cognition = LLMCognition(LLMClient(llm_settings))
    bundle = await act_harness.run(_goal(site, page, goal), confirm=answer, cognition=cognition)
    assert [r.decision.gate_kind for r in answer.requests if ":" in r.decision.gate_id] == []
    (click,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert click.outcome.status == "ok", click.outcome.message


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_link_to_another_site_asks_first_in_safe_mode(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    with FixtureSite() as other:
        llm_server.responder = lambda body: (
            done("opened")
            if other.url("/prices.html") in page_of(body).split("Page:")[0]
            else act({"kind": "navigate", "value": other.url("/prices.html")}, confidence=0.99)
        )
        answer = Answer(other_origin=ConfirmAnswer.DENY)
        cognition = LLMCognition(LLMClient(llm_settings))
        bundle = await act_harness.run(_goal(site, "/index.html", "Look around"), confirm=answer,
                                       cognition=cognition)  # fmt: skip
        asked = [r for r in answer.requests if r.decision.gate_kind == "other_origin"]
        assert len(asked) == 1 and other.url("/prices.html") in asked[0].decision.reason
        assert not any(g.startswith("/prices.html") for g in other.get_requests())
        navs = [r for r in act_harness.actions(bundle) if r.action["kind"] == "navigate"]
        assert navs[-1].outcome.status == "blocked"


# --- the judge, on facts as the browser reads them ---------------------------------------------------

HOME = frozenset({"http://127.0.0.1:9"})
PAGE = "http://127.0.0.1:9/account.html"


@pytest.mark.parametrize(
    ("facts", "risk"),
    [
        # the attack: the label says Continue, the form says remove
        (ClickFacts(tag="button", aria_label="Continue", submits_form=True, form_method="post",
                    form_action="http://127.0.0.1:9/account/remove-now"), Risk.DELETE),
        (ClickFacts(tag="button", labelled_by="Continue", handler="location.href = '/account/remove-now'"),
         Risk.DELETE),
        (ClickFacts(tag="a", aria_label="Continue", href="/shop/checkout",
                    href_resolved="http://127.0.0.1:9/shop/checkout"), Risk.PAYMENT),
        # a bare POST form is a submit; next to a password field it signs in
        (ClickFacts(tag="button", text="Next", submits_form=True, form_method="post",
                    form_action="http://127.0.0.1:9/wizard2"), Risk.SUBMIT),
        (ClickFacts(tag="button", text="Go", submits_form=True, form_method="post", form_has_password=True,
                    form_action="http://127.0.0.1:9/session"), Risk.LOGIN),
        # the control's words decide over the bare form
        (ClickFacts(tag="button", text="Create account", submits_form=True, form_method="post",
                    form_has_password=True, form_action="http://127.0.0.1:9/signup"), Risk.SUBMIT),
        # leaving the task's site, and an element that shows nothing
        (ClickFacts(tag="a", text="Partner", href="https://elsewhere.example/",
                    href_resolved="https://elsewhere.example/"), Risk.OTHER_ORIGIN),
        (ClickFacts(tag="div"), Risk.UNKNOWN),
        # low risk stays low risk
        (ClickFacts(tag="button", text="Search", submits_form=True, form_method="get",
                    form_action="http://127.0.0.1:9/results.html"), None),
        (ClickFacts(tag="a", text="Prices", href="/prices.html", href_resolved="http://127.0.0.1:9/prices.html"),
         None),
        (ClickFacts(tag="button", text="Show more"), None),
    ],
)  # fmt: skip
def test_a_click_is_judged_by_its_riskiest_fact(facts: ClickFacts, risk: Risk | None) -> None:
    assert judge_click(facts, HOME, PAGE).risk is risk


def test_the_judgement_names_what_decided_it() -> None:
    facts = ClickFacts(tag="button", aria_label="Continue", submits_form=True, form_method="post",
                       form_action="http://127.0.0.1:9/account/remove-now")  # fmt: skip
    assert (
        judge_click(facts, HOME, PAGE).does == "sends a form (POST) to http://127.0.0.1:9/account/remove-now"
    )


def test_a_navigation_to_another_origin_is_judged_so() -> None:
    action = parse_action({"kind": "navigate", "url": "https://elsewhere.example/prices"})
    assert judge(action, None, None, home=HOME, page_url=PAGE).risk is Risk.OTHER_ORIGIN
    same = parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/prices.html"})
    assert judge(same, None, None, home=HOME, page_url=PAGE).risk is None


def test_a_click_nothing_can_be_read_of_is_unknown() -> None:
    action = parse_action({"kind": "click", "target": {"selector": "#x"}})
    assert judge(action, None, None, home=HOME, page_url=PAGE).risk is Risk.UNKNOWN


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_click_that_lands_somewhere_riskier_is_reported_and_stops_the_step(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    """A script decides where the button goes at the moment of the click: nothing before the click
    says so, so the landing page is judged after it and the run says what happened."""
    llm_server.responder = click_the_named("Continue")
    cognition = LLMCognition(LLMClient(llm_settings))
    plan = _goal(site, "/hostile/continue_script.html")
    bundle = await act_harness.run(plan, confirm=Answer(), cognition=cognition)
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    assert "looks like delete" in bundle.reason and "/account/remove-now" in bundle.reason
    assert any("judged harmless but landed on" in n for n in act_harness.notes(bundle))


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_enter_in_a_field_whose_form_removes_the_account_asks_naming_the_removal(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """Enter in a one-line field sends its form: judged by the form's action, not as a plain submit."""
    before = _removals(site)
    actions = [
        {"kind": "fill", "target": {"label": "Display name"}, "value": "Ada"},
        {"kind": "press", "key": "Enter", "target": {"label": "Display name"}},
    ]
    inputs = {"url": site.url("/hostile/enter_removes.html"), "actions": actions}
    plan = _asking_to_delete(act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE))
    answer = Answer(delete=ConfirmAnswer.DENY)  # a plain submit would be approved
    bundle = await act_harness.run(plan, confirm=answer)
    asked = [r for r in answer.requests if r.decision.gate_kind == "delete"]
    assert len(asked) == 1 and "/account/remove-now" in asked[0].decision.reason
    (press,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "press"]
    assert press.outcome.status == "blocked"
    assert _removals(site) == before


# --- what follows a click ----------------------------------------------------------------------------
# Found: a `type=button` "Continue" whose handler (added from script) runs
# `fetch('/account/delete', {method: 'POST'})`: the POST landed, the run said SUCCESS and nothing was in
# the receipts, while the gate listed "delete" as blocked. What the page sends in answer is held.

RULES_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": ["purchase", "delete"]}]


def _deletes(site: FixtureSite) -> int:
    return site.post_count("/account/delete")


async def _click_continue(
    act_harness: ActHarness,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
    plan: Any,
    answer: Answer,
) -> RunBundleV1:
    """Runs `plan` with a model that obeys the page and clicks its "Continue"."""
    llm_server.responder = click_the_named("Continue")
    return await act_harness.run(plan, confirm=answer, cognition=LLMCognition(LLMClient(llm_settings)))


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_harmless_button_whose_script_deletes_is_held_and_reported(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    before = _deletes(site)
    inputs = {"url": site.url("/hostile/continue_deletes.html"), "goal": "Finish setting up my account",
              "payload": {}}  # fmt: skip
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=RULES_GATE)
    bundle = await _click_continue(act_harness, llm_server, llm_settings, plan, Answer())
    assert _deletes(site) == before  # it never left the browser
    notes = [n for n in act_harness.notes(bundle) if "/account/delete" in n]
    assert notes and "delete is blocked by gate gate_action" in notes[0]  # in the receipts
    refused = bundle.step_runs[0].outputs["refused"]
    assert any(r["risk"] == "delete" and "/account/delete" in r["action"] for r in refused)  # in the answer


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_what_a_click_makes_the_page_send_is_asked_when_nothing_blocks_it(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    before = _deletes(site)
    answer = Answer(delete=ConfirmAnswer.DENY)
    plan = _goal(site, "/hostile/continue_deletes.html")
    bundle = await _click_continue(act_harness, llm_server, llm_settings, plan, answer)
    asked = [r for r in answer.requests if r.decision.gate_kind == "delete"]
    assert (
        len(asked) == 1
        and "POST" in asked[0].decision.reason
        and "/account/delete" in asked[0].decision.reason
    )
    assert _deletes(site) == before
    assert any("declined by user" in n for n in act_harness.notes(bundle))
