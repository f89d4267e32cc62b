"""Planner contracts: what the planner understands of a task and the plan it hands to the executor.

Every model carries a `schema_version` so stored plans and checkpoints stay readable as the
contracts evolve; every model round-trips through JSON without loss.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    BeforeValidator,
    Field,
    StringConstraints,
    model_validator,
)

from common.contracts import Contract, new_id, utc_now
from common.secrecy import NAME as SECRET_NAME
from common.secrecy import placeholder
from planner.asks import AskList
from planner.metering import ModelUsage

# --- enums -------------------------------------------------------------------------------------


class PlanMode(StrEnum):
    """Plan modes (A research, B action, C research->action, D action->research; docs/architecture.md)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    CLARIFY = "CLARIFY"


_PLAN_MODE_ALIASES = {
    "RESEARCH": "A",
    "RESEARCH_ONLY": "A",
    "ACTION": "B",
    "ACTION_ONLY": "B",
    "HYBRID": "C",
    "RESEARCH_THEN_ACTION": "C",
    "ACTION_THEN_RESEARCH": "D",
    "CLARIFY_OR_FALLBACK": "CLARIFY",
}


def _plan_mode_alias(value: object) -> object:
    if isinstance(value, str):
        return _PLAN_MODE_ALIASES.get(value.upper(), value.upper())
    return value


class PlanStatus(StrEnum):
    READY = "READY"
    NEEDS_CLARIFICATION = "NEEDS_CLARIFICATION"
    BLOCKED = "BLOCKED"


class StepFamily(StrEnum):
    """Coarse step families: RETRIEVE, FETCH_DATA, COMPUTE, ACT."""

    RETRIEVE = "RETRIEVE"
    FETCH_DATA = "FETCH_DATA"
    COMPUTE = "COMPUTE"
    ACT = "ACT"


class StepType(StrEnum):
    """Both vocabularies of step types: the coarse families and the fine types."""

    RETRIEVE = "RETRIEVE"
    FETCH_DATA = "FETCH_DATA"
    COMPUTE = "COMPUTE"
    ACT = "ACT"
    WEB_SEARCH = "WEB_SEARCH"
    OPEN_URL = "OPEN_URL"
    EXTRACT_DOM = "EXTRACT_DOM"
    READ_PDF = "READ_PDF"
    SUMMARIZE = "SUMMARIZE"
    COMPARE_SOURCES = "COMPARE_SOURCES"
    FORM_FILL = "FORM_FILL"
    CLICK_NAV = "CLICK_NAV"
    DOWNLOAD_FILE = "DOWNLOAD_FILE"
    WRITE_ARTIFACT = "WRITE_ARTIFACT"


STEP_FAMILY: dict[StepType, StepFamily] = {
    StepType.RETRIEVE: StepFamily.RETRIEVE,
    StepType.WEB_SEARCH: StepFamily.RETRIEVE,
    StepType.OPEN_URL: StepFamily.RETRIEVE,
    StepType.EXTRACT_DOM: StepFamily.RETRIEVE,
    StepType.READ_PDF: StepFamily.RETRIEVE,
    StepType.SUMMARIZE: StepFamily.RETRIEVE,
    StepType.COMPARE_SOURCES: StepFamily.RETRIEVE,
    StepType.FETCH_DATA: StepFamily.FETCH_DATA,
    StepType.COMPUTE: StepFamily.COMPUTE,
    StepType.ACT: StepFamily.ACT,
    StepType.FORM_FILL: StepFamily.ACT,
    StepType.CLICK_NAV: StepFamily.ACT,
    StepType.DOWNLOAD_FILE: StepFamily.ACT,
    StepType.WRITE_ARTIFACT: StepFamily.ACT,
}

_CUSTOM_TYPE = re.compile(r"^[A-Z][A-Z0-9_]{1,63}$")


def _step_type(value: object) -> object:
    """Known types become the enum; other UPPER_SNAKE names stay strings.

    A plan may name a step type that a later registry provides (for instance "FIN_PRICE_FETCH"); the
    executor fails such a step at run time when nothing is registered for it, instead of rejecting
    the whole plan. Anything that is not an identifier is rejected here.
    """
    if isinstance(value, StepType):
        return value
    if not isinstance(value, str):
        raise ValueError(f"step type must be a string, got {type(value).__name__}")
    name = value.strip().upper()
    try:
        return StepType(name)
    except ValueError:
        if not _CUSTOM_TYPE.match(name):
            raise ValueError(f"step type {value!r} is not an UPPER_SNAKE identifier") from None
        return name


StepTypeName = Annotated[StepType | str, BeforeValidator(_step_type)]


class GateKind(StrEnum):
    ACTION = "action"
    LOGIN = "login"
    SUBMIT = "submit"
    PAYMENT = "payment"
    PURCHASE = "purchase"
    DELETE = "delete"
    SEND = "send"
    DOWNLOAD = "download"
    GENERIC = "generic"


class Intent(StrEnum):
    RESEARCH = "research"
    ACTION = "action"
    RESEARCH_THEN_ACTION = "research_then_action"
    ACTION_THEN_RESEARCH = "action_then_research"
    UNCLEAR = "unclear"


