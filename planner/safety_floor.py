"""The rules' safety floor under the LLM architect: the model may refine, never lower.

Kept whatever the model says: the task spec, budgets and verify criteria come from the rules; every
action step is gated by a gate the rules made (so blocked_actions, and "submit" under no_submit,
stay); the rules' login gate stays in front of the first action; mode A never gains an action; a
CLARIFY floor stays CLARIFY unless the model finds a research question in it; C keeps every action
after research, D keeps research after the state-reading action; secrets stay placeholders; only
http(s) URLs survive.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from pydantic import SecretStr, ValidationError

from common.secrecy import placeholder_names
from planner.builders import BUDGETS
from planner.draft import PlanDraft, draft_steps, draft_sub_queries
from planner.gates import make_gate
from planner.models import (
    ExecutionPlan,
    GateKind,
    PlanMode,
    PlanStatus,
    PolicyGate,
    Step,
    StepFamily,
    StepType,
    VerifyCriteria,
)
from planner.secrets import redact

MAX_STEPS = 12
_LOGIN_FIELDS = ("username", "email", "password")


def apply_safety_floor(
    draft: PlanDraft, floor: ExecutionPlan, secrets: dict[str, SecretStr] | None = None
) -> tuple[ExecutionPlan, list[str]]:
    """The plan to run and the SAFETY_FLOOR:* codes saying what was re-imposed."""
    codes: list[str] = []
    mode = PlanMode(draft.mode)
    if floor.plan_status is not PlanStatus.READY:
        if not ("CLARIFY:no_intent" in floor.reason_codes and mode is PlanMode.A):
            return floor, ["SAFETY_FLOOR:kept_clarify"]
        codes.append("LLM_RESOLVED_CLARIFY:research")
    if mode is PlanMode.CLARIFY:
        question = draft.clarification_question or floor.clarification_question
        plan = floor.model_copy(
            update={
                "mode": PlanMode.CLARIFY,
                "plan_status": PlanStatus.NEEDS_CLARIFICATION,
                "steps": [],
                "policy_gates": [],
                "sub_queries": [],
                "clarification_question": question,
            }
        )
        return plan, ["LLM_ASKS_CLARIFICATION"]
    steps = draft_steps(draft)[:MAX_STEPS]
    if floor.mode is PlanMode.A or mode is PlanMode.A:
        if any(s.is_action for s in steps):
            codes.append("SAFETY_FLOOR:removed_actions_in_mode_A")
        steps, mode = _without_actions(steps), PlanMode.A
    has_research = any(not s.is_action for s in steps)
    if mode is PlanMode.B and any(s.family is StepFamily.RETRIEVE for s in steps):
        mode = PlanMode.C
        codes.append("SAFETY_FLOOR:mode_B_with_research_is_C")
    if not steps or (mode is PlanMode.A and not has_research):
        return floor, ["SAFETY_FLOOR:empty_candidate"]
    gates = _gate_steps(steps, floor, codes)
    steps = _order(mode, steps, codes)
    _protect_secrets(steps, floor, secrets or {}, codes)
    try:
        plan = ExecutionPlan(
            trace_id=floor.trace_id,
            mode=mode,
            task=floor.task,
            context=floor.context,
            steps=steps,
            sub_queries=draft_sub_queries(draft) if has_research else [],
            policy_gates=gates,
            budget=BUDGETS[mode].model_copy(),
            verify_criteria=_verify(mode, floor),
            reason_codes=[f"MODE_{mode.value}:llm_architect", *floor.reason_codes[2:], *codes],
        )
    except ValidationError as exc:
        return floor, [f"SAFETY_FLOOR:invalid_candidate:{exc.error_count()}"]
    return plan, codes


def _without_actions(steps: list[Step]) -> list[Step]:
    dropped = {s.step_id for s in steps if s.is_action}
    return [
        s.model_copy(update={"depends_on": [d for d in s.depends_on if d not in dropped]})
        for s in steps
        if s.step_id not in dropped
    ]


def _gate_steps(steps: list[Step], floor: ExecutionPlan, codes: list[str]) -> list[PolicyGate]:
    """Every action step gets a gate the rules made; the model only picks among them.

    The login gate lets a form be sent (signing in needs it), so it only covers a first action
    whose payload is credentials alone: a model cannot pass a form fill off as a login.
    """
    by_kind = {g.kind: g for g in floor.policy_gates}
    base = next((g for g in floor.policy_gates if g.kind in (GateKind.ACTION, GateKind.DOWNLOAD)), None)
    if base is None and floor.task is not None:
        base = make_gate(GateKind.ACTION, floor.task, "act on the page")
    used: dict[str, PolicyGate] = {}
    actions = [s for s in steps if s.is_action]
    for position, step in enumerate(actions):
        hint = step.config.pop("gate", None)
        gate = by_kind.get(GateKind(hint)) if isinstance(hint, str) else None
        if isinstance(hint, str) and gate is None:
            codes.append(f"SAFETY_FLOOR:gate_{hint}_not_in_rules")
        if gate is not None and gate.kind is GateKind.LOGIN and not _credentials_only(step, position):
            codes.append(f"SAFETY_FLOOR:login_gate_refused:{step.step_id}")
            gate = None
        if gate is None and hint is None:
            codes.append(f"SAFETY_FLOOR:gate_added:{step.step_id}")
        gate = gate or base
        if gate is None:
            continue
        step.policy_gate_id = gate.gate_id
        used[gate.gate_id] = gate
    login = by_kind.get(GateKind.LOGIN)
    if login is not None and actions and login.gate_id not in used:
        login_step = next(s for s in floor.steps if s.policy_gate_id == login.gate_id)
        restored = login_step.model_copy(
            update={"step_id": _free_id(login_step.step_id, steps), "depends_on": []}
        )
        actions[0].depends_on = [restored.step_id, *actions[0].depends_on]
        steps.insert(steps.index(actions[0]), restored)
        used[login.gate_id] = login
        codes.append("SAFETY_FLOOR:login_gate_restored")
    return list(used.values())


def _credentials_only(step: Step, position: int) -> bool:
    payload = step.inputs.get("payload")
    keys = set(payload) if isinstance(payload, dict) else set()
    return position == 0 and keys <= set(_LOGIN_FIELDS)


def _free_id(step_id: str, steps: list[Step]) -> str:
    taken = {s.step_id for s in steps}
    sid, n = step_id, 2
    while sid in taken:
        sid, n = f"{step_id}_{n}", n + 1
    return sid


def _order(mode: PlanMode, steps: list[Step], codes: list[str]) -> list[Step]:
    """C: actions wait for all research; D: everything waits for the state read (the first action,
    else the first OPEN_URL: reading the person's page needs no gate)."""
    research = [s.step_id for s in steps if not s.is_action]
    actions = [s for s in steps if s.is_action]
    if mode is PlanMode.C:
        for step in steps:
            if not step.is_action and any(d in {a.step_id for a in actions} for d in step.depends_on):
                step.depends_on = [d for d in step.depends_on if d in research]
                codes.append(f"SAFETY_FLOOR:research_before_action:{step.step_id}")
        for step in actions:
            before = _ancestors(steps, step.step_id)
            missing = [r for r in research if r not in before]
            if missing:
                step.depends_on = [*step.depends_on, *missing]
                codes.append(f"SAFETY_FLOOR:action_waits_for_research:{step.step_id}")
    reader = next((s for s in steps if s.type is StepType.OPEN_URL), None)
    if mode is PlanMode.D and not actions and reader is not None:
        reader.inputs = {**reader.inputs, "purpose": "read_state"}
        if reader.depends_on:
            reader.depends_on = []
            codes.append(f"SAFETY_FLOOR:state_read_first:{reader.step_id}")
        for step in steps:
            if step is not reader and reader.step_id not in _ancestors(steps, step.step_id):
                step.depends_on = [reader.step_id, *step.depends_on]
        steps = [reader, *[s for s in steps if s is not reader]]
    if mode is PlanMode.D and actions:
        first = actions[0]
        for step in actions:
            if any(d in research for d in step.depends_on):
                step.depends_on = [d for d in step.depends_on if d not in research]
                codes.append(f"SAFETY_FLOOR:state_read_first:{step.step_id}")
        for step in steps:
            if not step.is_action and first.step_id not in step.depends_on:
                step.depends_on = [first.step_id, *step.depends_on]
        steps = [first, *[s for s in steps if s is not first]]
    return steps


def _ancestors(steps: list[Step], step_id: str) -> set[str]:
    deps = {s.step_id: s.depends_on for s in steps}
    seen: set[str] = set()
    todo = list(deps.get(step_id, []))
    while todo:
        sid = todo.pop()
        if sid not in seen and sid != step_id:
            seen.add(sid)
            todo.extend(deps.get(sid, []))
    return seen


def _protect_secrets(
    steps: list[Step], floor: ExecutionPlan, secrets: dict[str, SecretStr], codes: list[str]
) -> None:
    """Literal secret values become placeholders; placeholders of undeclared secrets are dropped."""
    declared = {ref.name for ref in floor.task.secrets} if floor.task else set()
    for step in steps:
        payload = step.inputs.get("payload")
        if isinstance(payload, dict):
            clean: dict[str, str] = {}
            for key, value in payload.items():
                text = redact(str(value), secrets)
                names = set(placeholder_names(text))
                if names - declared:
                    codes.append(f"SAFETY_FLOOR:undeclared_secret_dropped:{key}")
                    continue
                clean[str(key)] = text
            step.inputs["payload"] = clean
        for key in ("goal", "query", "url"):
            if isinstance(step.inputs.get(key), str):
                step.inputs[key] = redact(step.inputs[key], secrets)
        url = step.inputs.get("url")
        if isinstance(url, str) and urlsplit(url).scheme.lower() not in ("http", "https"):
            del step.inputs["url"]  # file:, javascript:, data: ... are never the model's to open
            codes.append(f"SAFETY_FLOOR:url_dropped:{step.step_id}")


def _verify(mode: PlanMode, floor: ExecutionPlan) -> VerifyCriteria:
    research = mode in (PlanMode.A, PlanMode.C, PlanMode.D)
    citations = bool(floor.task and floor.task.constraints.must_have_citations)
    return VerifyCriteria(
        require_citations=research and citations,
        ui_receipt_required=mode is not PlanMode.A,
        min_evidence=max(floor.verify_criteria.min_evidence, 1 if research else 0),
        freshness_days=floor.verify_criteria.freshness_days,
    )
