"""Memory: written by the runtime at its moments, read on the next run."""

from __future__ import annotations

from pathlib import Path

from executor.act.hints import HintedCognition
from executor.models import RunStatus
from executor.store.memory import MemoryStore, site_of
from tests.support.loop_harness import LoopHarness, plan_of
from tests.unit.act._scripted import ScriptedCognition, ScriptedDriver, answer

FORM = [
    {"tag": "input", "role": "textbox", "name": "Work e-mail"},
    {"tag": "button", "role": "button", "name": "Next"},
]


def test_store_round_trip_list_delete(tmp_path: Path) -> None:
    path = tmp_path / "memory.sqlite3"
    with MemoryStore(path) as memory:
        memory.remember_field("site:1", "email", {"selector": "#e"}, label="Work e-mail", run_id="run_1")
        memory.remember_field("site:1", "email", {"selector": "#e"}, label="Work e-mail", run_id="run_2")
        memory.remember_summary("site:1", "Prefill", "filled 2 fields")
        memory.remember_failure("other:2", "loop_detected", "clicked Finish 3 times")
    with MemoryStore(path) as memory:  # persistent
        entries = memory.entries(site="site:1")
        assert {(e.kind, e.key) for e in entries} == {("field", "email"), ("summary", "Prefill")}
        field = next(e for e in entries if e.kind == "field")
        assert field.hits == 2 and field.run_id == "run_2"
        assert memory.field_hints("site:1") == {
            "email": {"target": {"selector": "#e"}, "label": "Work e-mail"}
        }
        assert memory.delete(field.entry_id) and not memory.delete(field.entry_id)
        assert memory.clear("other:2") == 1
        assert [e.kind for e in memory.entries()] == ["summary"]


def test_site_of() -> None:
    assert site_of("http://127.0.0.1:8080/a?b") == "127.0.0.1:8080"
    assert site_of("https://Example.COM/x") == "example.com"
    assert site_of("about:blank") is None and site_of(None) is None and site_of("file:///etc") is None


async def test_runtime_writes_facts_and_summary_then_the_next_run_reads_them(loop: LoopHarness) -> None:
    memory = MemoryStore(loop.tmp / "memory.sqlite3")
    loop.driver = ScriptedDriver(FORM, url="http://127.0.0.1:9/form")
    fill = {"kind": "fill", "target": {"label": "Work e-mail"}, "value": "a@b.co"}
    step = {"step_id": "a1", "type": "ACT", "name": "Prefill", "inputs": {"actions": [fill]}}
    bundle = await loop.run(plan_of(step), memory=memory)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    kinds = {(e.kind, e.key) for e in memory.entries(site="127.0.0.1:9")}
    assert ("summary", "Prefill") in kinds and ("field", "Work e-mail") in kinds

    # A goal-driven run that knows "contact" is the field labelled "Work e-mail" on this site.
    memory.remember_field("127.0.0.1:9", "contact", {"label": "Work e-mail"}, label="Work e-mail")
    inner = ScriptedCognition(answer())
    goal = {
        "step_id": "a2",
        "type": "ACT",
        "inputs": {"url": "http://127.0.0.1:9/form", "goal": "fill", "payload": {"contact": "c@d.co"}},
    }
    bundle = await loop.run(plan_of(goal), cognition=inner, memory=memory)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    fills = [a for a in loop.driver.performed if a.kind == "fill"]
    assert fills[-1].model_dump(exclude_none=True)["target"] == {"index": 0}
    assert inner.seen[0][0] == {}  # the hinted key was handled; the inner cognition got the rest


async def test_hinted_cognition_passes_through_without_a_match() -> None:
    inner = ScriptedCognition(answer("inner"))
    hinted = HintedCognition(inner, {"email": {"label": "Not on this page"}})
    from browser.models import Observation

    decision = await hinted.decide("g", {"email": "x"}, Observation(url="http://h/", title="t"), [])
    assert decision.answer == "inner" and inner.seen[0][0] == {"email": "x"}
