"""Readers of the asks that fill and send forms: values as people list them, sign-ins and sign-ups,
settings changed to a value, wizards gone through, creating something with its choices."""

from __future__ import annotations

import re

from common.secrecy import PLACEHOLDER
from planner._text import strip_quotes
from planner.ask_commerce import trip_fields
from planner.ask_words import STEP_LIMIT, URL, Reader, cut_where, noun_phrase
from planner.asks import (
    AdvanceAsk,
    AnswerAsk,
    Ask,
    ChangeAsk,
    ChooseAsk,
    FillAsk,
    PressAsk,
    SearchAsk,
    SubmitAsk,
    SubmitPurpose,
    ToggleAsk,
)
from planner.field_values import KNOWN_FIELDS, read_item, read_list


def filling(verb: str, rest: str) -> list[Ask] | None:
    rest, where = cut_where(rest)
    rest = STEP_LIMIT.sub("", rest)
    rest = re.sub(
        r"^(?:in\s+|out\s+)?(?:the\s+|my\s+|this\s+)?(?:[\w-]+\s+){0,2}?(?:form|fields|details|biểu mẫu|form"
        r" đăng ký)"
        r"\s*(?:for\s+(?:it|them|this|that|me|us)\s+)?(?:with|using|như sau|:)?\s*",  # "for it with"
        "",
        rest,
        flags=re.I,
    )
    asks: list[Ask] = []
    for item in read_list(rest):
        chosen = _plan_choice(item.field, item.value)
        asks.append(chosen or FillAsk(field=item.field, value=item.value, where=where))
    return asks or None


def _plan_choice(field: str, value: str) -> ChooseAsk | None:
    """ "the Team plan" inside a list names a choice, not a field."""
    m = re.fullmatch(
        r"(?i)(?P<opt>.+?)\s+(?P<among>plan|tier|package|option|size|colou?r|class)", f"{value} {field}"
    )
    if m and field.lower() in ("plan", "tier", "package", "option", "size", "color", "colour", "class"):
        return ChooseAsk(option=m.group("opt"), among=m.group("among").lower())
    return None


def _plan_phrase(text: str) -> ChooseAsk | None:
    """ "on the Team plan", "the Pro plan": a plan chosen by name."""
    m = re.fullmatch(
        r"(?i)(?:on\s+|with\s+)?(?:the\s+)?(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package)", text.strip()
    )
    return ChooseAsk(option=m.group("opt"), among=m.group("among").lower()) if m else None


def saying(verb: str, rest: str) -> list[Ask] | None:
    """ "... and say: Friday works for me": the message of a reply (or of the form being written)."""
    message = strip_quotes(re.sub(r"(?i)^(?:that|:)\s*", "", rest.strip()).strip().rstrip("."))
    return [FillAsk(field="message", value=message), SubmitAsk(purpose="reply")] if message else None


def creating(verb: str, rest: str) -> list[Ask] | None:
    """ "create a workspace with the Team plan for Ada Lovelace, work email ada@x.co": the nouns after
    "with"/"for" are choices and fields of the thing created."""
    m = re.match(
        r"(?i)(?:an?\s+|the\s+|my\s+)?(?P<thing>[\w -]{1,30}?)\s+(?:with|for|using)\s+(?P<rest>.+)$", rest
    )
    if m is None:
        return [PressAsk(what=f"create {noun_phrase(rest)}")] if rest.strip() else None
    asks: list[Ask] = []
    for part in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+|\s+(?=for\s+[A-Z])", m.group("rest")):
        part = part.strip()
        plan = re.fullmatch(r"(?i)(?:the\s+)?(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package|option)", part)
        person = re.fullmatch(r"(?:for\s+)?(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,3})", part)
        if plan:
            asks.append(ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower()))
        elif person:
            asks.append(FillAsk(field="name", value=person.group("name")))
        else:
            found = read_item(re.sub(r"(?i)^(?:with|for)\s+", "", part))
            if found is not None:
                asks.append(FillAsk(field=found.field, value=found.value))
    return asks or None


_FIELD_ALTERNATION = "|".join(re.escape(w) for w in KNOWN_FIELDS)


