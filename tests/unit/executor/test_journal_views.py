"""The journal's subscribers turn an action, a read, a plan revision and a note into the store's
rows, the receipts' records and the live events (docs/architecture.md, "The run journal")."""

from __future__ import annotations

import json
from pathlib import Path

from browser.events import DialogEvent
from browser.models import ActionOutcome, PageCapture, parse_action
from executor.journal import events as bus
from executor.journal.events import EventBus, RunEvent
from executor.journal.run_journal import ActionRecorded, Noted, RunJournal, RunOpened, SourceRead
from executor.journal.run_journal import PlanRevised as Revised
from executor.journal.views import views
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.report import read_records

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
PLAN = {
    "mode": "B",
    "steps": [{"step_id": "a1", "type": "ACT", "inputs": {"goal": "fill", "url": "http://x/"}}],
}


def _page(url: str, digest: str) -> PageCapture:
    return PageCapture(url=url, title="t", dom_hash=digest * 64, screenshot=PNG)


async def _journal(
    tmp_path: Path, plan: ExecutionPlan
) -> tuple[RunJournal, CheckpointStore, JsonlRecorder, list[RunEvent]]:
    store = CheckpointStore.in_memory()
    recorder = await JsonlRecorder.open(RunFolder(tmp_path / "run_j1"), fsync=False)
    bus = EventBus()
    bus.keep_history = True

    async def source() -> JsonlRecorder:
        return recorder

    journal = RunJournal(run_id="run_j1", store=store, subscribers=views(store, bus, source))
    await journal.append(RunOpened(plan=plan, exec_mode="ACTION_ONLY", task="t", run_dir=None, resumed=False))
    return journal, store, recorder, bus.history


async def test_an_action_is_numbered_by_the_receipts_and_shown_from_its_record(tmp_path: Path) -> None:
    journal, _, recorder, published = await _journal(tmp_path, ExecutionPlan.model_validate(PLAN))
    dialog = DialogEvent(type="alert", message="saved", accepted=True, url="http://x/")
    entry = ActionRecorded(
        step_id="a1", action=parse_action({"kind": "click", "target": {"text": "Go"}}),
        outcome=ActionOutcome(kind="click", status="ok", message="clicked"), before=_page("http://x/", "a"),
        after=_page("http://x/done", "b"), dialogs=[dialog], run_dir=tmp_path / "run_j1",
    )  # fmt: skip
    await journal.append(entry)
    await recorder.aclose()
    kinds = [r.kind for _, r in read_records(RunFolder(tmp_path / "run_j1"))]
    assert kinds == ["action", "dialog"]
    (shown,) = [e for e in published if isinstance(e, bus.ActionRecorded)]
    assert (shown.seq, shown.url, shown.status) == (entry.record.seq, "http://x/done", "ok")
    assert shown.screenshot_path == str(tmp_path / "run_j1" / entry.record.after.shot.path)  # type: ignore[union-attr]


async def test_a_plan_revision_reaches_the_store_the_receipts_and_the_bus(tmp_path: Path) -> None:
    plan = ExecutionPlan.model_validate(PLAN)
    journal, store, recorder, published = await _journal(tmp_path, plan)
    revised = plan.model_copy(update={"version": 2})
    await journal.append(Revised(plan=revised, replaced_step_id="a1", reason="STEP_FAILED: no form"))
    await journal.append(Noted(text="critic: replan", step_id="a1"))
    await journal.append(SourceRead(step_id="a1", url="http://x/", content="<p>x</p>", title="x", snippet="",
                                    shown=True))  # fmt: skip
    await recorder.aclose()
    assert store.load_plan("run_j1").version == 2
    records = [r for _, r in read_records(RunFolder(tmp_path / "run_j1"))]
    notes = [getattr(r, "text", "") for r in records if r.kind == "note"]
    assert notes[0].startswith("plan v2 replaces a1 (STEP_FAILED: no form); steps: a1:ACT")
    assert notes[1] == "critic: replan" and records[-1].kind == "evidence_read"
    meta = json.loads((tmp_path / "run_j1" / "run.json").read_text())
    assert meta["plan_v2"]["version"] == 2
    assert [e.kind for e in published[1:]] == ["plan_revised", "source_read"]
