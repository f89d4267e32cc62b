"""SUMMARIZE, COMPARE_SOURCES and COMPUTE as Tools: they read the run's evidence and data, never pages.

Their text goes out as `summary` / `answer`, which the final answer collects; citations are the
run's evidence numbers, checked against ctx.evidence before they are written. COMPUTE's tasks:
score_and_prepare_payload (the default: the task's stated need first, then the rules; candidates are
the packages of the page the task names), synthesize_answer (a comparison from the records) and
compare_state_with_sources / explain_state (the state an ACT step read, explained from the sources;
executor/research/answers.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from executor.act import report
from executor.errors import FatalToolError, ToolError
from executor.models import EvidenceItem
from executor.research import answers, attribute, page_facts
from executor.research import compute as scoring
from executor.research.common import arg_str, citation_number, evidence_from
from executor.research.copies import url_key
from executor.research.reader import Reader, run_cache
from executor.research.summarize import (
    Cited,
    compare,
    extractive,
    grounded,
    render,
    render_comparison,
)
from executor.research.supporting_sentences import (
    Sentence,
    citable_sentences,
    cite,
    need_phrase,
    need_terms,
    page_texts,
    supporting,
    task_urls,
)
from executor.tools.boundary import ToolContext, ToolOutput
from planner.asks import AnswerAsk, meaningful_unread
from planner.llm import LLMClient
from planner.models import StepType

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
        written = await grounded(self.llm, evidence, question, mode=self.mode) if self.llm else None
        claims = written.claims if written else None
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
        outputs = {"summary": text, "citations": used, "method": method, "question": question}
        if written is not None and written.fallback:
            outputs["model_fallback"] = written.fallback  # the rules wrote it: said in the answer
        return ToolOutput(outputs=outputs)


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
    """Scores records (recommendation + payload); `task: synthesize_answer` writes a cited comparison;
    `task: compare_state_with_sources` (or `explain_state`) explains the state an ACT step read."""

    def __init__(self, llm: LLMClient | None = None) -> None:
        self.summarizer = SummarizeTool(llm)

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        records = _records(args, ctx)
        task = arg_str(args, "task") or ""
        if task in _STATE_TASKS and not _asks_for_facts(ctx):
            explained = _explain_state(records, ctx)
            if explained is not None:
                return explained
        if task == "synthesize_answer" or (not records and ctx.evidence) or _asks_for_facts(ctx):
            # "a plan that covers 80 users for under $50": the question's needs decide, not a score
            return await self._synthesize(args, ctx, records)
        if not records:
            raise FatalToolError("COMPUTE found no records to score (no FETCH_DATA output)", code="no_data")
        rules = _rules(args, ctx)
        question = question_of(args, ctx)
        candidates, others = _scope(records, ctx, question)
        decision = scoring.score(
            candidates,
            weights=rules.get("weights"),
            prefer=rules.get("prefer"),
            constraints=rules["constraints"],
            fx=rules.get("fx"),
        )
        need = need_terms(question)
        backing = _back(decision, need, _pool(ctx))
        best = decision.best
        step = ctx.step.step_id
        outputs: dict[str, Any] = {
            "artifacts_ref": [f"art_reco_{step}", f"art_payload_{step}"],
            "rules": rules,
            "need": need,
            "rejected": [{"name": r.get("name"), "reason": why} for r, why in decision.rejected],
            "alternatives": [_item(s, ctx) for s in decision.ranked[1:4]],
            "out_of_scope": [str(r.get("name")) for r in others],
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
        outputs["answer"] = _explain(
            best, decision, ctx, phrase=need_phrase(question), backing=backing, others=others
        )
        return ToolOutput(outputs=outputs)

    async def _synthesize(
        self, args: dict[str, Any], ctx: ToolContext, records: list[dict[str, Any]]
    ) -> ToolOutput:
        """An answer that leads with the fact asked for, then the comparison or the summary. A
        question about the pages the task named that asks for a fact is answered with one found on
        them, or the step fails saying what was not found."""
        question = question_of(args, ctx)
        pool = _pool(ctx)
        asked = [a for a in (ctx.plan.task.asks.asks if ctx.plan.task else []) if isinstance(a, AnswerAsk)]
        if not asked:
            _refuse_unread(ctx)
        pages = page_facts.page_texts(ctx.step_outputs)
        wanted = [a for a in asked if a.expects in page_facts.FACT_KINDS or page_facts.names_an_item(a)
                  or page_facts.summarizes(a) or page_facts.asks_a_label(a)
                  or page_facts.asks_on_page(a)]  # fmt: skip
        found = page_facts.answer(wanted, pages)
        followed = await self._follow(found, pages, ctx)
        if followed:
            found = page_facts.answer(wanted, [*pages, *followed.pages])
            evidence = [*ctx.evidence, *followed.evidence]
        else:
            evidence = list(ctx.evidence)
        missing = [a for a in found if a.fact is None]
        if missing:
            gaps = "; ".join(f"I could not find {report.subject(a.ask.question)} on the pages read"
                             for a in missing)  # fmt: skip
            said = page_facts.lead_text(found, evidence)  # what was found is kept beside what was not
            raise FatalToolError(f"{said} {gaps}" if said else gaps, code="not_found_on_page")
        unmet = [a.fact.because or a.fact.value for a in found if a.fact is not None and not a.fact.satisfied]
        head = page_facts.lead_text(found, evidence) or attribute.lead(question, records, pool, ctx.evidence)
        # every question answered by a page's fact: with no model, a summary would only paste the page
        answered_all = (
            bool(wanted) and len(wanted) == len(asked) and not unmet and self.summarizer.llm is None
        )
        if head and (followed or answered_all):  # the facts asked for are the answer, with their sources
            used = sorted({int(n) for n in re.findall(r"\[(\d+)\]", head)})
            outputs = {
                "summary": head,
                "answer": head,
                "citations": used,
                "method": "page facts",
                "question": question,
            }
            return ToolOutput(outputs={**outputs, "artifacts_ref": []},
                              evidence=followed.evidence if followed else [],
                              sources=followed.sources if followed else 0)  # fmt: skip
        if unmet:
            raise FatalToolError(f"{head} ({'; '.join(unmet)})", code="cannot_be_met")
        note = attribute.search_note(ctx.plan.steps, ctx.evidence)
        if records:
            text = answers.comparison(records, pool, ctx.evidence)
            text = "\n".join(p for p in (head, text, note) if p)
            used = sorted({int(n) for n in re.findall(r"\[(\d+)\]", text)})
            written = {"summary": text, "citations": used, "method": "records", "question": question}
            return ToolOutput(outputs={**written, "answer": text, "artifacts_ref": []})
        out = await self.summarizer(args, ctx)
        summary = "\n".join(p for p in (head, out.outputs["summary"], note) if p)
        return ToolOutput(outputs={**out.outputs, "summary": summary, "answer": summary, "artifacts_ref": []})

    async def _follow(
        self, found: list[page_facts.Answer], pages: list[page_facts.PageText], ctx: ToolContext
    ) -> page_facts.Followed | None:
        """Questions the opened pages do not answer: read the same-site links that name what they
        ask about (a message, a product), as a person would click through to read on."""
        unanswered = [a for a in found if a.fact is None]
        urls = [u for a in unanswered for p in pages for u in page_facts.links_about(p, a.ask.question)]
        urls = list(dict.fromkeys(urls))[: page_facts.MAX_FOLLOW]
        if not urls:
            return None
        reader = Reader(ctx)
        read: list[page_facts.PageText] = []
        evidence: list[EvidenceItem] = []
        for url in urls:
            try:
                got = await reader.read(url)
            except ToolError:
                continue
            content = got.content
            head = "\n".join([content.title, *content.headings])  # what the page is about ("Stoneware Mug")
            read.append(page_facts.page_text(got.url, f"{head}\n{content.text}", content.tables,
                                             [{"url": lk.url, "text": lk.text,
                                               "context": lk.context} for lk in content.links]))  # fmt: skip
            evidence.append(evidence_from(got, content.text[:1000], confidence=0.6))
        return page_facts.Followed(read, evidence, reader.sources) if read else None


def _refuse_unread(ctx: ToolContext) -> None:
    """ "Free up some storage on URL": reading the page is not doing what was asked. The step says
    so, with what the page says under the heading that names it."""
    unread = meaningful_unread(ctx.plan.task.asks) if ctx.plan.task else []
    if not unread or not any(s.type is StepType.OPEN_URL for s in ctx.plan.steps):
        return
    said = "; ".join(f'"{u}"' for u in unread)
    about = page_facts.said_about(" ".join(unread), page_facts.page_texts(ctx.step_outputs))
    quoted = "; ".join(f'"{line}"' for line in about)
    context = f". The page says: {quoted}" if quoted else ""
    raise FatalToolError(
        f"I did not do {said}: I could not tell what it asks for on this page{context}", code="unread_task"
    )


_STATE_TASKS = {"compare_state_with_sources", "explain_state"}


def _asks_for_facts(ctx: ToolContext) -> bool:
    """The task asks questions about its pages that a fact answers (the QA in `_synthesize`)."""
    asks = ctx.plan.task.asks.asks if ctx.plan.task else []
    return any(isinstance(a, AnswerAsk) and a.expects in page_facts.FACT_KINDS for a in asks)


def _pool(ctx: ToolContext) -> list[Sentence]:
    cached = {url_key(u): r.content.text for u, r in run_cache(ctx).reads.items()}
    return citable_sentences(page_texts(ctx.step_outputs, ctx.evidence, cached), ctx.evidence)


def _explain_state(records: list[dict[str, Any]], ctx: ToolContext) -> ToolOutput | None:
    state = answers.read_state(ctx.step_outputs)
    if state is None:
        return None
    text = answers.explain_state(state, records, _pool(ctx), ctx.evidence)
    used = sorted({int(n) for n in re.findall(r"\[(\d+)\]", text)})
    found = answers.current_entity(state, [str(r.get("name")) for r in records])
    outputs = {
        "answer": text,
        "citations": used,
        "state": dict(state.pairs),
        "current": found[0] if found else None,
        "artifacts_ref": [],
    }
    return ToolOutput(outputs=outputs)


def _scope(
    records: list[dict[str, Any]], ctx: ToolContext, question: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The packages of the page(s) the task names are the candidates; other pages' packages (another
    vendor's, seen while researching) are context, not options. All records when none matches."""
    named = set(task_urls(question))
    for step in ctx.plan.steps:
        url = step.inputs.get("url") if step.type_name in ("OPEN_URL", "EXTRACT_DOM") else None
        if isinstance(url, str):
            named.add(url_key(url))
    inside = [r for r in records if url_key(str(r.get("source_url", ""))) in named]
    if not inside:
        return records, []
    return inside, [r for r in records if r not in inside]


