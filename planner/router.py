"""Mode selection across the five modes of docs/architecture.md ("The five modes").

Never raises: a task with neither research nor action intent, or an action with nowhere to act,
becomes CLARIFY with a concrete question. Every decision leaves reason codes behind it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.models import PlanMode, PlanStatus, RiskFlag, TaskSpecV1
from planner.subqueries import bare_topic
from planner.task_signals import RiskLevel, Signals

_QUESTIONS = {
    ("no_intent", "en"): (
        "What would you like me to do: research a question (which topic, and should I cite sources?), "
        "or act on a web page (which page, and what should I fill in or click)?"
    ),
    ("no_intent", "vi"): (
        "Bạn muốn tôi làm gì: tìm hiểu một câu hỏi (chủ đề nào, có cần trích nguồn không?), "
        "hay thao tác trên một trang web (trang nào, điền hoặc bấm gì)?"
    ),
    ("missing_topic", "en"): "What should I research (a product, a question, a topic)?",
    ("missing_topic", "vi"): "Bạn muốn tôi tìm hiểu về điều gì (sản phẩm, câu hỏi hay chủ đề nào)?",
    ("missing_target", "en"): "Which page should I open for this (please give its URL or open it in a tab)?",
    (
        "missing_target",
        "vi",
    ): "Tôi cần mở trang nào để làm việc này (cho tôi URL hoặc mở sẵn trang đó trong tab)?",
}


@dataclass(frozen=True)
class Route:
    mode: PlanMode
    plan_status: PlanStatus
    reason_codes: list[str] = field(default_factory=list)
    clarification_question: str | None = None


def question(kind: str, language: str | None) -> str:
    return _QUESTIONS[(kind, "vi" if language == "vi" else "en")]


def _clarify(kind: str, spec: TaskSpecV1, codes: list[str]) -> Route:
    return Route(
        PlanMode.CLARIFY,
        PlanStatus.NEEDS_CLARIFICATION,
        [f"CLARIFY:{kind}", *codes],
        question(kind, spec.constraints.language),
    )


def _mode_of(signals: Signals) -> tuple[PlanMode, list[str]]:
    """The mode from the signals, with D whenever the state must be read from the UI first."""
    research = signals.needs_research and not signals.flags.no_research
    if signals.needs_action and signals.needs_state_first:
        second = "STATE_INSPECTION_FIRST" if research else "STATE_INSPECTION_REQUIRED"
        return PlanMode.D, ["MODE_D:action_then_research", second]
    if signals.needs_action and research:
        return PlanMode.C, ["MODE_C:research_then_action", "HAS_RESEARCH_AND_ACTION"]
    if signals.needs_action:
        return PlanMode.B, ["MODE_B:action_only", "NO_RESEARCH_NEEDED"]
    return PlanMode.A, ["MODE_A:research_only", "NO_ACTION_VERBS"]


def select_mode(spec: TaskSpecV1, signals: Signals) -> Route:
    """The mode and why; CLARIFY (with a question) when there is nothing to plan or nowhere to act."""
    codes = list(signals.reasons)
    if not signals.needs_research and not signals.needs_action:
        return _clarify("no_intent", spec, ["NO_RESEARCH_OR_ACTION_INTENT", *codes])
    mode, mode_codes = _mode_of(signals)
    would_be = f"WOULD_BE_MODE_{mode.value}"
    if mode is PlanMode.A:
        if signals.flags.this_page and not signals.has_target:
            return _clarify("missing_target", spec, [would_be, *codes])
        has_url = any(e.kind == "url" for e in spec.entities)
        if not has_url and not signals.flags.this_page and len(bare_topic(spec)) < 2:
            return _clarify("missing_topic", spec, [would_be, *codes])
    if mode in (PlanMode.B, PlanMode.D) and not signals.has_target:
        return _clarify("missing_target", spec, [would_be, *codes, *_extra(spec, signals)])
    return Route(mode, PlanStatus.READY, [*mode_codes, *codes, *_extra(spec, signals)])


def _extra(spec: TaskSpecV1, signals: Signals) -> list[str]:
    codes: list[str] = []
    if spec.constraints.no_submit and signals.needs_action:
        codes.append("NO_SUBMIT_ENFORCED")
    if spec.constraints.must_have_citations:
        codes.append("CITATIONS_REQUIRED")
    codes += [
        f"RISK:{flag.value}" for flag in spec.risk_flags if flag is not RiskFlag.PII or signals.needs_action
    ]
    if signals.risk_level is RiskLevel.HIGH and signals.needs_action:
        codes.append("RISK_LEVEL:high")
    if spec.secrets:
        codes.append(f"SECRETS_DECLARED:{len(spec.secrets)}")
    return codes
