"""One bad row in the run store marks that run UNREADABLE in history; the window still opens."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from executor.run.service import AgentCore
from executor.store.rows import UNREADABLE
from tests.support.conductor_harness import make_plan
from tests.support.window import cell_text, open_window


@pytest.mark.asyncio
async def test_a_bad_run_row_is_listed_unreadable_and_the_window_opens(qtbot: QtBot, core: AgentCore) -> None:
    store = core.store
    plan = make_plan("A", [{"step_id": "s", "type": "COMPUTE"}])
    for run_id in ("run_good", "run_bad_pending", "run_bad_time"):
        store.start_run(run_id=run_id, plan=plan, exec_mode="RESEARCH_ONLY", task=f"task of {run_id}")
    with store._tx() as conn:  # what a torn write or a hand edit leaves behind
        conn.execute("UPDATE runs SET pending_json = '{not json' WHERE run_id = 'run_bad_pending'")
        conn.execute("UPDATE runs SET created_at = 'yesterday-ish' WHERE run_id = 'run_bad_time'")

    listed = {r.run_id: r.status for r in core.history()}
    assert listed == {"run_good": "RUNNING", "run_bad_pending": UNREADABLE, "run_bad_time": UNREADABLE}
    async with open_window(core) as window:
        table = window.history_panel.table
        ids = [
            item.toolTip().removeprefix("run ").split(" · ")[0]
            for row in range(table.rowCount())
            if (item := table.item(row, 0))
        ]
        shown = {
            run_id: cell_text(table, row, 0) for row, run_id in enumerate(ids)
        }  # the id is in the tooltip
        unreadable = "Unreadable"  # people's words; the code UNREADABLE stays in the tooltip
        assert shown == {
            "run_good": "Stopped; can resume",
            "run_bad_pending": unreadable,
            "run_bad_time": unreadable,
        }
