"""What an action does, judged from facts the page cannot dress up (docs/architecture.md, "Risk by
effect").

A click is judged from every name the element shows (visible text, aria-label, aria-labelledby,
title), the link it sits in, the form it sends (action and method, formaction/formmethod first) and
the URLs in its inline click handler, as browser/click_facts.py reads them just before the click;
the riskiest of these wins, so "Continue" on a form posting to /account/remove-now is a delete.
A navigation is judged by its path and by whether it leaves the task's own origins. An element
that shows nothing at all (no name, link, form or handler) is UNKNOWN: what it does cannot be seen.
Without the element's facts (a driver that cannot read them, an element not there yet) the
observation's view is used (executor/act/risk.py, `classify`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from browser.click_facts import ClickFacts, is_javascript_url
from browser.models import Action, ClickAction, NavigateAction, Observation, PressAction, Target
from executor.act.risk import SAFE_MODE_ONLY, Risk, classify, covered, element_for, href_risk, words_risk

#: Most harmful first: the judgement of an element is its riskiest fact.
SEVERITY: tuple[Risk, ...] = (
    Risk.PAYMENT, Risk.PURCHASE, Risk.DELETE, Risk.LOGIN, Risk.SEND, Risk.SUBMIT, Risk.OTHER_ORIGIN,
    Risk.UNKNOWN,
)  # fmt: skip
_SHOWN = 120


@dataclass(frozen=True, slots=True)
class Judgement:
    """An action's risk (None: harmless) and, in words, what it does ("opens …/remove-now")."""

    risk: Risk | None
    does: str = ""


def riskiest(*risks: Risk | None) -> Risk | None:
    present = [r for r in risks if r is not None]
    return min(present, key=SEVERITY.index) if present else None


def origin_of(url: str) -> str | None:
    """scheme://host:port of an http(s) URL, else None."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    return f"{parts.scheme.lower()}://{parts.hostname.lower()}:{port}"


def home_origins(urls: Iterable[str]) -> frozenset[str]:
    """The origins a task names itself: leaving them is a step a person may want to know about."""
    return frozenset(o for o in (origin_of(u) for u in urls) if o is not None)


def _shown(url: str) -> str:
    return url if len(url) <= _SHOWN else url[: _SHOWN - 1] + "…"


def judge_url(url: str, home: frozenset[str]) -> Judgement:
    """Where a navigation goes: the words of its path, and whether it leaves the task's origins."""
    if is_javascript_url(url):
        return Judgement(None, "runs a javascript: URL, which the browser refuses")
    origin = origin_of(url)
    away = Risk.OTHER_ORIGIN if home and origin is not None and origin not in home else None
    risk = riskiest(href_risk(url), away)
    return Judgement(risk, f"opens {_shown(url)}" + (" (another site than the task's)" if away else ""))


def judge_click(facts: ClickFacts, home: frozenset[str], page_url: str) -> Judgement:
    """A click by the element's facts: the riskiest of its names, link, form and handler URLs."""
    names = " | ".join(facts.names)
    found: list[Judgement] = []
    by_words = words_risk(names)
    if by_words is not None:
        found.append(Judgement(by_words, f'is labelled "{_shown(names)}"'))
    if facts.submits_form:
        method = (facts.form_method or "get").upper()
        where = judge_url(facts.form_action or page_url, home)
        # A form sent by a control whose names say nothing: next to a password field it signs in.
        bare = by_words is None and method != "GET"
        sends = (Risk.LOGIN if facts.form_has_password else Risk.SUBMIT) if bare else None
        risk = riskiest(where.risk, sends)
        found.append(Judgement(risk, f"sends a form ({method}) to {_shown(facts.form_action or page_url)}"))
    if facts.href_resolved and not is_javascript_url(facts.href):
        found.append(judge_url(facts.href_resolved, home))
    for url in facts.handler_urls():
        found.append(judge_url(urljoin(page_url, url), home))
    risk = riskiest(*(j.risk for j in found))
    if risk is not None:
        return next(j for j in found if j.risk is risk)
    if not (names or facts.href or facts.submits_form or facts.handler):
        return Judgement(Risk.UNKNOWN, "shows no name, link or form, so what it does cannot be seen")
    return Judgement(None, found[0].does if found else f'is labelled "{_shown(names)}"')


def surprise(judged: Judgement, landed: str, home: frozenset[str], gate_kind: str | None) -> str | None:
    """Why the page an action landed on is riskier than the action was judged (None: it is not).
    Leaving the site is not a surprise here: the page's own links may do that after a harmless click."""
    after = judge_url(landed, home)
    risk = after.risk
    if risk is None or risk in SAFE_MODE_ONLY or risk is judged.risk:
        return None
    if covered(risk, str(judged.risk) if judged.risk else None) or covered(risk, gate_kind):
        return None
    return f"was judged {judged.risk or 'harmless'} but landed on {_shown(landed)}, which looks like {risk}"


def judge(
    action: Action,
    observation: Observation | None,
    facts: ClickFacts | None,
    *,
    home: frozenset[str],
    page_url: str,
) -> Judgement:
    """The risk of one action before it runs, from the best facts at hand."""
    if isinstance(action, NavigateAction):
        return judge_url(action.url, home)
    if isinstance(action, PressAction) and facts is not None and facts.enter_form_action:
        where = judge_url(facts.enter_form_action, home)  # Enter sends the field's form there
        method = (facts.enter_form_method or "get").upper()
        risk = riskiest(classify(action, observation), where.risk)
        return Judgement(risk, f"sends its form ({method}) to {_shown(facts.enter_form_action)}")
    if action.kind == "click" and facts is not None:
        return judge_click(facts, home, page_url)
    risk = classify(action, observation)
    if action.kind != "click":
        return Judgement(risk)
    element = element_for(action.target, observation)
    if risk is None and element is not None and element.href:
        return judge_url(urljoin(page_url, element.href), home)
    target = action.target
    said = element.name if element is not None else (target.name or target.text or target.label or "")
    if risk is None and not said:
        return Judgement(Risk.UNKNOWN, f"{target.describe()} could not be read: what it does cannot be seen")
    return Judgement(risk, f'is labelled "{_shown(said)}"' if said else "")


def probed_target(action: Action) -> Target | None:
    """The element whose link or form decides what the action does: a click's, or Enter's field."""
    if isinstance(action, PressAction) and action.key.split("+")[-1].lower() == "enter":
        return action.target
    return action.target if isinstance(action, ClickAction) else None


def would(risk: Risk) -> str:
    if risk is Risk.OTHER_ORIGIN:
        return "leaves the task's site"
    if risk is Risk.UNKNOWN:
        return "does something that cannot be seen"
    return f"would {risk}"
