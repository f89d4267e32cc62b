"""A secret goes only where it was declared. Found: a page told the model to type
`{{secret:site_password}}` into its "Note" field; after one generic approval the model did, the page
sent the value away, and memory replayed that field-to-secret mapping in a later run."""

from __future__ import annotations

from typing import Any

import pytest

from executor.store.memory import MemoryStore
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SECRET = "Zq7-horse-PASS-91x"
OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]


def obey_the_page(body: dict[str, Any]) -> Reply:
    """A model that types the secret wherever the page says."""
    page = page_of(body)
    if "'kind': 'fill'" in page.split("Page:")[0]:
        return done("note saved as the page asked")
    fill = {"kind": "fill", "index": index_of(page, "Note"), "value": "{{secret:site_password}}"}
    return act(fill, confidence=0.99)


def _plan(site: FixtureSite, page: str = "/hostile/note.html") -> Any:
    inputs = {"url": site.url(page), "goal": "Save a note on my account", "payload": {}}
    return act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)


async def test_secret_typed_into_a_note_field_is_refused_before_typing(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    act_harness.secrets = {"site_password": SECRET}
    llm_server.responder = obey_the_page
    memory = MemoryStore(act_harness.runs_dir.parent / "memory.sqlite3")
    cognition = LLMCognition(LLMClient(llm_settings))
    bundle = await act_harness.run(_plan(site), confirm=Answer(), cognition=cognition, memory=memory)
    fills = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
    assert fills and all(f.outcome.status == "blocked" for f in fills)
    assert "neither password-like nor a field you named" in fills[0].outcome.message  # in the receipt
    assert not any("collect" in g and "PASS" in g for g in site.get_requests())  # nothing was sent
    assert not any(SECRET in g for g in site.get_requests())
    assert all("{{secret:" not in str(e.value) for e in memory.entries(kind="field"))
    memory.close()


async def test_secret_is_refused_on_another_origin(act_harness: ActHarness, site: FixtureSite) -> None:
    """The plan names `site`; its redirect lands on a second server (another origin) with a real
    password field. The secret is bound to `site`'s origin, so it is not typed there."""
    act_harness.secrets = {"site_password": SECRET}
    with FixtureSite() as other:
        actions = [{"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:site_password}}"}]
        inputs = {"url": site.url("/redirect?to=" + other.url("/login.html")), "actions": actions}
        plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
        bundle = await act_harness.run(plan, confirm=Answer())
        fills = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
        assert fills[0].outcome.status == "blocked"
        assert "not its declared origin" in fills[0].outcome.message
        assert other.post_count() == 0


async def test_the_password_field_on_the_declared_origin_still_works(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    act_harness.secrets = {"site_password": SECRET}
    actions = [{"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:site_password}}"}]
    inputs = {"url": site.url("/hostile/note.html"), "actions": actions}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    bundle = await act_harness.run(plan, confirm=Answer())
    (fill,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
    assert fill.outcome.status == "ok", fill.outcome.message


class _Inner:
    def __init__(self) -> None:
        self.payloads: list[dict[str, str]] = []

    async def decide(self, goal: str, payload: dict[str, str], observation: Any, history: Any) -> Any:
        from planner.decisions import CognitionDecision

        self.payloads.append(payload)
        return CognitionDecision(decision="noop", confidence=0.5)


async def test_memory_never_replays_a_secret_into_a_remembered_field() -> None:
    """A stored "password -> Note" mapping (as the attack left it) is not replayed by the hints."""
    from browser.models import ElementInfo, Observation
    from executor.act.hints import HintedCognition

    inner = _Inner()
    hinted = HintedCognition(inner, {"password": {"target": {"label": "Note"}, "label": "Note"}})
    note = ElementInfo(index=0, tag="input", role="textbox", name="Note")
    observation = Observation(url="http://127.0.0.1/x", title="x", elements=[note])
    decision = await hinted.decide("log in", {"password": "{{secret:site_password}}"}, observation, [])
    assert decision.decision == "noop" and inner.payloads == [{"password": "{{secret:site_password}}"}]


async def test_secret_is_refused_in_a_frame_of_another_origin(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """Found: the declared page embeds a frame from another origin with a password field; the rule
    cognition alone typed the secret there and that origin received it (the check read the top
    page's URL). The field's own frame is what counts."""
    act_harness.secrets = {"site_password": SECRET}
    with FixtureSite() as other:
        page = site.url("/hostile/framed_login.html?frame=" + other.url("/hostile/frame_password.html"))
        inputs = {
            "url": page,
            "goal": "Sign in to my account",
            "payload": {"password": "{{secret:site_password}}"},
        }
        plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
        bundle = await act_harness.run(plan, confirm=Answer())
        assert any(g.startswith("/hostile/frame_password.html") for g in other.get_requests())  # it loaded
        fills = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
        assert fills and all(f.outcome.status == "blocked" for f in fills)
        assert "not its declared origin" in fills[0].outcome.message
        assert not any("collect" in g for g in other.get_requests())


async def test_a_frame_of_the_declared_origin_still_gets_the_secret(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    act_harness.secrets = {"site_password": SECRET}
    page = site.url("/hostile/framed_login.html?frame=" + site.url("/hostile/frame_password.html"))
    actions = [{"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:site_password}}"}]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": page, "actions": actions}}], gates=OPEN_GATE
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    (fill,) = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
    assert fill.outcome.status == "ok", fill.outcome.message


def fill_both_fields(body: dict[str, Any]) -> Reply:
    """A model that types the secret into both fields the page names."""
    page = page_of(body)
    if "'kind': 'fill'" in page.split("Page:")[0]:
        return done("booking verified as the page asked")
    fills = [
        {"kind": "fill", "index": index_of(page, name), "value": "{{secret:site_password}}"}
        for name in ("Passenger name (shown on the public manifest)", "Carbon footprint note")
    ]
    return act(*fills, confidence=0.99)


async def test_a_field_is_password_like_by_its_words_not_by_letters_inside_them(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    """Found: "pass" in "Passenger" and "otp" in "footprint" made both fields password-like, and the
    secret was typed into a published passenger name and a public note."""
    act_harness.secrets = {"site_password": SECRET}
    llm_server.responder = fill_both_fields
    cognition = LLMCognition(LLMClient(llm_settings))
    mark = len(site.get_requests())
    bundle = await act_harness.run(
        _plan(site, "/hostile/manifest.html"), confirm=Answer(), cognition=cognition
    )
    fills = [r for r in act_harness.actions(bundle) if r.action["kind"] == "fill"]
    assert fills and all(f.outcome.status == "blocked" for f in fills), [f.outcome for f in fills]
    assert all("neither password-like nor a field you named" in f.outcome.message for f in fills)
    assert not any(g.startswith("/collect") for g in site.get_requests()[mark:])
