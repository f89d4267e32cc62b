"""Resume never repeats a side effect silently: a run stopped while its click's POST is in flight.

The click on /form-held sends a synchronous POST that the fault server counts and never answers, so
the run is stopped exactly between the action reaching the server and its outcome being saved: by
kill -9 of the whole process group, SIGINT, SIGTERM, or Chromium killed. `resume` must not send the
POST again without asking; with `--approve none` the policy declines the repeat. The server counts
each POST once, the first step (already finished) is never re-run, the receipts verify and show the
intent, the unknown outcome and the decision.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from browser.scratch import PREFIX
from tests.faults.harness import browser_pid, finish, spawn, waypost, write_plan
from tests.support.fault_site import FaultSite


def _held_plan(site: FaultSite) -> dict[str, Any]:
    """Two ACT steps: one reads /ok and finishes, the next fills and clicks Send on /form-held."""
    act = {"kind": "action", "requires_user_confirm": True, "reason": "acts"}
    return {
        "mode": "B",
        "plan_status": "READY",
        "steps": [
            {
                "step_id": "stp_open",
                "type": "ACT",
                "name": "Open the first page",
                "policy_gate_id": "gate_open",
                "inputs": {"url": site.url("/ok"), "actions": [{"kind": "extract"}]},
            },
            {
                "step_id": "stp_send",
                "type": "ACT",
                "name": "Send the order",
                "policy_gate_id": "gate_send",
                "depends_on": ["stp_open"],
                "inputs": {
                    "url": site.url("/form-held"),
                    "actions": [
                        {"kind": "fill", "target": {"selector": "#name"}, "value": "Ada"},
                        {"kind": "click", "target": {"selector": "#send"}},
                    ],
                },
            },
        ],
        "policy_gates": [{"gate_id": "gate_open", **act}, {"gate_id": "gate_send", **act}],
        "budget": {"max_time_ms": 60_000, "max_tool_calls": 30, "max_actions": 40},
    }


def _kill_group(proc: Any) -> None:
    os.killpg(proc.pid, signal.SIGKILL)


def _signal(sig: signal.Signals) -> Callable[[Any], None]:
    return lambda proc: os.kill(proc.pid, sig)


def _kill_chromium(proc: Any) -> None:
    pid = browser_pid(proc.pid)
    assert pid is not None, "the run's Chromium is gone before the kill"
    os.kill(pid, signal.SIGKILL)


STOPS: dict[str, Callable[[Any], None]] = {
    "kill9": _kill_group,
    "sigint": _signal(signal.SIGINT),
    "sigterm": _signal(signal.SIGTERM),
    "chromium_killed": _kill_chromium,
}


@pytest.mark.parametrize("how", list(STOPS))
def test_stopped_while_post_in_flight_resume_posts_once(
    how: str, tmp_path: Path, table: list[tuple[str, float, str]]
) -> None:
    with FaultSite() as site:  # its own server: the held POST and the counts belong to this case
        plan = write_plan(tmp_path, _held_plan(site))
        started = time.monotonic()
        proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
        site.wait_for_post("/submit-held")  # the POST landed; the click has not returned
        STOPS[how](proc)
        stopped = finish(proc, started, 60)
        assert stopped.code != -999 and "Traceback" not in stopped.err, stopped.err
        run_id = _run_id(tmp_path)
        table.append((stopped.status, stopped.seconds, f"posts {site.posts('/submit-held')}"))

        resumed = waypost(tmp_path, "resume", run_id, "--approve", "none", "--json", limit_s=90)
        table.append((resumed.status, resumed.seconds, f"posts {site.posts('/submit-held')}"))
        assert "Traceback" not in resumed.err, resumed.err
        assert resumed.document.get("run_id") == run_id, resumed.out + resumed.err
        assert site.posts("/submit-held") == 1  # the click was not sent again
        assert site.gets("/ok") == 1  # the finished step was not re-run
        assert resumed.status == "PARTIAL", resumed.out
        assert "outcome unknown" in resumed.sentence and "click" in resumed.sentence

        notes = _receipt_texts(tmp_path, run_id)
        assert any("outcome is unknown" in n and "click" in n for n in notes), notes
        assert any("not repeated (declined by policy:none in leg 2)" in n for n in notes), notes
        assert any("gate_send:repeat:" in n and "declined" in n for n in notes), notes
        verified = waypost(tmp_path, "receipts", "verify", run_id)
        assert verified.code == 0, verified.out + verified.err
        # the stopped process's browser folders are gone (a kill -9: removed by the resume's launch)
        assert not list(Path(tempfile.gettempdir()).glob(f"{PREFIX}{proc.pid}-*"))


def _run_id(home: Path) -> str:
    folders = [p.name for p in (home / "runs").glob("run_*") if p.is_dir()]
    assert len(folders) == 1, folders
    return folders[0]


def _receipt_texts(home: Path, run_id: str) -> list[str]:
    """Each receipt record as one line of text, for reading what the run recorded."""
    lines = (home / "runs" / run_id / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.dumps(json.loads(line)) for line in lines if line.strip()]


@pytest.mark.parametrize("third", ["none", "ask"])
def test_an_approved_repeat_covers_one_attempt(
    third: str, tmp_path: Path, table: list[tuple[str, float, str]]
) -> None:
    """POST #1 never answered, kill -9; `resume --approve all` repeats it (POST #2, held too), kill -9
    again; the third leg meets a new unknown outcome and asks under its own policy. Before, it
    logged "approved, decided_by policy:all" in the same millisecond and POST #3 went out."""
    with FaultSite() as site:
        plan = write_plan(tmp_path, _held_plan(site))
        first = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
        site.wait_for_post("/submit-held")
        _kill_group(first)
        finish(first, time.monotonic(), 60)
        run_id = _run_id(tmp_path)

        second = spawn(tmp_path, "resume", run_id, "--approve", "all", "--json")
        site.wait_for_post("/submit-held", 2)  # the approved repeat went out, and is held again
        _kill_group(second)
        finish(second, time.monotonic(), 60)

        third_leg = waypost(tmp_path, "resume", run_id, "--approve", third, "--json", limit_s=90)
        table.append((third_leg.status, third_leg.seconds, f"posts {site.posts('/submit-held')}"))
        assert "Traceback" not in third_leg.err, third_leg.err
        assert site.posts("/submit-held") == 2  # the second approval was not reused
        gates = _gate_records(tmp_path, run_id)
        repeats = [g for g in gates if ":repeat:" in g["gate_id"]]
        assert [(g["decision"], g["decided_by"], g["leg"]) for g in repeats[:1]] == [
            ("approved", "policy:all", 2)
        ]
        if third == "none":
            assert third_leg.status == "PARTIAL", third_leg.out
            assert [(g["decision"], g["decided_by"], g["leg"]) for g in repeats[1:]] == [
                ("declined", "policy:none", 3)
            ]
            assert repeats[1]["gate_id"] != repeats[0]["gate_id"]  # a question of its own
        else:  # `ask` with no terminal: nobody to answer, so the run waits, asking again
            assert third_leg.status == "NEEDS_CONFIRMATION", third_leg.out
            pending = third_leg.document["pending_user_input"]
            assert pending["gate_id"] not in {g["gate_id"] for g in repeats if g["decision"] != "pending"}
            assert [g["decision"] for g in repeats[1:]] == ["pending"]
        verified = waypost(tmp_path, "receipts", "verify", run_id)  # a paused run: UNFINISHED, exit 1
        assert "untouched" in verified.out and verified.code == (0 if third == "none" else 1), verified.out


