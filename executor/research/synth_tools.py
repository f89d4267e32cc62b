"""SUMMARIZE, COMPARE_SOURCES and COMPUTE as Tools: they read the run's evidence and data, never pages.

Their text goes out as `summary` / `answer`, which the final answer collects; citations are the
run's evidence numbers, checked against ctx.evidence before they are written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from executor.errors import FatalToolError
from executor.research import compute as scoring
from executor.research.common import arg_str, citation_number
from executor.research.summarize import (
    Cited,
    compare,
    extractive,
    grounded,
    render,
    render_comparison,
)
from executor.tools import ToolContext, ToolOutput
from planner.llm import LLMClient

_CURRENCY_HINTS = (("$", "USD"), ("usd", "USD"), ("€", "EUR"), ("eur", "EUR"), ("vnd", "VND"), ("đ", "VND"))


def question_of(args: Mapping[str, Any], ctx: ToolContext) -> str:
    asked = arg_str(args, "question", "query", "q")
    if asked:
        return asked
    if ctx.plan.task is not None and ctx.plan.task.user_query.strip():
        return ctx.plan.task.user_query
    return " ".join(q.q for q in ctx.plan.sub_queries)


def _numbers(claims: list[Cited]) -> list[int]:
    return sorted({n for c in claims for n in c.numbers})


class SummarizeTool:
    """A grounded (model) or extractive summary of the evidence so far, every sentence cited."""

    def __init__(self, llm: LLMClient | None = None, *, mode: str = "summary") -> None:
        self.llm = llm
        self.mode = mode

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        evidence = list(ctx.evidence)
        if not evidence:
            raise FatalToolError("nothing to summarise: the run has no evidence yet", code="no_evidence")
        question = question_of(args, ctx)
        claims = await grounded(self.llm, evidence, question, mode=self.mode) if self.llm else None
        method = "model" if claims else "extractive"
        if self.mode == "compare" and not claims:
            groups = compare(evidence, question)
            text = render_comparison(groups)
            used = _numbers([c for _, cs in groups for c in cs])
        else:
            claims = claims or extractive(evidence, question) or _fallback(evidence)
            text, used = render(claims), _numbers(claims)
        if not text:
            raise FatalToolError(
                "no evidence sentence is relevant to the question", code="no_relevant_evidence"
            )
        return ToolOutput(
            outputs={"summary": text, "citations": used, "method": method, "question": question}
        )


def _fallback(evidence: list[Any]) -> list[Cited]:
    """The most confident snippets' opening, when no sentence shares a term with the question."""
    ranked = sorted(enumerate(evidence, start=1), key=lambda p: -p[1].confidence)[:3]
    return [Cited(item.snippet.split(". ")[0][:200], (n,)) for n, item in ranked if item.snippet.strip()]


def _records(args: Mapping[str, Any], ctx: ToolContext) -> list[dict[str, Any]]:
    wanted = args.get("data_ref") or args.get("data_refs")
    refs = {wanted} if isinstance(wanted, str) else set(wanted) if isinstance(wanted, list) else None
    found: list[dict[str, Any]] = []
    for outputs in ctx.step_outputs.values():
        records = outputs.get("records")
        if not isinstance(records, list):
            continue
        if refs is not None and outputs.get("data_ref") not in refs:
            continue
        found.extend(r for r in records if isinstance(r, dict))
    inline = args.get("records")
    if isinstance(inline, list):
        found.extend(r for r in inline if isinstance(r, dict))
    return found


def _rules(args: Mapping[str, Any], ctx: ToolContext) -> dict[str, Any]:
    rules = dict(args.get("rules") or {}) if isinstance(args.get("rules"), Mapping) else {}
    for key in ("weights", "prefer", "constraints", "fx", "payload", "payload_map"):
        if key in args and key not in rules:
            rules[key] = args[key]
    constraints = dict(rules.get("constraints") or {})
    task = ctx.plan.task
    if task is not None:
        if "max_price" not in constraints and task.constraints.max_price is not None:
            constraints["max_price"] = task.constraints.max_price
        if "max_price" in constraints and "currency" not in constraints:
            text = task.user_query.lower()
            constraints["currency"] = next((c for hint, c in _CURRENCY_HINTS if hint in text), None)
        if not rules.get("payload") and task.payload:
            rules["payload"] = dict(task.payload)
    rules["constraints"] = constraints
    return rules


