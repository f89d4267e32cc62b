"""Replay that heals: a run recorded on the demo site's sign-up page (v1, targets by id) is replayed
against its redesign (v2: new ids and classes, another layout, fields reordered). With --heal every action is
found again, each heal is reported as drift with the target before and after and both screenshots,
and the original run's gate is asked again; against v1 the same replay reports no drift."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from executor.models import RunStatus
from tests.integration.act.test_replay import replay
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

ROOT = Path(__file__).resolve().parents[3]
V1 = ROOT / "app" / "demo" / "site" / "signup.html"  # the demo page as it is
V2 = ROOT / "tests" / "fixtures" / "heal" / "v2" / "signup.html"  # the same page, redesigned
ACTIONS = [
    {"kind": "fill", "target": {"selector": "#name"}, "value": "Ada Lovelace"},
    {"kind": "fill", "target": {"selector": "#email"}, "value": "ada@example.com"},
    {"kind": "select", "target": {"selector": "#package"}, "value": "Pro"},
    {"kind": "check", "target": {"selector": "#terms"}},
]


@pytest.fixture
def versioned_site(tmp_path: Path) -> Iterator[FixtureSite]:
    """Serves v1 until a test puts v2 in its place (same address, the page redesigned)."""
    root = tmp_path / "site"
    root.mkdir()
    shutil.copy(V1, root / "signup.html")
    with FixtureSite(root) as running:
        yield running


async def test_a_redesigned_page_is_healed_step_by_step_and_v1_shows_no_drift(
    act_harness: ActHarness, versioned_site: FixtureSite
) -> None:
    step = {
        "step_id": "a1",
        "type": "ACT",
        "inputs": {"url": versioned_site.url("/signup.html"), "actions": ACTIONS},
    }
    bundle = await act_harness.run(act_plan([step], no_submit=True), confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    run_dir = act_harness.runs_dir / bundle.run_id

    on_v1 = Answer()
    same = await replay(act_harness, run_dir, "replay_v1", on_v1, heal=True)
    assert same.ok, same.summary()
    assert all(s.heal is None for s in same.steps)
    assert len(on_v1.requests) == 1  # the original run's gate, asked again

    shutil.copy(V2, versioned_site.root / "signup.html")
    on_v2 = Answer()
    healed = await replay(act_harness, run_dir, "replay_v2", on_v2, heal=True)
    assert len(on_v2.requests) == 1  # same gate, asked before anything is healed
    acted = [s for s in healed.steps if s.kind != "navigate"]
    assert [s.status for s in acted] == ["ok"] * 4, healed.to_dict()
    assert all(s.heal is not None and s.drifted for s in acted)
    assert not healed.ok and f"healed {len(acted)}" in healed.summary()
    for s in acted:
        assert s.heal is not None
        assert s.heal.target_before["selector"].startswith("#")
        assert s.heal.target_after != s.heal.target_before
        assert s.heal.shot_after and s.heal.found_after
    assert {s.heal.stage for s in acted if s.heal} <= {"stable attributes", "role and name", "label", "text"}