def _gate_records(home: Path, run_id: str) -> list[dict[str, Any]]:
    lines = (home / "runs" / run_id / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return [r for r in records if r["kind"] == "gate_decision"]


def _unanswered_form_plan(site: FaultSite) -> dict[str, Any]:
    """Fill and send a plain form whose POST the server takes and never answers."""
    gate = {"gate_id": "gate_send", "kind": "action", "requires_user_confirm": True, "reason": "sends"}
    actions = [
        {"kind": "fill", "target": {"selector": "#name"}, "value": "Ada"},
        {"kind": "click", "target": {"role": "button", "name": "Send"}},
    ]
    step = {
        "step_id": "stp_send",
        "type": "ACT",
        "name": "Send the form",
        "policy_gate_id": "gate_send",
        "inputs": {"url": site.url("/form-unanswered"), "actions": actions},
    }
    budget = {"max_time_ms": 60_000, "max_tool_calls": 30, "max_actions": 40}
    return {"mode": "B", "plan_status": "READY", "steps": [step], "policy_gates": [gate], "budget": budget}


def test_chromium_killed_while_a_form_post_awaits_its_answer_never_resumes_to_success(
    tmp_path: Path, table: list[tuple[str, float, str]]
) -> None:
    """The click returned at once (the page had it), the POST never got its answer, Chromium died.
    Before, `resume --approve none` re-typed the field and ended SUCCESS ("click:ok")."""
    with FaultSite() as site:
        plan = write_plan(tmp_path, _unanswered_form_plan(site))
        started = time.monotonic()
        proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
        site.wait_for_post("/submit-never")  # the server has the POST and will never answer it
        _kill_chromium(proc)
        stopped = finish(proc, started, 60)
        table.append((stopped.status, stopped.seconds, f"posts {site.posts('/submit-never')}"))
        assert stopped.status == "FAILED", stopped.out + stopped.err
        run_id = _run_id(tmp_path)

        resumed = waypost(tmp_path, "resume", run_id, "--approve", "none", "--json", limit_s=90)
        table.append((resumed.status, resumed.seconds, f"posts {site.posts('/submit-never')}"))
        assert "Traceback" not in resumed.err, resumed.err
        assert resumed.status == "PARTIAL", resumed.out  # never SUCCESS: nobody saw the answer
        assert "outcome unknown" in resumed.sentence and "click" in resumed.sentence
        assert site.posts("/submit-never") == 1
        notes = _receipt_texts(tmp_path, run_id)
        assert any("outcome is unknown" in n and "click" in n for n in notes), notes
