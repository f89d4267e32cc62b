"""SIGINT and SIGTERM at each named moment of a run's first seconds (common/moments.py): a sentence,
with --json a document, exit 130; when the run reached the store, the real resume command, and the
resume finishes the run. The child holds at the moment until the signal is sent, so the signal lands
there, whatever the machine's load (no clock offsets).

Before: SIGTERM in the first 0.3-1.5 s killed the process by the signal (exit 143, no sentence), and
a signal while the run's receipts were being opened ended with exit 2 "run_... is being written by
another recorder" about its own fresh run, with no JSON and no resume command.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from executor.store.checkpoint_store import CheckpointStore
from executor.store.schema import STORE_FILENAME
from tests.faults.harness import act_plan, finish, watched, waypost, write_plan
from tests.support.fault_site import FaultSite

#: (moment, whether the run is in the store when the stop lands), in the order a run meets them.
#: None: either. A signal on the loop's thread cancels the command at its next pause, and the first
#: pause after these comes once the run is opened: what counts is that the report tells the truth.
MOMENTS: list[tuple[str, bool | None]] = [
    ("entry.started", False),
    ("cli.parsed", False),
    ("settings.read", False),
    ("command.started", None),
    ("run.named", None),
    ("run.opened", True),
    ("receipts.locked", True),  # on a worker thread: the loop answers the signal while it holds
    ("browser.started", True),
]
#: Moments held off the loop's thread: the test lets them go once the stop is under way.
OFF_THE_LOOP = {"receipts.locked"}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
@pytest.mark.parametrize(("moment", "in_store"), MOMENTS, ids=[m for m, _ in MOMENTS])
def test_signal_at_each_moment_of_the_first_seconds(
    moment: str,
    in_store: bool | None,
    sig: signal.Signals,
    tmp_path: Path,
    fault_site: FaultSite,
    table: list[tuple[str, float, str]],
) -> None:
    plan = write_plan(tmp_path, act_plan(fault_site.url("/go"), "Click Go", max_time_ms=30_000))
    started = time.monotonic()
    with watched(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json", hold=moment) as child:
        child.wait_for(moment)
        os.kill(child.proc.pid, sig)
        if moment in OFF_THE_LOOP:
            child.wait_for("stop.signalled")
        child.release()
        outcome = finish(child.proc, started, 60)
    table.append(("INTERRUPTED", outcome.seconds, f"{moment} exit {outcome.code}"))
    assert outcome.code == 130, outcome.err
    assert "Traceback" not in outcome.err and "another recorder" not in outcome.err, outcome.err
    assert f"stopped by {sig.name}" in outcome.err, outcome.err
    document = json.loads(outcome.out)
    assert document["run_status"] == "INTERRUPTED" and document["exit_code"] == 130
    run_id = document["run_id"]
    assert in_store is None or (run_id is not None) == in_store, outcome.err
    if run_id is None:
        assert "nothing to resume" in outcome.err, outcome.err
        assert _runs_in_store(tmp_path) == []  # the report told the truth
        return
    assert f"waypost resume {run_id}" in outcome.err
    assert document["resume_command"] == f"waypost resume {run_id}"
    resumed = waypost(tmp_path, "resume", run_id, "--approve", "all", "--json", limit_s=90)
    table.append((resumed.status, resumed.seconds, f"{moment} resumed"))
    assert resumed.document.get("run_id") == run_id, resumed.out + resumed.err
    assert resumed.status == "SUCCESS", resumed.out + resumed.err
    verified = waypost(tmp_path, "receipts", "verify", run_id)
    assert verified.code == 0, verified.out + verified.err


def test_ctrl_c_while_the_cli_loads_is_quiet_without_json(tmp_path: Path) -> None:
    """No --json: the sentence alone, on stderr; stdout stays empty."""
    started = time.monotonic()
    with watched(
        tmp_path, "plan", "Open http://127.0.0.1:9/ and read the title", hold="entry.started"
    ) as child:
        child.wait_for("entry.started")
        os.kill(child.proc.pid, signal.SIGINT)
        child.release()
        outcome = finish(child.proc, started, 60)
    assert outcome.code == 130 and outcome.out == "", outcome.out + outcome.err
    assert outcome.err.strip() == "waypost: stopped by SIGINT before start; nothing to resume"


def _runs_in_store(home: Path) -> list[str]:
    path = home / "runs" / STORE_FILENAME
    if not path.exists():
        return []
    with CheckpointStore(path) as store:
        return [run.run_id for run in store.list_runs()]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_signal_while_the_rules_plan(sig: signal.Signals, tmp_path: Path) -> None:
    """`plan --planner rules` starts no event loop: a stop is still a sentence, a document, exit 130."""
    task = "open http://127.0.0.1:9/pricing and read the price"
    started = time.monotonic()
    with watched(tmp_path, "plan", "--planner", "rules", task, "--json", hold="command.started") as child:
        child.wait_for("command.started")
        os.kill(child.proc.pid, sig)
        child.release()
        outcome = finish(child.proc, started, 60)
    assert outcome.code == 130, outcome.err
    assert "Traceback" not in outcome.err and f"stopped by {sig.name}" in outcome.err, outcome.err
    document = json.loads(outcome.out)
    assert document["run_status"] == "INTERRUPTED" and document["run_id"] is None
