"""Four small reference outputs, one per mode, reproduced by real runs on fake tools.

A golden file lists the fields the reference shows; the bundle must contain them exactly (a
`{run_id}` in a golden string stands for the run's id). Two deliberate readings of the reference:
`receipt.actions` lists only UI actions (the reference's mode A example lists web_search there,
which contradicts its own receipts section), and mode D of section 10 is CLARIFY_OR_FALLBACK.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from executor.gates.approval import ApprovalPolicy
from executor.models import RunBundleV1, RuntimeCtxV1
from tests.support.conductor_harness import Harness, make_plan
from tests.support.fake_tools import FakeTool

GOLDEN = Path(__file__).parent / "golden"


def contains(actual: Any, expected: Any, run_id: str) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            contains(actual.get(k), v, run_id) for k, v in expected.items()
        )
    if isinstance(expected, str):
        return bool(actual == expected.replace("{run_id}", run_id))
    return bool(actual == expected)


def check(bundle: RunBundleV1, name: str) -> None:
    expected = json.loads((GOLDEN / name).read_text())
    actual = json.loads(bundle.model_dump_json())
    mismatched = {
        k: actual.get(k) for k, v in expected.items() if not contains(actual.get(k), v, bundle.run_id)
    }
    assert not mismatched, f"{name}: {mismatched}"


async def test_mode_a(harness: Harness) -> None:
    harness.tools["web_search"] = FakeTool("web_search", evidence_per_call=6)
    plan = make_plan(
        "A",
        [
            {"step_id": "r1", "type": "WEB_SEARCH"},
            {"step_id": "s1", "type": "SUMMARIZE", "depends_on": ["r1"]},
        ],
    )
    check(await harness.conductor().run(plan, RuntimeCtxV1()), "mode_a.json")


async def test_mode_b(harness: Harness) -> None:
    harness.tools["open_url"] = FakeTool("open_url")
    plan = make_plan(
        "B",
        [{"step_id": "o1", "type": "OPEN_URL"}, {"step_id": "a1", "type": "FORM_FILL", "depends_on": ["o1"]}],
    )
    check(await harness.conductor().run(plan, RuntimeCtxV1()), "mode_b.json")


async def test_mode_c(harness: Harness) -> None:
    harness.tools["web_search"] = FakeTool("web_search", evidence_per_call=4)
    harness.tools["read_pdf"] = FakeTool("read_pdf", fatal=True)
    harness.tools["form_fill"] = FakeTool("form_fill", outputs={"final_url": "https://example/form"})
    plan = make_plan(
        "C",
        [
            {"step_id": "r1", "type": "WEB_SEARCH"},
            {"step_id": "p1", "type": "READ_PDF"},
            {"step_id": "c1", "type": "COMPUTE", "depends_on": ["r1"]},
            {"step_id": "a1", "type": "FORM_FILL", "depends_on": ["c1"]},
        ],
    )
    check(
        await harness.conductor().run(plan, RuntimeCtxV1(approval_policy=ApprovalPolicy.ALL)), "mode_c.json"
    )


@pytest.mark.parametrize("name", ["mode_d.json"])
async def test_mode_d_clarify(harness: Harness, name: str) -> None:
    plan = make_plan(
        "CLARIFY", [], plan_status="NEEDS_CLARIFICATION", clarification_question="need_more_info"
    )
    check(await harness.conductor().run(plan, RuntimeCtxV1()), name)
