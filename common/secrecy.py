"""The secrets owner: the placeholder grammar, the vault and the one way a secret value is scrubbed.

A secret typed into a task becomes `{{secret:NAME}}` at once (planner/secrets.py); plans, actions,
checkpoints and receipts carry only that placeholder. The value lives in a SecretVault for the life
of one process and is resolved only at the moment the browser driver types it. Anything that leaves
the browser, or is written to disk, passes through the vault's redactor, which knows the forms a
value takes on its way into a URL, a page, JSON or an HTTP header: plain, percent- and
form-encoded, HTML-escaped, JSON-escaped, base64 (also inside a longer base64 value, as in a Basic
auth header of `user:secret`), reversed, and with invisible characters, spaces or line breaks
between its letters. Nothing here writes a value anywhere; a run
resumed in another process gets its values supplied again (docs/architecture.md, "Secrets").
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import re
import weakref
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus, urlsplit

from pydantic import BaseModel

REDACTED = "[REDACTED]"
#: A secret's name: what SecretRef.name, the vault and every placeholder accept.
NAME = r"[a-z][a-z0-9_]{0,39}"
#: The one placeholder grammar; group 1 is the name.
PLACEHOLDER = re.compile(r"\{\{secret:(" + NAME + r")\}\}")

ModelT = TypeVar("ModelT", bound=BaseModel)
_PERCENT = re.compile(r"%[0-9A-F]{2}")


class UnknownSecret(KeyError):
    """A placeholder names a secret that was never declared to the vault."""


def placeholder(name: str) -> str:
    return "{{secret:" + name + "}}"


def is_placeholder(text: str) -> bool:
    """The whole text is one placeholder (a field value the planner wrote, not a literal)."""
    return PLACEHOLDER.fullmatch(text) is not None


def has_placeholder(text: str) -> bool:
    return PLACEHOLDER.search(text) is not None


def placeholder_names(text: str) -> list[str]:
    return PLACEHOLDER.findall(text)


#: Characters that render as nothing: a page (or a model obeying one) can put them between a secret's
#: letters and still show it, so matching ignores them (with line breaks and spaces) between letters.
INVISIBLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
)
_INVISIBLE = re.compile(f"[{INVISIBLE}]")
_GAP = f"(?:[{INVISIBLE}]|\\s)*"
#: Values at least this long are also matched with gaps between letters and reversed (shorter ones
#: would match ordinary text by accident).
SPREAD_MIN = 6


def visible(text: str) -> str:
    """`text` without the characters that render as nothing."""
    return _INVISIBLE.sub("", text)


def _base64_cores(raw: bytes) -> set[str]:
    """The base64 of `raw` wherever it sits in a longer value (`ada:` + secret in a Basic auth
    header): at each of the three byte offsets, the characters that depend on `raw` alone."""
    cores: set[str] = set()
    bits = 8 * len(raw)
    for shift in (0, 1, 2):
        start, end = -(-8 * shift // 6), (8 * shift + bits) // 6
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            core = encode(b"\0" * shift + raw + b"\0\0").decode("ascii")[start:end]
            if len(core) >= 8:
                cores.add(core)
    return cores


def secret_forms(value: str) -> set[str]:
    """The forms a value takes in URLs, HTML, JSON and headers, each of which must be caught."""
    raw = value.encode("utf-8")
    forms = {
        value,
        value.upper(),  # a page that shouts the value back
        value.lower(),
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        html.escape(value),
        html.escape(value, quote=False),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
    }
    for encoded in (base64.b64encode(raw), base64.urlsafe_b64encode(raw)):
        text = encoded.decode("ascii")
        forms |= {text, text.rstrip("=")}
    forms |= _base64_cores(raw)
    if len(value) >= SPREAD_MIN:
        forms.add(value[::-1])  # written backwards
    forms |= {_PERCENT.sub(lambda m: m.group(0).lower(), f) for f in forms}
    return {f for f in forms if f}


def spread_forms(value: str) -> set[str]:
    """The forms matched with invisible characters, spaces or line breaks between their letters."""
    if len(value) < SPREAD_MIN:
        return set()
    return {value, value.upper(), value.lower(), value[::-1]}


def _alternative(form: str, spread: bool) -> str:
    return _GAP.join(re.escape(c) for c in form) if spread else re.escape(form)


_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@")


def redact_url_credentials(text: str) -> str:
    """`scheme://user:password@host` -> `scheme://[REDACTED]@host`, anywhere in `text`."""
    return _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + "@", text)


class SecretRedactor:
    """Replaces every form of every declared value with [REDACTED], longest first, in one pass.

    A `live` redactor (every vault's) also serves `scrub`, the one redactor every output path of the
    process calls: stores, logs, stdout, model requests (docs/architecture.md, "Secrets")."""

    def __init__(self, values: Iterable[str] = (), *, live: bool = False) -> None:
        self._values: set[str] = set()
        self._pattern: re.Pattern[str] | None = None
        for value in values:
            self.add(value)
        if live:
            _LIVE.add(self)

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """Every form of every value, longest first; None while there is no value."""
        return self._pattern

    def __repr__(self) -> str:  # never print the values
        return f"SecretRedactor(values={len(self._values)})"

    def add(self, value: str) -> None:
        if not value or value in self._values:
            return
        self._values.add(value)
        spread = set().union(*(spread_forms(v) for v in self._values))
        forms = sorted(set().union(spread, *(secret_forms(v) for v in self._values)), key=len, reverse=True)
        self._pattern = re.compile("|".join(_alternative(f, f in spread) for f in forms))
        if self in _LIVE:
            _LIVE.refresh()

    def text(self, value: str) -> str:
        return value if self._pattern is None else self._pattern.sub(REDACTED, value)

    def values(self) -> list[str]:
        """What it redacts (declared values and hidden typed ones): for masking a screenshot only."""
        return sorted(self._values)

    def contains(self, value: str) -> bool:
        return self._pattern is not None and self._pattern.search(value) is not None

    def data(self, data: Any) -> Any:
        """Every string inside plain JSON-like data (dicts, lists, scalars)."""
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list | tuple):
            return [self.data(item) for item in data]
        if isinstance(data, dict):
            return {key: self.data(value) for key, value in data.items()}
        return data


class _LiveRedactors:
    """The redactors of the vaults (and secret scopes) alive in this process, which `scrub` applies.

    Weak, so a finished run's values are forgotten with its vault. Their patterns are kept in a
    tuple, refreshed when a redactor joins, learns a value or goes: `scrub` runs for every text
    parameter of every stored row, and iterating a WeakSet there cost more than the rest of a
    store's parameter check, and as much with an empty vault (a run without secrets) as with none.
    """

    def __init__(self) -> None:
        self._refs: dict[weakref.ref[SecretRedactor], None] = {}
        #: One per live redactor that holds a value, in the order they joined.
        self.patterns: tuple[re.Pattern[str], ...] = ()

    def add(self, redactor: SecretRedactor) -> None:
        self._refs[weakref.ref(redactor, self._gone)] = None
        self.refresh()

    def discard(self, redactor: SecretRedactor) -> None:
        if redactor in self:
            del self._refs[weakref.ref(redactor)]
            self.refresh()

    def __contains__(self, redactor: SecretRedactor) -> bool:
        return weakref.ref(redactor) in self._refs

    def _gone(self, ref: weakref.ref[SecretRedactor]) -> None:
        self._refs.pop(ref, None)
        self.refresh()

    def refresh(self) -> None:
        redactors = [ref() for ref in list(self._refs)]
        self.patterns = tuple(r.pattern for r in redactors if r is not None and r.pattern is not None)


_LIVE = _LiveRedactors()


def secrets_live() -> bool:
    """Some live vault holds a value, so `scrub` may change a text (else every scrub is a no-op)."""
    return bool(_LIVE.patterns)


def scrub(text: str) -> str:
    """`text` with every form of every live secret replaced: what every output path calls."""
    for pattern in _LIVE.patterns:  # none when no live vault holds a value
        text = pattern.sub(REDACTED, text)
    return text


def scrub_data(data: Any) -> Any:
    """Every string inside JSON-like data, scrubbed (dict keys stay as they are)."""
    if not _LIVE.patterns:
        return data
    if isinstance(data, str):
        return scrub(data)
    if isinstance(data, list | tuple):
        return [scrub_data(item) for item in data]
    if isinstance(data, dict):
        return {key: scrub_data(value) for key, value in data.items()}
    return data


def scrub_bytes(data: bytes) -> bytes:
    """UTF-8 bytes scrubbed; other bytes (an image) are returned as they are."""
    if not _LIVE.patterns:
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    return scrub(text).encode("utf-8")


@contextmanager
def live_secrets(values: Iterable[str]) -> Iterator[SecretRedactor]:
    """Keeps `values` known to `scrub` while the block runs (e.g. the CLI printing a run's result
    after the run's vault is gone)."""
    redactor = SecretRedactor(values, live=True)
    try:
        yield redactor
    finally:
        _LIVE.discard(redactor)


#: Words in a field's autocomplete, name, id or label that make it a place for a secret: whole words
#: ("Passenger name" and "Carbon footprint note" are not password or OTP fields), or word pairs.
_SECRET_WORDS = frozenset({
    "password", "passwd", "pwd", "pw", "pass", "passcode", "passphrase", "pin", "otp", "totp", "secret",
    "token", "apikey", "cvc", "cvv", "cvv2", "csc",
})  # fmt: skip
_SECRET_PAIRS = frozenset({
    ("one", "time"), ("api", "key"), ("card", "number"), ("cc", "number"), ("cc", "csc"),
    ("security", "code"), ("verification", "code"), ("access", "code"),
})  # fmt: skip
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def _words(text: str) -> list[str]:
    """Lower-case words of a label or an attribute: `newPassword`, `pass_word-2`, `PIN code`."""
    return re.findall(r"[a-z0-9]+", _CAMEL.sub(" ", text).lower())


def says_secret(text: str) -> bool:
    """Whether the words of `text` name a place for a secret (password, PIN, one-time code...)."""
    words = _words(text)
    return any(w in _SECRET_WORDS for w in words) or any(
        p in _SECRET_PAIRS for p in itertools.pairwise(words)
    )


class FieldFacts(BaseModel):
    """What the browser read off a field just before typing into it (never the page's own claims
    about what it wants: its type, autocomplete, name, id and label)."""

    input_type: str = ""
    autocomplete: str = ""
    name: str = ""
    id: str = ""
    label: str = ""

    def secret_like(self) -> bool:
        if self.input_type.lower() == "password":
            return True
        return any(says_secret(t) for t in (self.autocomplete, self.name, self.id, self.label))

    def named(self, names: Iterable[str]) -> bool:
        mine = {_norm(t) for t in (self.name, self.id, self.label) if t}
        return bool(mine & {_norm(n) for n in names})


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def origin_of(url: str) -> str | None:
    """scheme://host[:port] of an http(s) URL, else None."""
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme.lower()}://{parts.hostname.lower()}{port}"


@dataclass
class SecretBinding:
    """Where one secret may be typed: the origins the task declared, and fields that look like a
    place for a secret or that the person named. Empty `origins` means "not bound yet": a run binds
    every secret before its first action (planner/secrets.py, bind_plan)."""

    origins: set[str] = field(default_factory=set)
    fields: set[str] = field(default_factory=set)
    bound: bool = False

    def refusal(self, name: str, page_url: str, facts: FieldFacts) -> str | None:
        """None when `name` may be typed into this field on this page, else why not."""
        origin = origin_of(page_url)
        if self.bound and origin not in self.origins:
            where = ", ".join(sorted(self.origins)) or "no origin"
            shown = origin or page_url
            return f"secret {name!r} refused: page origin {shown!r} is not its declared origin ({where})"
        if not facts.secret_like() and not facts.named(self.fields):
            label = facts.label or facts.name or facts.id or "field"
            return (
                f"secret {name!r} refused: field {label!r} is neither password-like nor a field "
                "you named for it"
            )
        return None


class SecretVault:
    """Holds name -> value for one run in this process only. Never printed: repr shows names only."""

    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        self._values: dict[str, str] = {}
        self.bindings: dict[str, SecretBinding] = {}
        self.redactor = SecretRedactor(live=True)
        for name, value in (secrets or {}).items():
            self.add(name, value)

    def bind(self, name: str, *, origins: Iterable[str] = (), fields: Iterable[str] = ()) -> None:
        """Binds a secret to the origins the task declared and the fields the person named; a bound
        secret with no origin is typed nowhere. A later binding only narrows: what it adds is
        dropped, so no revision of a plan can widen where a secret may go."""
        wanted = {o for o in (origin_of(u) for u in origins) if o}
        binding = self.bindings.get(name)
        if binding is None or not binding.bound:
            self.bindings[name] = SecretBinding(origins=wanted, fields=set(fields), bound=True)
            return
        binding.origins &= wanted
        binding.fields &= set(fields)

    def refusal(self, text: str, page_url: str, facts: FieldFacts) -> str | None:
        """Why the placeholders in `text` may not be typed into this field, or None; asked before
        any keystroke, the answer goes into the action's receipt."""
        for name in placeholder_names(text):
            if name not in self._values:
                continue  # resolve() raises UnknownSecret: an undeclared name is an error, not a refusal
            why = self.bindings.get(name, SecretBinding()).refusal(name, page_url, facts)
            if why is not None:
                return why
        return None

    def add(self, name: str, value: str) -> None:
        """Declares (or re-supplies, on resume) one secret."""
        if not is_placeholder(placeholder(name)):
            raise ValueError(f"secret name {name!r} must match {NAME}")
        self._values[name] = value
        self.redactor.add(value)

    @property
    def names(self) -> list[str]:
        return sorted(self._values)

    def values(self) -> list[str]:
        """For a redactor that must know the same values (receipts); never for writing."""
        return list(self._values.values())

    def missing(self, names: Iterable[str]) -> list[str]:
        """Declared names this vault holds no value for: what a resumed run must be given again."""
        return sorted({n for n in names if n not in self._values})

    def __repr__(self) -> str:
        return f"SecretVault(names={self.names})"

    def __contains__(self, name: object) -> bool:
        return name in self._values

    @staticmethod
    def has_placeholder(text: str) -> bool:
        return PLACEHOLDER.search(text) is not None

    def resolve(self, text: str) -> str:
        """Replaces every placeholder in `text` with its value; only the driver calls this."""

        def value_of(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in self._values:
                raise UnknownSecret(name)
            return self._values[name]

        return PLACEHOLDER.sub(value_of, text)

    def redact(self, text: str) -> str:
        return self.redactor.text(text)

    def redact_data(self, data: Any) -> Any:
        return self.redactor.data(data)

    def redact_model(self, model: ModelT) -> ModelT:
        """A copy of a pydantic model with every string field (nested too) redacted."""
        if not self.redactor.values():  # declared values, and sensitive ones the recorder hid
            return model
        return type(model).model_validate(self.redact_data(model.model_dump(mode="python")))
