"""Plan builders, one per mode, all sharing the same step makers.

Step ids are stable (stp_r1, stp_f1, stp_c1, stp_a1 ...) so plans diff cleanly and goldens stay
readable; plan and trace ids are random. Every ACT step carries a gate.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from planner import lexicon as lx
from planner._text import Text, collapse_spaces, fold, has_terms, search_terms
from planner.ask_steps import segments
from planner.asks import (
    AnswerAsk,
    AskList,
    FillAsk,
    meaningful_unread,
)
from planner.gates import make_gate
from planner.models import (
    Budget,
    ContextPack,
    ExecutionPlan,
    GateKind,
    Intent,
    PlanMode,
    PolicyGate,
    Step,
    StepType,
    SubQuery,
    TaskSpecV1,
    VerifyCriteria,
)
from planner.router import Route
from planner.step_names import act_name, ask_step_name, open_name, read_state_name
from planner.subqueries import generate_sub_queries
from planner.task_signals import Signals, blank, without_negated


def _budget(time_ms: int, tools: int, tokens: int, sources: int, queries: int, actions: int) -> Budget:
    return Budget(
        max_time_ms=time_ms,
        max_tool_calls=tools,
        max_tokens=tokens,
        max_sources=sources,
        max_queries=queries,
        max_actions=actions,
    )


#: Per-mode limits; zero means none allowed (mode A may take no action at all).
BUDGETS: dict[PlanMode, Budget] = {
    PlanMode.A: _budget(120_000, 24, 60_000, 8, 5, 0),
    PlanMode.B: _budget(120_000, 30, 40_000, 2, 1, 40),
    PlanMode.C: _budget(240_000, 48, 100_000, 8, 5, 40),
    PlanMode.D: _budget(180_000, 36, 80_000, 6, 4, 30),
    PlanMode.CLARIFY: _budget(30_000, 4, 4_000, 2, 1, 0),
}
TOP_K = 8
_LOGIN_FIELDS = ("username", "email", "password")


@dataclass
class _Draft:
    """Steps and gates being assembled for one plan."""

    spec: TaskSpecV1
    context: ContextPack
    signals: Signals
    steps: list[Step] = field(default_factory=list)
    gates: list[PolicyGate] = field(default_factory=list)
    sub_queries: list[SubQuery] = field(default_factory=list)

    def add(self, step_id: str, step_type: StepType, name: str, depends_on: list[str], **fields: Any) -> str:
        self.steps.append(
            Step(step_id=step_id, type=step_type, name=name, depends_on=list(depends_on), **fields)
        )
        return step_id

    def gate(self, kind: GateKind, what: str) -> str:
        gate = make_gate(kind, self.spec, what)
        taken = {g.gate_id for g in self.gates}
        if gate.gate_id in taken:  # "buy ... and submit": two sends, two gates, each asked on its own
            n = 2 + sum(1 for t in taken if t.startswith(f"{gate.gate_id}_"))
            gate = gate.model_copy(update={"gate_id": f"{gate.gate_id}_{n}"})
        self.gates.append(gate)
        return gate.gate_id


def action_clause(spec: TaskSpecV1) -> str:
    """The task from its first action verb on: the goal an ACT step pursues."""
    text = Text(spec.user_query)
    hits = search_terms(without_negated(blank(text, lx.NOT_ACTION)), lx.ACTION)
    start = hits[0].start() if hits else 0
    return collapse_spaces(text.original[start:]) or collapse_spaces(spec.user_query)


def start_url(spec: TaskSpecV1, context: ContextPack) -> str | None:
    """Where the ACT starts: the first URL named in the action clause ("then open X and fill it"),
    else the first URL of the task, else the active tab."""
    urls = [e.value for e in spec.entities if e.kind == "url"]
    clause = action_clause(spec)
    in_clause = [u for u in urls if u in clause]
    if in_clause:
        return in_clause[0]
    return urls[0] if urls else context.active_tab.url


def research_urls(spec: TaskSpecV1) -> list[str]:
    """Pages the research part names: every URL of a research task; for research-then-action, the
    URLs before the action clause (the one after it is where the action happens)."""
    urls = [e.value for e in spec.entities if e.kind == "url"]
    if spec.intent is Intent.RESEARCH:
        return urls
    if spec.intent is Intent.RESEARCH_THEN_ACTION:
        clause = action_clause(spec)
        before = [u for u in urls if u not in clause]
        if before or has_terms(Text(spec.user_query), _WEB_WORDS) or not urls:
            return before
        # "On URL, sign me up for a plan that covers 80 users": the one page named is where to choose
        return urls[:1] if any(isinstance(a, AnswerAsk) for a in spec.asks.asks) else []
    return []


#: Words that ask for the web beyond the page the task names ("compare with reviews online").
_WEB_WORDS = ("search the web", "on the web", "online", "other sites", "other sources", "reviews", "news",
              "google", "tìm trên mạng", "nguồn khác", "with sources", "with citations", "cite sources",
              "kèm nguồn")  # fmt: skip


def _page_answers(spec: TaskSpecV1) -> bool:
    """The task asks about the page it names: no web search is sent for it (nothing about the task
    leaves for a public engine) unless the person asked for the web ("compare with reviews")."""
    questions = [a for a in spec.asks.asks if isinstance(a, AnswerAsk)]
    if spec.intent is Intent.ACTION_THEN_RESEARCH and any(q.expects == "text" for q in questions):
        return False  # "what does my plan include": the person's state, explained from the sources
    return bool(questions) and not has_terms(Text(spec.user_query), _WEB_WORDS)


def _research(d: _Draft, after: list[str], *, optional_retrieve: bool = False) -> list[str]:
    """[OPEN_URL for named pages] RETRIEVE -> FETCH_DATA? -> COMPUTE; returns the step ids made."""
    flags, spec = d.signals.flags, d.spec
    made: list[str] = []
    if spec.intent in (Intent.RESEARCH, Intent.RESEARCH_THEN_ACTION):
        urls = research_urls(spec)
        if flags.this_page and d.context.active_tab.url:
            urls.insert(0, d.context.active_tab.url)
        for i, url in enumerate(dict.fromkeys(urls), 1):
            made.append(d.add(f"stp_o{i}", StepType.OPEN_URL, open_name(url), after, inputs={"url": url}))
    opened = bool(made)
    on_page = (opened or any(s.type is StepType.OPEN_URL for s in d.steps)) and _page_answers(spec)
    if (not made and not on_page) or ((flags.compare or flags.news or flags.data) and not on_page):
        d.sub_queries = generate_sub_queries(
            spec, compare=flags.compare, data=flags.data, news=flags.news, state=bool(after)
        )
        queries = [sq.model_dump(mode="json", exclude_none=True) for sq in d.sub_queries]
        made.append(
            d.add(
                "stp_r1",
                StepType.RETRIEVE,
                "Search the web for sources",
                after,
                # The page the task names answers first: a failing search is then a note, not a gap.
                optional=optional_retrieve or opened,
                inputs={"sub_queries": queries, "top_k": TOP_K},
                config={"top_k": TOP_K},
            )
        )
    if flags.data or flags.compare:
        made.append(
            d.add(
                "stp_f1",
                StepType.FETCH_DATA,
                "Parse tables into records",
                [*after, *made],
                optional=True,
                inputs={"from": "evidence", "extract": "tables"},
            )
        )
    if not d.signals.needs_action:
        purpose, name, optional = "synthesize_answer", "Synthesize the answer with citations", False
    elif spec.intent is Intent.ACTION_THEN_RESEARCH:
        purpose, name, optional = "compare_state_with_sources", "Explain the state against the sources", False
    else:
        # A question about the named page, asked before acting ("a plan that covers 80 users"), must
        # be answered first: when the page says no option meets it, nothing is done on its strength.
        purpose, name = "score_and_prepare_payload", "Score, recommend and prepare the payload"
        optional = not on_page
    made.append(
        d.add(
            "stp_c1",
            StepType.COMPUTE,
            name,
            [*after, *made],
            optional=optional,
            inputs={"task": purpose, "payload": dict(spec.payload)},
        )
    )
    return made


def _final_kind(d: _Draft) -> GateKind | None:
    """The sensitive last action the task asked for, or None (also None under no_submit)."""
    flags = d.signals.flags
    if d.spec.constraints.no_submit:
        return None
    if flags.payment:
        return GateKind.PAYMENT
    if flags.delete:
        return GateKind.DELETE
    if flags.wants_submit:
        return GateKind.SUBMIT
    if flags.send and not flags.form:
        return GateKind.SEND
    return None


def _segment_name(d: _Draft, kind: GateKind, part: AskList, *, first: bool) -> str:
    """A step's name in the person's words: "Sign in", "Prefill the signup form", "Confirm the submit"."""
    no_submit = d.spec.constraints.no_submit
    if kind is GateKind.LOGIN:
        return "Fill the sign-in form (no submit)" if no_submit else "Sign in"
    if first:
        return act_name(d.spec.user_query, d.signals.flags, no_submit=no_submit)
    if kind in (GateKind.SUBMIT, GateKind.SEND, GateKind.PAYMENT, GateKind.DELETE, GateKind.PURCHASE):
        return f"Confirm the {kind.value}"
    return ask_step_name(part, no_submit=no_submit)


def _act_on_asks(d: _Draft, after: list[str], asks: AskList) -> list[str]:
    """ACT steps that do what was asked, in order, each checked against its asks afterwards: the
    asks ride in its inputs, the goal says them in words; each step's gate allows exactly what its
    asks need (a send, a delete), and every risky click still clears its own gate when it comes."""
    url = start_url(d.spec, d.context)
    made: list[str] = []
    for n, (kind, part) in enumerate(segments(asks, no_submit=d.spec.constraints.no_submit)):
        step_id = "stp_a0" if kind is GateKind.LOGIN and n == 0 else f"stp_a{n + 1}"
        name = _segment_name(d, kind, part, first=not [m for m in made if m != "stp_a0"])
        gate = d.gate(kind, name.lower())
        values = {a.value for a in part.asks if isinstance(a, FillAsk)}
        payload = {k: v for k, v in d.spec.payload.items() if v in values}
        inputs: dict[str, Any] = {"goal": part.describe(), "payload": payload,
                                  "asks": part.model_dump(mode="json"),
                                  **({"url": url} if url and not made else {})}  # fmt: skip
        blueprint = ["open", "locate", "fill", "verify", "stop"] if kind is GateKind.ACTION else [
            "locate", kind.value, "verify"]  # fmt: skip
        made.append(d.add(step_id, StepType.ACT, name, made[-1:] or after, policy_gate_id=gate, inputs=inputs,
                          config={"blueprint": blueprint}))  # fmt: skip
    return made


def _act(d: _Draft, after: list[str], *, read_state: bool) -> list[str]:
    """The act blueprint: [sign in ->] open -> locate -> fill -> verify -> stop [-> submit step]."""
    asks = d.spec.asks
    acting = [a for a in asks.asks if a.kind != "answer" or d.spec.intent is Intent.ACTION]
    if not read_state and any(a.kind != "answer" for a in acting) and not meaningful_unread(asks):
        return _act_on_asks(d, after, asks.model_copy(update={"asks": acting}))
    url = start_url(d.spec, d.context)
    payload = dict(d.spec.payload)
    goal = action_clause(d.spec)
    made: list[str] = []
    if has_terms(Text(d.spec.user_query), lx.LOGIN_VERBS):
        creds = {k: payload.pop(k) for k in _LOGIN_FIELDS if k in payload}
        gate = d.gate(GateKind.LOGIN, url or "the site")
        inputs: dict[str, Any] = {
            "goal": "Fill the sign-in form, do not submit"
            if d.spec.constraints.no_submit
            else "Sign in to the site",
            "payload": creds,
            **({"url": url} if url else {}),
        }
        made.append(
            d.add(
                "stp_a0",
                StepType.ACT,
                "Fill the sign-in form (no submit)" if d.spec.constraints.no_submit else "Sign in",
                after,
                policy_gate_id=gate,
                inputs=inputs,
                config={"blueprint": ["open", "locate", "fill", "submit", "verify"]},
            )
        )
    final = None if read_state else _final_kind(d)
    if made and not payload and final is None and not read_state and login_only(d.spec.user_query):
        return made  # the sign-in step is the whole task: no catch-all step after it
    if made:
        goal = after_login(goal)
    if final is not None:
        goal = f"Fill only, do not submit (the next step does): {goal}"
    if read_state:
        goal = f"Read the current state, change nothing: {goal}"
        name, blueprint = "Read the current state", ["open", "locate", "verify", "stop"]
    else:
        name = act_name(d.spec.user_query, d.signals.flags, no_submit=d.spec.constraints.no_submit)
        blueprint = ["open", "locate", "fill", "verify", "stop"]
    flags = d.signals.flags
    gate = d.gate(GateKind.DOWNLOAD if flags.download and not flags.form else GateKind.ACTION, name.lower())
    inputs = {"goal": goal, "payload": payload, **({"url": url} if url and not made else {})}
    made.append(
        d.add(
            "stp_a1",
            StepType.ACT,
            name,
            made[-1:] or after,
            policy_gate_id=gate,
            inputs=inputs,
            config={"blueprint": blueprint},
        )
    )
    if final is not None:
        gate = d.gate(final, f"{final.value} step")
        made.append(
            d.add(
                "stp_a2",
                StepType.ACT,
                f"Confirm the {final.value}",
                made[-1:],
                policy_gate_id=gate,
                inputs={"goal": f"{final.value.capitalize()}: {goal}", "payload": {}},
                config={"blueprint": ["locate", final.value, "verify"]},
            )
        )
    return made


def _read_state(d: _Draft) -> list[str]:
    """Mode D reads the person's page before anything else, and reading needs no gate: one OPEN_URL
    whose text the explaining step reads as the state. A task that signs in first acts (gated)."""
    url = start_url(d.spec, d.context)
    if url is None or has_terms(Text(d.spec.user_query), lx.LOGIN_VERBS):
        return []
    inputs = {"url": url, "purpose": "read_state"}
    return [d.add("stp_o1", StepType.OPEN_URL, read_state_name(url), [], inputs=inputs)]


#: Action words that are part of signing in: opening the page, typing, filling and sending its form.
_LOGIN_PARTS = (
    "open", "go to", "navigate", "visit", "enter", "type", "fill", "fill in", "fill out", "prefill",
    "pre-fill", "submit", "mở", "truy cập", "vào trang", "nhập", "điền", "điền sẵn", "điền form",
)  # fmt: skip


def _beyond_login(query: str) -> list[re.Match[str]]:
    """The task's action words that are not part of signing in."""
    login = {fold(w) for w in (*lx.LOGIN_VERBS, *_LOGIN_PARTS)}
    return [m for m in search_terms(Text(query), lx.ACTION) if fold(m.group(0).lower()) not in login]


