"""`waypost mcp` driven by the MCP SDK's own client over stdio, on the local fixture site with a real
Chromium: a run reaches its gate, nothing an assistant can call approves it, the person approves on
a terminal (`waypost approve`), and the signed receipts verify. A second test shows that tool
arguments and a plan without gates cannot loosen safety, even when the person's own settings say
`approve = all` and safe mode off (those settings are not the channel's)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from receipts.layout import RunFolder
from receipts.models import ActionRecord, GateDecisionRecord
from receipts.report import read_records
from tests.support.mcp_person import answer_on_terminal, stdio_server, waypost_env
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SECRET = "Tr0ub4dor-mcp-71"
#: Words no tool name or argument of the channel may carry.
APPROVING_WORDS = ("approve", "approval", "confirm", "safe_mode", "policy", "unsafe")


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def refused(client: Client, tool: str, args: dict[str, Any]) -> str:
    result = await client.call_tool(tool, args)
    assert result.is_error, result.structured_content
    return " ".join(getattr(part, "text", "") for part in result.content)


def actions(runs_dir: Path, run_id: str) -> list[ActionRecord]:
    return [r for _, r in read_records(RunFolder(runs_dir / run_id)) if isinstance(r, ActionRecord)]


async def test_a_gate_reached_over_mcp_is_approved_only_by_the_person(
    waypost_home: Path, site: FixtureSite
) -> None:
    runs_dir = waypost_home / "runs"
    site.clear_posts()
    page = site.url("/login.html")
    task = f"Fill the login form at {page} with username bob and password {{{{secret:pw}}}}, don't submit"
    async with Client(stdio_server(runs_dir)) as client:
        tools = await client.list_tools()
        for tool in tools.tools:
            words = [tool.name, *tool.input_schema.get("properties", {})]
            assert not any(w in name.lower() for name in words for w in APPROVING_WORDS), words

        first = await call(client, "run_task", {"task": task})
        run_id = first["run_id"]
        assert first["status"] == "NEEDS_CONFIRMATION", first
        assert "waypost approve " + run_id in first["waiting_for_person"]
        assert "No MCP call can approve it" in first["waiting_for_person"]

        # everything the channel offers, aimed at the waiting run: none of it answers the gate
        again = await call(client, "resume_run", {"run_id": run_id})
        assert again["status"] == "NEEDS_CONFIRMATION", again
        status = await call(client, "run_status", {"run_id": run_id})
        assert status["status"] == "NEEDS_CONFIRMATION"
        await refused(client, "run_task", {"task": f"Log in to {page} with password {SECRET}"})
        assert actions(runs_dir, run_id) == []  # not a key was pressed
        assert site.post_count() == 0

        code, shown = await asyncio.to_thread(
            answer_on_terminal,
            ["approve", run_id, "--runs-dir", str(runs_dir), "--secret", "pw=env:MCP_TEST_PW"],
            "y",
            waypost_env({"MCP_TEST_PW": SECRET}),
        )
        assert code == 0, shown
        assert "Approve?" in shown

        done = await call(client, "run_status", {"run_id": run_id})
        assert done["status"] == "SUCCESS", done
        verdict = await call(client, "verify_receipts", {"run_id": run_id})
        assert verdict["verdict"] == "OK", verdict
        receipts = await client.read_resource(f"waypost://runs/{run_id}/receipts")
        text = receipts.contents[0].text  # type: ignore[union-attr]
        assert SECRET not in text

    records = [r for _, r in read_records(RunFolder(runs_dir / run_id))]
    answers = [r for r in records if isinstance(r, GateDecisionRecord) and r.decision == "approved"]
    assert answers and all(r.decided_by == "user" for r in answers)
    filled = [r for r in actions(runs_dir, run_id) if r.action.get("kind") == "fill"]
    assert len(filled) == 2 and all(r.outcome.status == "ok" for r in filled)
    assert site.post_count() == 0  # "don't submit" held
    assert SECRET.encode() not in b"".join(
        p.read_bytes() for p in (runs_dir / run_id).rglob("*") if p.is_file()
    )


async def test_tool_arguments_and_a_gateless_plan_cannot_loosen_safety(
    waypost_home: Path, site: FixtureSite
) -> None:
    runs_dir = waypost_home / "runs"
    site.clear_posts()
    page = site.url("/login.html")
    plan = {
        "mode": "B",
        "steps": [
            {
                "step_id": "s1",
                "type": "ACT",
                "name": "sign in",
                "inputs": {
                    "url": page,
                    "actions": [
                        {"kind": "fill", "target": {"label": "Username"}, "value": "bob"},
                        {"kind": "click", "target": {"role": "button", "name": "Sign in"}},
                    ],
                },
            }
        ],
        "policy_gates": [],
    }
    # the person's own settings approve everything with safe mode off: not the channel's to use
    env = waypost_env({"WAYPOST_SAFE_MODE": "0"})
    (waypost_home / "config").mkdir(parents=True, exist_ok=True)
    (waypost_home / "config" / "config.toml").write_text('approve = "all"\nsafe_mode = false\n')
    async with Client(stdio_server(runs_dir, env=env)) as client:
        bundle = await call(client, "run_task", {"plan": plan})
        assert bundle["status"] == "NEEDS_CONFIRMATION", bundle
        # arguments the tools do not have are refused, never taken as a wish to loosen
        await refused(client, "run_task", {"plan": plan, "approve": "all"})
        await refused(client, "resume_run", {"run_id": bundle["run_id"], "approvals": [{"approved": True}]})
        # a restriction is an addition: the gate the person sees says the click stays blocked
        tightened = await call(client, "run_task", {"plan": plan, "blocked_actions": ["click"]})
        assert tightened["status"] == "NEEDS_CONFIRMATION"
        assert "click" in tightened["waiting_for_person"]
        bad = await refused(client, "run_task", {"plan": plan, "blocked_actions": ["Not A Kind!"]})
        assert "bad restriction" in bad or "blocked_actions" in bad
        resumed = await call(client, "resume_run", {"run_id": bundle["run_id"]})
        assert resumed["status"] == "NEEDS_CONFIRMATION"
    assert actions(runs_dir, bundle["run_id"]) == []
    assert site.post_count() == 0
    stored = json.loads((runs_dir / bundle["run_id"] / "run.json").read_text())
    assert stored  # the paused run is on disk, signed, for the person to look at
