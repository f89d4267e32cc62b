"""What the model is asked to return (a PlanDraft) and how a draft becomes an ExecutionPlan.

The draft is deliberately narrower than ExecutionPlan: the model names steps, their order, their
inputs and which kind of gate a step needs; budgets, verify criteria, gate wording and blocked
actions come from the rules (see safety_floor.py). Every field is required so the schema can be
strict; "no value" is null.
"""

from __future__ import annotations

import re
from typing import Literal, get_args
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from planner.models import ExecutionPlan, Step, StepType, SubQuery, SubQueryRole

DraftStepType = Literal[
    "RETRIEVE", "WEB_SEARCH", "OPEN_URL", "EXTRACT_DOM", "READ_PDF", "SUMMARIZE", "COMPARE_SOURCES",
    "FETCH_DATA", "COMPUTE", "ACT", "FORM_FILL", "CLICK_NAV", "DOWNLOAD_FILE",
]  # fmt: skip
DraftGateKind = Literal["action", "login", "submit", "payment", "purchase", "delete", "send", "download"]


class _Draft(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DraftField(_Draft):
    field: str = Field(description="form field key, e.g. name, email, company")
    value: str = Field(description="value to type; secrets only as {{secret:NAME}} placeholders")


class DraftSubQuery(_Draft):
    q: str
    role: Literal["official", "news", "data", "background"]


class DraftStep(_Draft):
    step_id: str = Field(description="short unique id like stp_r1, stp_a1")
    type: DraftStepType
    name: str
    depends_on: list[str]
    optional: bool
    url: str | None = Field(description="start URL for OPEN_URL or ACT steps, else null")
    goal: str | None = Field(description="what an ACT step must achieve, else null")
    query: str | None = Field(description="search query for WEB_SEARCH, else null")
    payload: list[DraftField] = Field(description="form values for ACT steps, else []")
    gate: DraftGateKind | None = Field(description="gate a person must approve before this step, or null")


class PlanDraft(_Draft):
    mode: Literal["A", "B", "C", "D", "CLARIFY"]
    rationale: str
    clarification_question: str | None
    sub_queries: list[DraftSubQuery]
    steps: list[DraftStep]


_ID = re.compile(r"[^a-z0-9_]+")


def _step_id(raw: str, used: set[str]) -> str:
    base = _ID.sub("_", raw.lower()).strip("_")[:40] or "stp"
    sid, n = base, 2
    while sid in used:
        sid, n = f"{base}_{n}", n + 1
    used.add(sid)
    return sid


_DRAFT_TYPES = frozenset(get_args(DraftStepType))
_ACTION_TYPES = frozenset({"ACT", "FORM_FILL", "CLICK_NAV", "DOWNLOAD_FILE"})
_URL_TYPES = frozenset({"OPEN_URL", "EXTRACT_DOM", "READ_PDF"})


def _is_web(url: str | None) -> bool:
    return bool(url) and urlsplit(url or "").scheme.lower() in ("http", "https")


def draft_steps(draft: PlanDraft) -> list[Step]:
    """Steps with the executor's input shapes.

    Action-family steps all become ACT (the goal-driven runner), URL steps without a web URL are
    dropped, and dependencies on unknown or dropped steps are removed, never invented.
    """
    kept = [s for s in draft.steps if not (s.type in _URL_TYPES and not _is_web(s.url))]
    used: set[str] = set()
    ids = {s.step_id: _step_id(s.step_id, used) for s in kept}
    queries = [{"q": q.q, "role": q.role} for q in draft.sub_queries]
    steps: list[Step] = []
    for s in kept:
        inputs: dict[str, object] = {}
        step_type = StepType.ACT if s.type in _ACTION_TYPES else StepType(s.type)
        if step_type is StepType.ACT:
            inputs = {"goal": s.goal or s.name, "payload": {f.field: f.value for f in s.payload}}
            if s.url:
                inputs["url"] = s.url
        elif step_type is StepType.WEB_SEARCH:
            inputs = {"query": s.query or s.name}
        elif step_type is StepType.RETRIEVE:
            inputs = {"sub_queries": queries, "top_k": 8}
        elif s.type in _URL_TYPES:
            inputs = {"url": s.url}
        steps.append(
            Step(
                step_id=ids[s.step_id],
                type=step_type,
                name=s.name,
                depends_on=list(dict.fromkeys(ids[d] for d in s.depends_on if d in ids and d != s.step_id)),
                optional=s.optional,
                inputs=inputs,
                config={"gate": s.gate} if s.gate else {},
            )
        )
    return steps


def draft_sub_queries(draft: PlanDraft) -> list[SubQuery]:
    return [SubQuery(q=q.q, role=SubQueryRole(q.role)) for q in draft.sub_queries if q.q.strip()][:8]


def plan_to_draft(plan: ExecutionPlan) -> PlanDraft:
    """The rule plan in draft form: shown to the model as the baseline it may refine."""
    steps: list[DraftStep] = []
    for s in plan.steps:
        gate = plan.gate(s.policy_gate_id)
        payload = s.inputs.get("payload") if isinstance(s.inputs.get("payload"), dict) else {}
        assert isinstance(payload, dict)
        steps.append(
            DraftStep(
                step_id=s.step_id,
                type=s.type_name if s.type_name in _DRAFT_TYPES else "COMPUTE",
                name=s.name,
                depends_on=list(s.depends_on),
                optional=s.optional,
                url=s.inputs.get("url") if isinstance(s.inputs.get("url"), str) else None,
                goal=s.inputs.get("goal") if isinstance(s.inputs.get("goal"), str) else None,
                query=s.inputs.get("query") if isinstance(s.inputs.get("query"), str) else None,
                payload=[DraftField(field=str(k), value=str(v)) for k, v in payload.items()],
                gate=gate.kind.value if gate is not None and gate.kind.value != "generic" else None,
            )
        )
    return PlanDraft(
        mode=plan.mode.value,
        rationale="; ".join(plan.reason_codes),
        clarification_question=plan.clarification_question,
        sub_queries=[DraftSubQuery(q=q.q, role=q.role.value) for q in plan.sub_queries],
        steps=steps,
    )
