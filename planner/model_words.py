"""What the model did for a run, in a sentence a person reads once: in the answer, the window and
the CLI (docs/architecture.md, "Slow models").

The codes stay in the plan's reason codes and the steps' outputs for tools to read; these are their
words. A plan the model made, and steps it decided, need no sentence: only what the rules did
instead, and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from planner.models import ExecutionPlan

#: LLM_FALLBACK reasons (planner/llm.py, planner/llm_cognition.py, research summaries) in words.
REASONS: dict[str, str] = {
    "deadline": "it did not answer within the planning deadline",
    "model_time": "the model's share of the run's time was used up",
    "timeout": "a call took longer than the per-call timeout",
    "refused": "it refused",
    "repetitive": "its reply repeated itself",
    "cut_off": "its reply ran past its length limit",
    "invalid_json": "its reply was not valid JSON",
    "schema_invalid": "its reply did not have the expected shape",
    "invalid_tool_call": "its tool call was not valid",
    "unreachable": "the endpoint could not be reached",
    "auth": "the endpoint refused the API key",
    "rate_limited": "the endpoint was rate limiting",
    "server_error": "the endpoint failed",
    "bad_request": "the endpoint refused the request",
    "malformed_response": "the endpoint's answer could not be read",
    "noop": 'it answered "noop" (nothing to do)',
    "low_confidence": "its confidence was low",
    "invalid_actions": "its actions named nothing on the page",
    "no_actions": "it chose to act but named no action",
    "no_cited_claim": "none of its claims cited a source",
    "empty_plan": "it had no steps",
}
_FLOOR = {
    "SAFETY_FLOOR:empty_candidate": "it had no usable steps",
    "SAFETY_FLOOR:kept_clarify": "the task needed a question first",
}


def reason_words(reason: str) -> str:
    return REASONS.get(reason, reason.replace("_", " "))


def plan_verdict(plan: ExecutionPlan) -> tuple[str, str]:
    """("used" | "rejected" | "fell_back" | "skipped" | "rules", why): what became of the model's plan."""
    codes = plan.reason_codes
    for code in codes:
        if code.startswith("LLM_FALLBACK:"):
            return "fell_back", reason_words(code.removeprefix("LLM_FALLBACK:"))
    for code in codes:
        if code.startswith("LLM_DRAFT_REJECTED"):
            _, _, reason = code.partition(":")
            if reason:
                return "rejected", reason_words(reason)
            floor = next((_FLOOR[c] for c in codes if c in _FLOOR), None)
            detail = next(
                (c.removeprefix("SAFETY_FLOOR:") for c in codes if c.startswith("SAFETY_FLOOR:")), ""
            )
            return "rejected", floor or (
                detail.replace("_", " ") if detail else "the safety floor refused it"
            )
    if "LLM_SKIPPED:clarify" in codes:
        return "skipped", "the task needed a question first"
    if plan.planning_deadline_ms is None:
        return "rules", ""
    return "used", ""


def _floor_words(codes: list[str]) -> str:
    known = next((_FLOOR[c] for c in codes if c in _FLOOR), None)
    if known is not None:
        return known
    floor = [c.removeprefix("SAFETY_FLOOR:") for c in codes if c.startswith("SAFETY_FLOOR:")]
    return floor[0].replace("_", " ") if floor else "the safety floor refused it"


def plan_sentence(plan: ExecutionPlan) -> str | None:
    """One sentence when a model was asked to plan and its plan is not the one that ran."""
    verdict, why = plan_verdict(plan)
    deadline = f" of {plan.planning_deadline_ms / 1000:.0f} s" if plan.planning_deadline_ms else ""
    if verdict == "fell_back":
        why = why.replace("the planning deadline", f"the planning deadline{deadline}")
        return f"The model did not plan this run ({why}); the rules planned it."
    if verdict == "rejected":
        return f"The model's plan was not used ({why}); the rules planned this run."
    return None


def steps_sentence(step_outputs: Iterable[Mapping[str, object]]) -> str | None:
    """One sentence when the rules decided page steps or wrote summaries the model could not."""
    decided, fallbacks = 0, 0
    reasons: dict[str, int] = {}
    summaries: dict[str, int] = {}
    for outputs in step_outputs:
        cognition = outputs.get("cognition")
        if isinstance(cognition, Mapping):
            decided += int(cognition.get("decisions") or 0)
            fallbacks += int(cognition.get("fallbacks") or 0)
            for reason, count in dict(cognition.get("fallback_reasons") or {}).items():
                reasons[str(reason)] = reasons.get(str(reason), 0) + int(count)
        fallback = outputs.get("model_fallback")
        if isinstance(fallback, str):
            summaries[fallback] = summaries.get(fallback, 0) + 1
    parts = []
    if fallbacks:
        why = "; ".join(f"{reason_words(r)}: {n}" for r, n in sorted(reasons.items(), key=lambda p: -p[1]))
        parts.append(
            f"the rules made {fallbacks} of {decided} page decisions the model could not"
            + (f" ({why})" if why else "")
        )
    if summaries:
        why = "; ".join(reason_words(r) for r in summaries)
        n = sum(summaries.values())
        what = "1 summary is" if n == 1 else f"{n} summaries are"
        parts.append(f"{what} extractive, not the model's ({why})")
    if not parts:
        return None
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def time_line(plan: ExecutionPlan) -> str:
    """Planning's time against its own deadline, and the run's time budget that starts after it."""
    budget = f"the run's time budget of {plan.budget.max_time_ms / 1000:.0f} s starts with its first step"
    if plan.planning_deadline_ms is None:
        return f"planned without a model; {budget}"
    deadline = plan.planning_deadline_ms / 1000
    took = f"planning took {plan.planning_ms / 1000:.1f} s of its {deadline:.0f} s deadline"
    said = plan_sentence(plan)
    return f"{took}; {budget}" + (f". {said}" if said else "")


def run_sentence(plan: ExecutionPlan, step_outputs: Iterable[Mapping[str, object]]) -> str | None:
    """Everything the rules did in the model's place in this run, or None when nothing."""
    said = [s for s in (plan_sentence(plan), steps_sentence(step_outputs)) if s]
    return " ".join(said) if said else None
