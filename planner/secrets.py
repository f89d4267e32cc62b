"""Secrets typed into a task (passwords, tokens, card numbers) become placeholders at once.

The value is cut out of the text before anything else reads it; only the returned mapping holds
it, wrapped in SecretStr so a stray repr or log line shows stars. The browser layer resolves
`{{secret:NAME}}` when it types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import SecretStr

from common.secrecy import SecretVault, is_placeholder
from planner.models import ExecutionPlan, SecretRef, secret_placeholder

#: Words between a secret's name and its value ("is now", "is set to", "is:", "là"), any number of them.
_SEP = r"(?P<sep>(?:\s*(?:\b(?:is|are|was|now|still|set\s+to|changed\s+to)\b|=|:|\blà\b|\bla\b))*)\s*"
#: What may qualify the name first: "PIN code", "password for ada", "password (case-sensitive)",
#: "password below".
_QUALIFIER = (
    r"(?:\s+(?:code|number|below|above|here|for\s+(?!(?:my|the|your|our|this|that|a|an)\b)[\w.@+-]+)"
    r"|\s*\([^()\n]{1,40}\))*"
)
_VALUE = r"(?P<value>\"[^\"]+\"|'[^']+'|(?![:=])[^\s,;()]+)"

#: (secret name, kind, pattern); the named group `value` is what gets replaced.
_PATTERNS: tuple[tuple[str, str, re.Pattern[str]], ...] = (
    # credentials inside a URL: http://user:pass@host
    ("password", "password", re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]+:(?P<value>[^\s@/]+)@")),
    # user:pass after a sign-in word
    (
        "password",
        "password",
        re.compile(
            r"(?i)\b(?:log\s*in|login|sign\s*in|credentials?)(?:\s+(?:as|with))?\s+"
            r"[\w.+-]+(?:@[\w.-]+)?:(?P<value>[^\s,;()]+)"
        ),
    ),
    (
        "password",
        "password",
        re.compile(
            r"(?i)(?<![\w{:-])(?:password|passwd|passphrase|passcode|pwd|pw|pass|pin|secret"
            rf"|mật\s*khẩu|mat\s*khau|mk)(?![\w-]){_QUALIFIER}{_SEP}{_VALUE}"
        ),
    ),
    (
        "api_key",
        "token",
        re.compile(rf"(?i)\b(?:api[\s_-]?key|secret[\s_-]?key|access[\s_-]?key){_SEP}{_VALUE}"),
    ),
    ("token", "token", re.compile(rf"(?i)\b(?:token|bearer|otp|mã\s*otp|ma\s*otp){_SEP}{_VALUE}")),
    ("token", "token", re.compile(r"(?P<value>\b(?:sk|pk|ghp|gho|xox[bp])[-_][A-Za-z0-9_\-]{12,})")),
    ("card_cvv", "other", re.compile(rf"(?i)\b(?:cvv|cvc|cvv2){_SEP}(?P<value>\d{{3,4}})\b")),
)
_CARD = re.compile(r"(?<![\d-])(?P<value>\d(?:[ -]?\d){12,18})(?![\d-])")


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return total % 10 == 0


@dataclass
class SecretScan:
    """The task text with secrets replaced, the declared refs, and the values (held apart)."""

    text: str
    refs: list[SecretRef] = field(default_factory=list)
    values: dict[str, SecretStr] = field(default_factory=dict)

    def declare(self, base: str, kind: str, value: str) -> str:
        for ref in self.refs:
            if self.values[ref.name].get_secret_value() == value:
                return ref.placeholder
        name = base
        n = 2
        while name in self.values:
            name = f"{base}_{n}"
            n += 1
        self.refs.append(SecretRef.model_validate({"name": name, "kind": kind}))
        self.values[name] = SecretStr(value)
        return secret_placeholder(name)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def extract_secrets(task: str) -> SecretScan:
    """Replaces every secret value in `task` by its placeholder; pure and deterministic."""
    scan = SecretScan(text=task)
    for base, kind, pattern in _PATTERNS:
        scan.text = _replace(scan, pattern, base, kind)
    scan.text = _replace_cards(scan)
    return scan


def _looks_secret(m: re.Match[str], value: str) -> bool:
    """ "password reset" is not a password: a bare word needs a separator or a digit/symbol."""
    sep = (m.groupdict().get("sep") or "").strip()
    if sep or "sep" not in m.groupdict():
        return True
    return not value.isalpha()


def _replace(scan: SecretScan, pattern: re.Pattern[str], base: str, kind: str) -> str:
    """A match that is not a secret ("PIN password X": "password" is no PIN) is searched again from
    its value on, which may name the secret itself; a plain finditer went past it."""
    out: list[str] = []
    pos = 0
    after = 0
    while (m := pattern.search(scan.text, after)) is not None:
        raw = m.group("value")
        value = _unquote(raw.rstrip("."))
        skip = not value or is_placeholder(value) or "{{secret:" in raw or not _looks_secret(m, value)
        after = max(m.start("value"), m.start() + 1) if skip else m.end()
        if skip:
            continue
        start, end = m.span("value")
        if raw.endswith(".") and len(raw) > 1:
            end -= 1
        out.append(scan.text[pos:start])
        out.append(scan.declare(base, kind, value))
        pos = end
    out.append(scan.text[pos:])
    return "".join(out)


def _replace_cards(scan: SecretScan) -> str:
    out: list[str] = []
    pos = 0
    for m in _CARD.finditer(scan.text):
        digits = re.sub(r"\D", "", m.group("value"))
        if not 13 <= len(digits) <= 19 or not luhn_ok(digits):
            continue
        out.append(scan.text[pos : m.start("value")])
        out.append(scan.declare("card_number", "card_number", digits))
        pos = m.end("value")
    out.append(scan.text[pos:])
    return "".join(out)


def redact(text: str, values: dict[str, SecretStr]) -> str:
    """Replaces any literal secret value still present in `text` (defence for model output)."""
    for name, secret in values.items():
        raw = secret.get_secret_value()
        if raw:
            text = text.replace(raw, secret_placeholder(name))
    return text


def plan_urls(plan: ExecutionPlan) -> list[str]:
    """The URLs the plan itself names: its task's URLs, the active tab, step urls and navigations."""
    urls: list[str] = []
    if plan.task is not None:
        urls += [e.value for e in plan.task.entities if e.kind == "url"]
    if plan.context is not None and plan.context.active_tab.url:
        urls.append(plan.context.active_tab.url)
    for step in plan.steps:
        if isinstance(step.inputs.get("url"), str):
            urls.append(step.inputs["url"])
        for action in step.inputs.get("actions") or []:
            if isinstance(action, dict) and action.get("kind") == "navigate" and action.get("url"):
                urls.append(str(action["url"]))
    return urls


def bind_plan(vault: SecretVault, plan: ExecutionPlan | None) -> None:
    """Binds every declared secret to the plan's own origins and to the payload keys the person's
    task gave it. Called when a run opens, with the plan as the person approved it (a resumed run
    passes the approved plan the store kept, never a replan's), so nothing a page says (a replan, a
    model obeying page text) can widen where a secret may go. None (no approved plan is known)
    binds every secret to nowhere: it is typed into no field."""
    urls = plan_urls(plan) if plan is not None else []
    payload = plan.task.payload if plan is not None and plan.task is not None else {}
    for name in vault.names:
        named = [k for k, v in payload.items() if secret_placeholder(name) in v]
        vault.bind(name, origins=urls, fields=named)