def _back(decision: scoring.Decision, need: list[str], pool: list[Sentence]) -> dict[int, list[Sentence]]:
    """Sentences tying each candidate to the task's need; candidates with more of them rank first
    (stable: the rules' score, e.g. price, breaks ties)."""
    backing = {id(s): supporting(str(s.record.get("name")), need, pool) for s in decision.ranked}
    decision.ranked.sort(key=lambda s: -len(backing[id(s)]))
    return backing


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


def _explain(
    best: scoring.Scored,
    decision: scoring.Decision,
    ctx: ToolContext,
    *,
    phrase: str | None = None,
    backing: Mapping[int, list[Sentence]] | None = None,
    others: list[dict[str, Any]] | None = None,
) -> str:
    said = (backing or {}).get(id(best), [])
    why = "; ".join(best.reasons) or "it meets every constraint"
    head = f"Recommended {phrase}" if phrase and said else "Recommended"
    text = f"{head}: {best.record.get('name')} at {_price(best.record)}{_cite(best.record, ctx)}"
    if said:
        text += ". Why: " + " ".join(cite(s) for s in said[:2])
        if best.reasons:
            text += f" Also: {why}."
    else:
        text += f" ({why})."
    extra = answers.features(best.record)
    if extra:
        text += f" It includes: {extra}{_cite(best.record, ctx)}."
    if len(decision.ranked) > 1:
        second = decision.ranked[1]
        reason = f": {'; '.join(second.reasons)}" if second.reasons else ""
        name, price = second.record.get("name"), _price(second.record)
        text += f" Runner-up: {name} at {price}{_cite(second.record, ctx)}{reason}."
    if decision.rejected:
        text += (
            " Ruled out: " + "; ".join(f"{r.get('name')} ({why})" for r, why in decision.rejected[:4]) + "."
        )
    if others:
        text += (
            " Also seen, from other pages: "
            + "; ".join(f"{r.get('name')} {_price(r)}{_cite(r, ctx)}" for r in others[:4])
            + "."
        )
    return text