class RiskFlag(StrEnum):
    LOGIN = "login"
    PAYMENT = "payment"
    PII = "pii"
    EXTERNAL_SIDE_EFFECT = "external_side_effect"
    IRREVERSIBLE = "irreversible"


class SubQueryRole(StrEnum):
    OFFICIAL = "official"
    NEWS = "news"
    DATA = "data"
    BACKGROUND = "background"


# --- context and task -------------------------------------------------------------------------


class TabContext(Contract):
    url: str | None = None
    title: str | None = None
    selection_text: str = ""


class AttachedFile(Contract):
    path: str
    name: str | None = None
    mime_type: str | None = None


class ContextPack(Contract):
    schema_version: Literal["ContextPack@1"] = "ContextPack@1"
    context_id: str = Field(default_factory=lambda: new_id("ctx"))
    active_tab: TabContext = Field(default_factory=TabContext)
    attached_files: list[AttachedFile] = Field(default_factory=list)
    locale: str | None = None
    #: The bundled demo site's address (http://127.0.0.1:PORT) when the task was planned beside it.
    #: Stored with the plan (run store, run.json), so a resume after a restart serves it there again.
    local_site: str | None = None


class Entity(Contract):
    kind: Literal["url", "email", "name", "amount", "budget", "date", "product", "phone", "company", "other"]
    value: str


class Constraints(Contract):
    no_submit: bool = False
    must_have_citations: bool = False
    language: str | None = None
    deadline: str | None = None
    max_price: float | None = Field(default=None, ge=0)


class SecretRef(Contract):
    """A secret the task declared; the plan only ever holds its placeholder, never the value."""

    name: Annotated[str, StringConstraints(pattern=rf"^{SECRET_NAME}$")]
    kind: Literal["password", "token", "card_number", "other"] = "other"

    @property
    def placeholder(self) -> str:
        return secret_placeholder(self.name)


def secret_placeholder(name: str) -> str:
    return placeholder(name)


class TaskSpecV1(Contract):
    schema_version: Literal["TaskSpecV1@1"] = "TaskSpecV1@1"
    task_id: str = Field(default_factory=lambda: new_id("tsk"))
    user_query: str
    intent: Intent = Intent.UNCLEAR
    entities: list[Entity] = Field(default_factory=list)
    constraints: Constraints = Field(default_factory=Constraints)
    domain_hint: str | None = None
    risk_flags: list[RiskFlag] = Field(default_factory=list)
    payload: dict[str, str] = Field(default_factory=dict)
    secrets: list[SecretRef] = Field(default_factory=list)
    #: What the person asked for, as checkable claims, and what they ruled out (planner/asks.py).
    asks: AskList = Field(default_factory=AskList)


# --- the plan -----------------------------------------------------------------------------------


class SubQuery(Contract):
    q: str = Field(min_length=1)
    role: SubQueryRole = SubQueryRole.BACKGROUND
    lang: str | None = None


#: Step and gate ids name files in the run folder: letters, digits, `_ . : -`, never `..` or `/`.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_:-]*(?:\.[A-Za-z0-9_:-]+)*$"
SafeId = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=128)]
#: Inputs that make a step act on the page whatever its type says.
_ACTING_INPUTS = ("actions", "payload", "asks")


class Step(Contract):
    """One unit of work. `type` also accepts the `step_type` spelling.

    Safety (gates, no_submit, the risk floor) follows `family`, and `family` follows the type: a plan
    may spell out the family a registered type already has, never another one, so a plan file cannot
    label an acting step as research to slip past its gate (docs/architecture.md, "Security model").
    """

    step_id: SafeId
    type: StepTypeName = Field(validation_alias=AliasChoices("type", "step_type"))
    name: str = ""
    depends_on: list[str] = Field(default_factory=list)
    optional: bool = False
    policy_gate_id: str | None = None
    inputs: dict[str, Any] = Field(default_factory=dict)
    config: dict[str, Any] = Field(default_factory=dict)
    family_override: StepFamily | None = Field(default=None, alias="family")
    timeout_s: float | None = Field(default=None, gt=0)
    max_attempts: int | None = Field(default=None, ge=1, le=10)

    @model_validator(mode="after")
    def _family_follows_type(self) -> Step:
        declared = self.family_override
        if declared is None or declared is StepFamily.ACT:
            return self
        if isinstance(self.type, StepType) and declared is not STEP_FAMILY[self.type]:
            raise ValueError(
                f"step {self.step_id!r}: family {declared.value} contradicts type {self.type.value} "
                f"({STEP_FAMILY[self.type].value}); a plan cannot relabel a step's safety"
            )
        acting = [k for k in _ACTING_INPUTS if self.inputs.get(k)]
        if acting:
            raise ValueError(
                f"step {self.step_id!r}: family {declared.value} but inputs {acting} act on the page"
            )
        return self

    @property
    def family(self) -> StepFamily:
        """The type's family; a custom type may declare a non-acting family only while its inputs
        carry no actions (checked above); an unregistered custom type counts as ACT (gated)."""
        if isinstance(self.type, StepType):
            return STEP_FAMILY[self.type]
        if self.family_override is not None:
            return self.family_override
        return StepFamily.ACT

    @property
    def is_action(self) -> bool:
        return self.family is StepFamily.ACT

    @property
    def type_name(self) -> str:
        return str(self.type)