class ComputeTool:
    """Scores records (recommendation + payload); `task: synthesize_answer` writes a cited answer."""

    def __init__(self, llm: LLMClient | None = None) -> None:
        self.summarizer = SummarizeTool(llm)

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        records = _records(args, ctx)
        task = arg_str(args, "task") or ""
        if task == "synthesize_answer" or (not records and ctx.evidence):
            out = await self.summarizer(args, ctx)
            text = out.outputs["summary"]
            if records:
                text += "\n\n" + _price_lines(records, ctx)
            return ToolOutput(outputs={**out.outputs, "answer": text, "artifacts_ref": []})
        if not records:
            raise FatalToolError("COMPUTE found no records to score (no FETCH_DATA output)", code="no_data")
        rules = _rules(args, ctx)
        decision = scoring.score(
            records,
            weights=rules.get("weights"),
            prefer=rules.get("prefer"),
            constraints=rules["constraints"],
            fx=rules.get("fx"),
        )
        best = decision.best
        step = ctx.step.step_id
        outputs: dict[str, Any] = {
            "artifacts_ref": [f"art_reco_{step}", f"art_payload_{step}"],
            "rules": rules,
            "rejected": [{"name": r.get("name"), "reason": why} for r, why in decision.rejected],
            "alternatives": [_item(s, ctx) for s in decision.ranked[1:4]],
        }
        if best is None:
            outputs.update(recommendation=None, payload=dict(rules.get("payload") or {}))
            outputs["answer"] = "No package meets the constraints: " + "; ".join(
                f"{r['name']}: {r['reason']}" for r in outputs["rejected"][:6]
            )
            return ToolOutput(outputs=outputs)
        outputs["recommendation"] = _item(best, ctx)
        outputs["payload"] = scoring.build_payload(
            best.record, rules.get("payload"), rules.get("payload_map")
        )
        outputs["answer"] = _explain(best, decision, ctx)
        return ToolOutput(outputs=outputs)


def _cite(record: Mapping[str, Any], ctx: ToolContext) -> str:
    n = citation_number(ctx.evidence, str(record.get("source_url", "")))
    return f" [{n}]" if n else ""


def _price(record: Mapping[str, Any]) -> str:
    raw = record.get("raw") or {}
    shown = next((v for k, v in raw.items() if "price" in k.lower()), None)
    return str(shown) if shown else f"{record.get('price')} {record.get('currency') or ''}".strip()


def _item(s: scoring.Scored, ctx: ToolContext) -> dict[str, Any]:
    n = citation_number(ctx.evidence, str(s.record.get("source_url", "")))
    return {
        "name": s.record.get("name"),
        "price": _price(s.record),
        "score": round(s.score, 4),
        "reasons": s.reasons,
        "source_url": s.record.get("source_url"),
        "citation": n,
        "record": s.record,
    }


def _explain(best: scoring.Scored, decision: scoring.Decision, ctx: ToolContext) -> str:
    why = "; ".join(best.reasons) or "it meets every constraint"
    text = (
        f"Recommended: {best.record.get('name')} at {_price(best.record)}{_cite(best.record, ctx)} ({why})."
    )
    if len(decision.ranked) > 1:
        second = decision.ranked[1].record
        text += f" Runner-up: {second.get('name')} at {_price(second)}{_cite(second, ctx)}."
    if decision.rejected:
        text += (
            " Ruled out: " + "; ".join(f"{r.get('name')} ({why})" for r, why in decision.rejected[:4]) + "."
        )
    return text


def _price_lines(records: list[dict[str, Any]], ctx: ToolContext) -> str:
    lines = [f"{r.get('name')}: {_price(r)}{_cite(r, ctx)}" for r in records[:10]]
    return "Prices found: " + "; ".join(lines) + "."