def submitting(purpose: SubmitPurpose) -> Reader:
    def read(verb: str, rest: str) -> list[Ask] | None:
        asks: list[Ask] = []
        trip = trip_fields(rest) if purpose in ("book", "order") else {}
        if trip:  # "book me a direct flight from Berlin to Hanoi on ...": search, pick, book
            asks.append(SearchAsk(query=strip_quotes(rest.strip().rstrip(".!?,")), fields=trip))
            kind = re.search(r"(?i)\b(direct|non-?stop|cheapest|earliest|latest)\b", rest)
            if kind:
                asks.append(ChooseAsk(option=f"{kind.group(1).lower()} flight", among="flight"))
            return [*asks, SubmitAsk(purpose="book")]
        rest = URL.sub("", rest)
        only = _ONLY.search(rest) if purpose == "signup" else None
        if only:  # "sign me up to the events email, but only jazz nights": which boxes to tick
            rest = rest[: only.start()] + rest[only.end() :]
            asks += [
                ToggleAsk(what=noun_phrase(n), only=True)
                for n in _ITEMS.split(only.group("only"))
                if n.strip()
            ]
        m = re.search(r"(?i)\b(?:as|with (?:the )?(?:username|user name|login))\s+(?P<user>[\w.@+-]+)", rest)
        if m and purpose == "login" and m.group("user").lower() not in ("the", "a", "my"):
            asks.append(FillAsk(field="username", value=m.group("user")))
        pw = re.search(
            r"(?i)\b(?:password|pass|mật khẩu)\s*(?:is|:|=)?\s*(?P<pw>" + PLACEHOLDER.pattern + r"|\S+)", rest
        )
        if pw and purpose == "login":
            asks.append(FillAsk(field="password", value=pw.group("pw").rstrip(".,")))
        need = re.search(r"(?i)\bfor\s+(?:a|the|any)\s+(?P<what>plan|tier|package|room|flight|one)\s+"
                         r"(?:that|which|with|for)\s+(?P<need>.+)$", rest)  # fmt: skip
        if need and purpose in ("signup", "book", "order"):  # which one is chosen from the page's numbers
            question = f"which {need.group('what')} {need.group('need').rstrip('.')}"
            asks.append(AnswerAsk(question=question, expects="item"))
        lst = re.search(
            r"(?i)(?:\bwith|:)\s+(?P<list>(?:(?:my|the|your)\s+)?(?:" + _FIELD_ALTERNATION + r")\b.+)$",
            rest,
        )
        if lst and purpose != "login":
            listed = lst.group("list")
            plan = re.search(
                r"(?i),?\s*\b(?:on|with)\s+the\s+(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package)\b", listed
            )
            if plan:
                asks.append(ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower()))
                listed = listed[: plan.start()] + listed[plan.end() :]
            for item in read_list(listed):
                chosen = _plan_choice(item.field, item.value) or _plan_phrase(f"{item.field} {item.value}")
                asks.append(chosen or FillAsk(field=item.field, value=item.value))
        asks.append(SubmitAsk(purpose=purpose, about="" if need else _what_for(rest)))
        return asks

    return read


_FOR = re.compile(
    r"(?i)^(?:(?:me|us|myself)\s+)?(?:up\s+)?(?:for|into|onto|in\s+for)\s+(?:the\s+|a\s+|an\s+|my\s+)?"
    r"(?P<what>[^,:;]+?)"
    r"(?=\s+(?:with|as|using|on|at|under|from|in|to)\b|\s*[,:;]|\s*$)"
)


#: "..., but ONLY live jazz nights", "just the family events and workshops", "chỉ nhạc jazz": which of a
#: sign-up's topics; "only my email" or "just one" says how much, not which.
_ONLY = re.compile(
    r"(?i)(?:,\s*|\s)(?:but\s+|nhưng\s+)?(?:only|just|chỉ)\s+(?!(?:my|your|our|an?|one|if|when|once|the\s+"
    r"(?:email|name|basics?))\b)(?:(?:the|về|những|các)\s+)?(?P<only>[^,.;:@]+?(?:,\s*(?:and\s+)?[^,.;:@]+?)*?)"
    r"(?:\s+(?:please|thanks|ones?|nhé|thôi))?\s*(?=$|[.;:]|,\s*\S+@|,\s*(?:my|and|email|e-mail|name|tên|phone)\b)"
)
_ITEMS = re.compile(r"(?i)\s*,\s*(?:and\s+)?|\s+(?:and|&|và)\s+")


def _what_for(rest: str) -> str:
    """ "me for the pottery class with ...": what the send is for ("pottery class"); nothing for "for
    me", "for it" or a plan chosen by name ("for the Team plan", a choice of its own)."""
    m = _FOR.match(rest.strip())
    what = m.group("what").strip() if m else ""
    plain = r"(?i)it|them|this|that|me|us|one|an? account|free|\w+\s+(?:plan|tier)"
    return "" if not what or re.fullmatch(plain, what) else what


def saving(verb: str, rest: str) -> list[Ask] | None:
    obj, where = cut_where(rest)
    obj = noun_phrase(obj)
    if obj.lower() in ("it", "them", "this", "that", "", "the form", "form", "changes", "the changes"):
        return [PressAsk(what=verb, where=where)]
    return [PressAsk(what=f"{verb} {obj}", where=where)]


def advancing(verb: str, rest: str) -> list[Ask] | None:
    until = STEP_LIMIT.search(f" {verb} {rest}")
    asks: list[Ask] = []
    fills = filling(
        verb, re.sub(r"(?i)^(?:the\s+)?[\w -]*?(?:wizard|flow|steps|form|process)\s+(?:with\s+)?", "", rest)
    )
    asks += fills or []
    if until:
        asks.append(AdvanceAsk(until=until.group("until").strip()))
    return asks or None


def renaming(verb: str, rest: str) -> list[Ask] | None:
    m = re.match(r"(?i)(?P<what>.*?)\s*(?:\bto\b|\bthành\b|\bas\b)\s+(?P<value>.+)$", rest.strip())
    if m is None:
        return None
    value = strip_quotes(m.group("value").strip().rstrip("."))
    return [ChangeAsk(verb=verb, what=noun_phrase(m.group("what")), value=value)] if value else None


def setting(verb: str, rest: str) -> list[Ask] | None:
    """ "set the check-in date to 2027-03-14 and check-out to 2027-03-18"; "set X on" is a toggle."""
    on_off = re.match(r"(?i)(?P<what>.+?)\s+(?:to\s+)?(?P<state>on|off)$", rest.strip().rstrip("."))
    if on_off:
        return [ToggleAsk(what=noun_phrase(on_off.group("what")), on=on_off.group("state").lower() == "on")]
    asks: list[Ask] = []
    for part in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+", rest):
        m = re.match(r"(?i)(?P<field>.+?)\s+(?:to|=|:|as|thành|là)\s+(?P<value>.+)$", part.strip())
        if m:
            field = noun_phrase(m.group("field"))
            value = strip_quotes(m.group("value").strip().rstrip("."))
            if field and value:
                asks.append(FillAsk(field=field, value=value))
    return asks or filling(verb, rest)