class PolicyGate(Contract):
    gate_id: SafeId
    kind: GateKind = GateKind.GENERIC
    requires_user_confirm: bool = True
    reason: str = ""
    blocked_actions: list[str] = Field(default_factory=list)


class Budget(Contract):
    """Limits of one run. Zero means "none allowed", not "unlimited"."""

    max_time_ms: int = Field(default=300_000, ge=0)
    max_tool_calls: int = Field(default=100, ge=0)
    max_tokens: int = Field(default=200_000, ge=0)
    max_sources: int = Field(default=12, ge=0)
    max_queries: int = Field(default=8, ge=0)
    max_actions: int = Field(default=60, ge=0)


class VerifyCriteria(Contract):
    require_citations: bool = False
    ui_receipt_required: bool = False
    min_evidence: int = Field(default=0, ge=0)
    freshness_days: int | None = Field(default=None, ge=0)
    expected_text: list[str] = Field(default_factory=list)


PlanModeField = Annotated[PlanMode, BeforeValidator(_plan_mode_alias)]


class ExecutionPlan(Contract):
    """PlanBundleV1: everything the executor needs, validated so it can run as is."""

    schema_version: Literal["PlanBundleV1@1"] = "PlanBundleV1@1"
    plan_id: str = Field(default_factory=lambda: new_id("plan"))
    trace_id: str = Field(default_factory=lambda: new_id("trace"))
    plan_status: PlanStatus = PlanStatus.READY
    mode: PlanModeField = Field(validation_alias=AliasChoices("mode", "plan_mode"))
    task: TaskSpecV1 | None = None
    context: ContextPack | None = None
    steps: list[Step] = Field(default_factory=list)
    sub_queries: list[SubQuery] = Field(default_factory=list)
    policy_gates: list[PolicyGate] = Field(default_factory=list)
    budget: Budget = Field(default_factory=Budget)
    verify_criteria: VerifyCriteria = Field(default_factory=VerifyCriteria)
    reason_codes: list[str] = Field(default_factory=list)
    clarification_question: str | None = None
    created_at: datetime = Field(default_factory=utc_now)
    #: Model calls spent making this plan; the run's budget is charged with them once.
    planning_usage: ModelUsage | None = None
    #: Wall time planning took (model calls included). Planning has its own deadline: the run's
    #: time budget starts when execution starts (docs/architecture.md, "Slow models").
    planning_ms: int = Field(default=0, ge=0)
    #: The planning deadline the model's calls had (None: the rules planned without a model).
    planning_deadline_ms: int | None = Field(default=None, ge=0)
    #: 1 for the first plan; each replan of a run counts up (executor.run.revision).
    version: int = Field(default=1, ge=1)

    @model_validator(mode="after")
    def _check_graph(self) -> ExecutionPlan:
        ids: set[str] = set()
        for step in self.steps:
            if step.step_id in ids:
                raise ValueError(f"duplicate step_id {step.step_id!r}")
            ids.add(step.step_id)
        gate_ids: set[str] = set()
        for gate in self.policy_gates:
            if gate.gate_id in gate_ids:
                raise ValueError(f"duplicate gate_id {gate.gate_id!r}")
            gate_ids.add(gate.gate_id)
        for step in self.steps:
            for dep in step.depends_on:
                if dep not in ids:
                    raise ValueError(
                        f"step {step.step_id!r} depends_on {dep!r}, which is not a step of this plan"
                    )
            if step.policy_gate_id is not None and step.policy_gate_id not in gate_ids:
                raise ValueError(
                    f"step {step.step_id!r} names policy_gate_id {step.policy_gate_id!r}, "
                    "which is not in policy_gates"
                )
        cycle = find_cycle(self.steps)
        if cycle:
            raise ValueError("dependency cycle: " + " -> ".join(cycle))
        if self.plan_status is PlanStatus.READY and not self.steps:
            raise ValueError("a READY plan needs at least one step")
        return self

    def gate(self, gate_id: str | None) -> PolicyGate | None:
        if gate_id is None:
            return None
        return next((g for g in self.policy_gates if g.gate_id == gate_id), None)


def find_cycle(steps: list[Step]) -> list[str]:
    """Returns one dependency cycle as a list of step ids (first id repeated at the end), or []."""
    deps = {s.step_id: s.depends_on for s in steps}
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for root in deps:
        if state.get(root):
            continue
        stack: list[tuple[str, int]] = [(root, 0)]
        path: list[str] = []
        while stack:
            node, i = stack.pop()
            if i == 0:
                state[node] = 1
                path.append(node)
            children = deps.get(node, [])
            if i < len(children):
                stack.append((node, i + 1))
                child = children[i]
                if state.get(child) == 1:
                    return [*path[path.index(child) :], child]
                if not state.get(child):
                    stack.append((child, 0))
            else:
                state[node] = 2
                path.pop()
    return []
