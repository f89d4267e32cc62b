"""Per-action risk: would this action submit, pay, purchase, delete, log in or send?

Classified from the target element and the page around it (button text, input type, link href,
a password field on the page, the page's URL and title), never from what the page *says* to do.
A risky action inside an approved step needs its own approval unless the step's gate kind covers
it; an action whose risk the gate blocks never runs, whatever was approved.
"""

from __future__ import annotations

import re
from enum import StrEnum
from urllib.parse import urlsplit

from browser.models import Action, ElementInfo, Observation, Target

_FOLD = str.maketrans("áàảãạăắằẳẵặâấầẩẫậđéèẻẽẹêếềểễệíìỉĩịóòỏõọôốồổỗộơớờởỡợúùủũụưứừửữựýỳỷỹỵ",
                      "aaaaaaaaaaaaaaaaadeeeeeeeeeeeiiiiiooooooooooooooooouuuuuuuuuuuyyyyy")  # fmt: skip


class Risk(StrEnum):
    SUBMIT = "submit"
    LOGIN = "login"
    SEND = "send"
    PAYMENT = "payment"
    PURCHASE = "purchase"
    DELETE = "delete"
    #: Opens a page on another origin than the task's own (asks in safe mode only).
    OTHER_ORIGIN = "other_origin"
    #: What the action does could not be seen (asks in safe mode only).
    UNKNOWN = "unknown"


#: Risks that ask only in safe mode: nothing says harm, but nothing says it is harmless either.
SAFE_MODE_ONLY = frozenset({Risk.OTHER_ORIGIN, Risk.UNKNOWN})


#: Words (folded, lower case) that make a control risky; checked most specific first.
WORDS: tuple[tuple[Risk, tuple[str, ...]], ...] = (
    (Risk.PAYMENT, ("pay", "pay now", "payment", "thanh toan", "checkout", "check out")),
    (Risk.PURCHASE, ("buy", "buy now", "purchase", "place order", "order now", "mua", "dat hang",
                     "complete order", "subscribe now")),
    (Risk.DELETE, ("delete", "remove", "erase", "xoa", "close account", "cancel subscription",
                   "unsubscribe")),
    (Risk.LOGIN, ("sign in", "log in", "login", "dang nhap")),
    (Risk.SEND, ("send", "gui", "post", "publish", "reply")),
    (Risk.SUBMIT, ("submit", "sign up", "register", "create account", "confirm", "apply", "save",
                   "dang ky", "xac nhan", "finish order")),
)  # fmt: skip
_HREF_WORDS: tuple[tuple[Risk, tuple[str, ...]], ...] = (
    (Risk.PAYMENT, ("pay", "checkout")),
    (Risk.PURCHASE, ("buy", "purchase", "order")),
    (Risk.DELETE, ("delete", "remove", "destroy")),
    (Risk.LOGIN, ("login", "signin")),
)

#: Words in a request's path that make even a GET change something: deleting, cancelling, paying.
_EFFECT_WORDS: tuple[tuple[Risk, tuple[str, ...]], ...] = (
    (Risk.PAYMENT, ("pay", "checkout")),
    (Risk.DELETE, ("delete", "remove", "destroy", "cancel", "unsubscribe")),
)
_CHANGING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: Gate kinds (planner GateKind values) and the risks an approval of that kind covers.
COVERED_BY_GATE: dict[str, frozenset[Risk]] = {
    "login": frozenset({Risk.LOGIN}),
    "submit": frozenset({Risk.SUBMIT}),
    "send": frozenset({Risk.SEND, Risk.SUBMIT}),
    "payment": frozenset({Risk.PAYMENT, Risk.PURCHASE, Risk.SUBMIT}),
    "purchase": frozenset({Risk.PURCHASE, Risk.PAYMENT, Risk.SUBMIT}),
    "delete": frozenset({Risk.DELETE, Risk.SUBMIT}),
}
#: A gate's blocked_actions entries that forbid a risk ("submit" forbids every kind of sending).
BLOCKED_BY: dict[Risk, frozenset[str]] = {
    Risk.SUBMIT: frozenset({"submit"}),
    Risk.LOGIN: frozenset({"login", "submit"}),
    Risk.SEND: frozenset({"send", "submit"}),
    Risk.PAYMENT: frozenset({"payment", "purchase", "submit"}),
    Risk.PURCHASE: frozenset({"purchase", "payment", "submit"}),
    Risk.DELETE: frozenset({"delete", "submit"}),
    Risk.OTHER_ORIGIN: frozenset(),
    Risk.UNKNOWN: frozenset(),
}
_FILLABLE = {"textbox", "searchbox", "combobox", "spinbutton"}


def fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower().translate(_FOLD)).strip()


def _has_word(text: str, words: tuple[str, ...]) -> bool:
    folded = f" {fold(text)} "
    return any(f" {w} " in folded for w in words)


def words_risk(text: str) -> Risk | None:
    for risk, words in WORDS:
        if _has_word(text, words):
            return risk
    return None


def href_risk(href: str) -> Risk | None:
    """The risk a link's path names (/account/remove-now is a delete); its host and query say nothing."""
    path = fold(urlsplit(href.strip()).path)
    for risk, words in _HREF_WORDS:
        if any(w in path.split() for w in words):
            return risk
    return None


def request_risk(method: str, url: str) -> Risk | None:
    """What a request a page sends would do (None: it only reads): a POST/PUT/PATCH/DELETE is at
    least a submit, and its path's words say more; a GET changes something when its path reads as
    delete, cancel or pay (/account/delete?confirm=yes)."""
    words = fold(urlsplit(url.strip()).path).split()
    for risk, named in _EFFECT_WORDS:
        if any(w in words for w in named):
            return risk
    if method.upper() not in _CHANGING_METHODS:
        return None
    return Risk.DELETE if method.upper() == "DELETE" else (href_risk(url) or Risk.SUBMIT)


def element_for(target: Target | None, observation: Observation | None) -> ElementInfo | None:
    """The observed element a target most likely means (exact index, else role/name/label/text)."""
    if target is None or observation is None:
        return None
    if target.index is not None:
        return next((e for e in observation.elements if e.index == target.index), None)
    wanted = target.name or target.label or target.text or target.placeholder
    if not wanted:
        return None
    key = fold(wanted)
    for element in observation.elements:
        if target.role is not None and (element.role or element.tag) != target.role:
            continue
        if fold(element.name) == key or fold(element.placeholder or "") == key:
            return element
    return None


def _login_page(observation: Observation | None) -> bool:
    return observation is not None and any(e.input_type == "password" for e in observation.elements)


def classify(action: Action, observation: Observation | None) -> Risk | None:
    """The risk of `action` on the observed page, or None for a harmless one."""
    if action.kind == "press":
        if action.key.split("+")[-1].lower() != "enter":
            return None
        element = element_for(action.target, observation)
        if element is None or not ((element.role or "") in _FILLABLE or element.tag in ("input", "textarea")):
            return None
        if element.role == "searchbox" or element.input_type == "search":
            return None  # a search sends a query; the request guard keeps personal values in
        return Risk.LOGIN if _login_page(observation) else Risk.SUBMIT
    if action.kind == "navigate":
        return href_risk(action.url)  # a URL is judged by where it goes, like a link
    if action.kind != "click":
        return None
    element = element_for(action.target, observation)
    text = element.name if element is not None else (action.target.name or action.target.text or "")
    risk = words_risk(text)
    if risk is None and element is not None and element.href:
        risk = href_risk(element.href)
    if risk is None and element is not None and element.input_type in ("submit", "image"):
        # A bare submit control says nothing by its text: next to a password field it signs in.
        risk = Risk.LOGIN if _login_page(observation) else Risk.SUBMIT
    return risk


def covered(risk: Risk, gate_kind: str | None) -> bool:
    return gate_kind is not None and risk in COVERED_BY_GATE.get(gate_kind, frozenset())


def blocked(risk: Risk, blocked_actions: list[str]) -> bool:
    return bool(BLOCKED_BY[risk] & {a.lower() for a in blocked_actions})