def login_only(query: str) -> bool:
    """Whether signing in is the task's only action (opening the page, filling and sending its form
    are part of it): then the sign-in step is the task."""
    return has_terms(Text(query), lx.ACTION) and not _beyond_login(query)


def after_login(goal: str) -> str:
    """The goal from its first action after signing in: the sign-in step already does the rest."""
    rest = _beyond_login(goal)
    return collapse_spaces(Text(goal).original[rest[0].start() :]) if rest else goal


def _verify(mode: PlanMode, d: _Draft) -> VerifyCriteria:
    research = mode in (PlanMode.A, PlanMode.C, PlanMode.D)
    retrieve = next((s for s in d.steps if s.type is StepType.RETRIEVE), None)
    min_evidence = 0
    # A search beside a named page is optional (the page answers first) but still wanted: two items.
    if research and retrieve is not None and (not retrieve.optional or mode is not PlanMode.D):
        min_evidence = 1 if mode is PlanMode.D else 2
    elif research and any(s.type is StepType.OPEN_URL for s in d.steps):
        min_evidence = 1
    return VerifyCriteria(
        require_citations=research and d.spec.constraints.must_have_citations and min_evidence > 0,
        ui_receipt_required=mode in (PlanMode.B, PlanMode.C, PlanMode.D),
        min_evidence=min_evidence,
        freshness_days=7 if research and d.signals.flags.news else None,
    )


def build_plan(spec: TaskSpecV1, context: ContextPack, signals: Signals, route: Route) -> ExecutionPlan:
    """The plan for `route.mode`: validated by ExecutionPlan, executable as is."""
    d = _Draft(spec=spec, context=context, signals=signals)
    if route.mode is PlanMode.A:
        _research(d, [])
    elif route.mode is PlanMode.B:
        _act(d, [], read_state=False)
    elif route.mode is PlanMode.C:
        research = _research(d, [])
        _act(d, research[-1:], read_state=False)
    elif route.mode is PlanMode.D:
        read = _read_state(d) or _act(d, [], read_state=True)
        _research(d, read, optional_retrieve=not signals.flags.research)
    return ExecutionPlan(
        plan_status=route.plan_status,
        mode=route.mode,
        task=spec,
        context=context,
        steps=d.steps,
        sub_queries=d.sub_queries,
        policy_gates=d.gates,
        budget=BUDGETS[route.mode].model_copy(),
        verify_criteria=_verify(route.mode, d) if d.steps else VerifyCriteria(),
        reason_codes=route.reason_codes,
        clarification_question=route.clarification_question,
    )
