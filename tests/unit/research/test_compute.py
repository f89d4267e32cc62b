from __future__ import annotations

import re
from typing import Any

import pytest

from executor.errors import FatalToolError
from executor.research.compute import build_payload, says, score
from executor.research.synth_tools import ComputeTool
from tests.unit.research._helpers import context, ev


def rec(name: str, price: float, currency: str = "USD", **fields: Any) -> dict[str, Any]:
    return {
        "name": name,
        "price": price,
        "currency": currency,
        "source_url": f"http://v/{currency}",
        **fields,
    }


RECORDS = [
    rec("Starter", 49, commercial_use="Not allowed", history=2.0, exchanges="HOSE"),
    rec("Professional", 99, commercial_use="Allowed", history=10.0, exchanges="HOSE, HNX"),
    rec("Enterprise", 299, commercial_use="Allowed with redistribution", history=20.0, exchanges="HOSE, HNX"),
    rec("Beta Plus", 2_500_000, "VND", commercial_use="allowed", history=10.0, exchanges="HOSE, HNX"),
]


@pytest.mark.parametrize(
    ("text", "wanted", "expected"),
    [("Allowed", "allowed", True), ("Not allowed", "allowed", False),
     ("internal use only", "use", False), ("Yes", "allowed", False)],
)  # fmt: skip
def test_says_respects_negation(text: str, wanted: str, expected: bool) -> None:
    assert says(text, wanted) is expected


def test_price_limit_requirements_and_currency() -> None:
    decision = score(
        RECORDS,
        weights={"price": -1.0, "commercial_use": 2.0},
        prefer={"commercial_use": "allowed"},
        constraints={"max_price": 100, "currency": "USD"},
    )
    assert [s.record["name"] for s in decision.ranked] == ["Professional", "Starter"]
    assert decision.best is not None and "commercial_use: Allowed" in decision.best.reasons
    rejected = {r["name"]: why for r, why in decision.rejected}
    assert "over the limit 100" in rejected["Enterprise"]
    assert "cannot be compared" in rejected["Beta Plus"]


def test_fx_rates_let_other_currencies_compete() -> None:
    decision = score(RECORDS, constraints={"max_price": 120, "currency": "USD"}, fx={"VND": 0.00004})
    assert [s.record["name"] for s in decision.ranked] == ["Starter", "Professional", "Beta Plus"]


def test_require_and_include_constraints() -> None:
    decision = score(
        RECORDS, constraints={"require": {"commercial_use": "allowed"}, "include": {"exchanges": ["HNX"]}}
    )
    assert [s.record["name"] for s in decision.ranked] == ["Professional", "Enterprise", "Beta Plus"]
    assert {r["name"] for r, _ in decision.rejected} == {"Starter"}


def test_payload_from_the_best_record() -> None:
    assert build_payload({"name": "Pro", "price": 9}, {"email": "a@b.co"}, None) == {
        "email": "a@b.co",
        "package": "Pro",
    }
    assert build_payload({"name": "Pro"}, None, {"plan": "name", "missing": "nope"}) == {"plan": "Pro"}


async def test_compute_tool_recommends_with_reasons_payload_and_citations() -> None:
    ctx = context(
        step_type="COMPUTE",
        task="open the signup page and pick the best datafeed package under $100",
        max_price=100,
        evidence=[ev("http://v/USD", "Acme pricing table.")],
        step_outputs={"f1": {"data_ref": "data_f1", "records": RECORDS}},
    )
    args = {
        "task": "score_and_prepare_payload",
        "prefer": {"commercial_use": "allowed"},
        "weights": {"price": -1.0, "commercial_use": 2.0},
        "payload": {"email": "ops@example.com"},
    }
    out = await ComputeTool()(args, ctx)
    o = out.outputs
    assert o["recommendation"]["name"] == "Professional"
    assert o["recommendation"]["citation"] == 1
    assert o["payload"] == {"email": "ops@example.com", "package": "Professional"}
    assert o["artifacts_ref"] == ["art_reco_s1", "art_payload_s1"]
    assert o["rules"]["constraints"] == {"max_price": 100, "currency": "USD"}
    assert o["answer"].startswith("Recommended: Professional")
    assert set(map(int, re.findall(r"\[(\d+)\]", o["answer"]))) == {1}


async def test_compute_tool_with_nothing_meeting_the_constraints() -> None:
    ctx = context(step_type="COMPUTE", step_outputs={"f1": {"records": RECORDS}})
    out = await ComputeTool()({"constraints": {"max_price": 1, "currency": "USD"}}, ctx)
    assert out.outputs["recommendation"] is None
    assert out.outputs["answer"].startswith("No package meets the constraints")


async def test_compute_tool_picks_records_by_data_ref_and_needs_some() -> None:
    ctx = context(
        step_type="COMPUTE",
        step_outputs={
            "a": {"data_ref": "x", "records": RECORDS[:1]},
            "b": {"data_ref": "y", "records": RECORDS[1:2]},
        },
    )
    out = await ComputeTool()({"data_ref": "y"}, ctx)
    assert out.outputs["recommendation"]["name"] == "Professional"
    with pytest.raises(FatalToolError, match="no records"):
        await ComputeTool()({}, context(step_type="COMPUTE"))


async def test_compute_synthesize_answer_is_a_cited_summary() -> None:
    evidence = [
        ev("http://v/USD", "Acme Professional allows commercial use of the datafeed in SaaS products.")
    ]
    ctx = context(step_type="COMPUTE", task="Which package allows commercial use?", evidence=evidence,
                  step_outputs={"f": {"records": RECORDS[:2]}})  # fmt: skip
    out = await ComputeTool()({"task": "synthesize_answer"}, ctx)
    assert "[1]" in out.outputs["answer"]
    # A readable comparison from the records (it used to be a raw extract plus "Prices found: ...").
    answer = out.outputs["answer"]
    assert "- Starter: 49 USD [1]" in answer and "- Professional: 99 USD [1]" in answer
    assert "Acme Professional allows commercial use of the datafeed in SaaS products [1]." in answer
