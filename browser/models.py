"""Browser-layer contracts: targets, actions, outcomes, observations and page captures (the policy
and launch options live in browser/options.py).

These are plain pydantic values (no Playwright types) so the planner can write actions, the executor
can pass them around and receipts can store them; every model round-trips through JSON without loss.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import (
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
    model_validator,
)

from common.contracts import Contract as _BaseContract


class Contract(_BaseContract):
    """Base of every browser boundary model: the shared contract, with bytes carried as base64 in JSON."""

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")


# --- targets -----------------------------------------------------------------------------------

TargetKind = Literal["selector", "role", "label", "text", "placeholder", "index"]
_TARGET_KINDS: tuple[TargetKind, ...] = ("selector", "role", "label", "text", "placeholder", "index")


class Target(Contract):
    """Which element an action means: exactly one of selector | role(+name) | label | text |
    placeholder | index (an element index from the last observation).

    `name` only refines `role`. Unset fields are left out of dumps so a stored target reads like the
    hand-written JSON it came from.
    """

    selector: str | None = Field(default=None, min_length=1)
    role: str | None = Field(default=None, min_length=1)
    name: str | None = None
    label: str | None = Field(default=None, min_length=1)
    text: str | None = Field(default=None, min_length=1)
    placeholder: str | None = Field(default=None, min_length=1)
    index: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _exactly_one(self) -> Target:
        given = [k for k in _TARGET_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "a target needs exactly one of selector | role(+name) | label | text | placeholder | "
                f"index; got {given or 'none'}"
            )
        if self.name is not None and self.role is None:
            raise ValueError("`name` refines `role`; give a role with it")
        return self

    @model_serializer(mode="wrap")
    def _drop_unset(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo):  # type: ignore[no-untyped-def]
        # No return annotation on purpose: pydantic then keeps the model's own serialization schema.
        data = handler(self)
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if v is not None}
        return data

    @property
    def kind(self) -> TargetKind:
        for k in _TARGET_KINDS:
            if getattr(self, k) is not None:
                return k
        raise AssertionError("validated target without a kind")  # pragma: no cover

    def describe(self) -> str:
        """Short human form for logs and receipts, e.g. `role=button name="Next"`."""
        if self.role is not None:
            return f"role={self.role}" + (f' name="{self.name}"' if self.name is not None else "")
        value = getattr(self, self.kind)
        return f"{self.kind}={value}" if self.kind == "index" else f'{self.kind}="{value}"'


# --- actions -----------------------------------------------------------------------------------


#: Per-action actionability/navigation timeout; None means the driver's default.
TimeoutMs = Annotated[int | None, Field(gt=0, le=600_000)]


class _ActionBase(Contract):
    """Base of the action models; each declares `kind` first and `timeout_ms` last.

    `kind` is always dumped, even with exclude_defaults/exclude_unset, so a dumped action parses.
    `optional` (the step still succeeds when this action does not end ok) is dumped only when set,
    so the receipts of an optional action say so and every other dump stays as it was.
    """

    optional: bool = False

    @model_serializer(mode="wrap")
    def _keep_kind(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo):  # type: ignore[no-untyped-def]
        # No return annotation on purpose: pydantic then keeps the model's own serialization schema.
        data = handler(self)
        if not isinstance(data, dict):
            return data
        optional = data.pop("optional", False)
        if "kind" not in data:
            data = {"kind": getattr(self, "kind"), **data}  # noqa: B009 (declared by subclasses)
        return {**data, "optional": True} if optional else data


class NavigateAction(_ActionBase):
    kind: Literal["navigate"] = "navigate"
    url: str = Field(min_length=1)
    wait_until: Literal["commit", "domcontentloaded", "load", "networkidle"] = "load"
    timeout_ms: TimeoutMs = None


class ClickAction(_ActionBase):
    kind: Literal["click"] = "click"
    target: Target
    button: Literal["left", "right", "middle"] = "left"
    click_count: int = Field(default=1, ge=1, le=3)
    timeout_ms: TimeoutMs = None


class FillAction(_ActionBase):
    """`value` may be a `{{secret:NAME}}` placeholder; the driver resolves it only when typing."""

    kind: Literal["fill"] = "fill"
    target: Target
    value: str
    timeout_ms: TimeoutMs = None


class SelectAction(_ActionBase):
    """Chooses options of a <select> by value or visible label."""

    kind: Literal["select"] = "select"
    target: Target
    value: str | list[str]
    timeout_ms: TimeoutMs = None


class CheckAction(_ActionBase):
    kind: Literal["check"] = "check"
    target: Target
    checked: bool = True
    timeout_ms: TimeoutMs = None


class PressAction(_ActionBase):
    """A key (Playwright key names: "Enter", "Control+A"); on the target, else the focused element."""

    kind: Literal["press"] = "press"
    key: str = Field(min_length=1)
    target: Target | None = None
    timeout_ms: TimeoutMs = None


class ScrollAction(_ActionBase):
    """Scrolls the target into view when given, else the page by `amount` pixels."""

    kind: Literal["scroll"] = "scroll"
    target: Target | None = None
    direction: Literal["up", "down", "left", "right"] = "down"
    amount: int = Field(default=600, gt=0, le=100_000)
    timeout_ms: TimeoutMs = None


class WaitAction(_ActionBase):
    """Waits for observable state: a target in a state, some text, a URL substring or a load state."""

    kind: Literal["wait"] = "wait"
    target: Target | None = None
    state: Literal["visible", "hidden", "attached", "detached"] = "visible"
    text: str | None = Field(default=None, min_length=1)
    url_contains: str | None = Field(default=None, min_length=1)
    load_state: Literal["domcontentloaded", "load", "networkidle"] | None = None
    timeout_ms: TimeoutMs = None

    @model_validator(mode="after")
    def _one_condition(self) -> WaitAction:
        given = [n for n in ("target", "text", "url_contains", "load_state") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError(
                f"a wait needs exactly one of target | text | url_contains | load_state; got {given}"
            )
        return self


class ExtractAction(_ActionBase):
    """Reads text, a table (rows of cell texts) or an attribute; no target means the whole page."""

    kind: Literal["extract"] = "extract"
    what: Literal["text", "table", "attribute"] = "text"
    target: Target | None = None
    attribute: str | None = Field(default=None, min_length=1)
    timeout_ms: TimeoutMs = None

    @model_validator(mode="after")
    def _attribute_named(self) -> ExtractAction:
        if (self.what == "attribute") != (self.attribute is not None):
            raise ValueError("`attribute` is required for what=attribute and only then")
        if self.what == "attribute" and self.target is None:
            raise ValueError("extracting an attribute needs a target")
        return self


class DownloadAction(_ActionBase):
    """Clicks the target and saves the download it starts inside the downloads folder."""

    kind: Literal["download"] = "download"
    target: Target
    save_as: str | None = Field(default=None, min_length=1, pattern=r"^[^/\\]+$")
    timeout_ms: TimeoutMs = None

    @model_validator(mode="after")
    def _a_file_name(self) -> DownloadAction:
        if self.save_as in {".", ".."}:
            raise ValueError(f"save_as {self.save_as!r} must be a file name, not a folder")
        return self


class UploadAction(_ActionBase):
    kind: Literal["upload"] = "upload"
    target: Target
    files: list[str] = Field(min_length=1)
    timeout_ms: TimeoutMs = None


class DoneAction(_ActionBase):
    """The inner loop's end marker; performing it touches nothing."""

    kind: Literal["done"] = "done"
    success: bool = True
    summary: str = ""
    timeout_ms: TimeoutMs = None


Action = Annotated[
    NavigateAction
    | ClickAction
    | FillAction
    | SelectAction
    | CheckAction
    | PressAction
    | ScrollAction
    | WaitAction
    | ExtractAction
    | DownloadAction
    | UploadAction
    | DoneAction,
    Field(discriminator="kind"),
]
ActionKind = Literal[
    "navigate", "click", "fill", "select", "check", "press", "scroll", "wait", "extract", "download",
    "upload", "done",
]  # fmt: skip

ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
ACTION_LIST_ADAPTER: TypeAdapter[list[Action]] = TypeAdapter(list[Action])


def parse_action(data: object) -> Action:
    """Validates one action from plain JSON data (a dict) or a JSON string."""
    if isinstance(data, str | bytes):
        return ACTION_ADAPTER.validate_json(data)
    return ACTION_ADAPTER.validate_python(data)


# --- outcomes ----------------------------------------------------------------------------------


class OutcomeStatus(StrEnum):
    OK = "ok"
    NOT_FOUND = "not_found"
    AMBIGUOUS = "ambiguous"
    TIMEOUT = "timeout"
    BLOCKED = "blocked"
    ERROR = "error"


class ResolvedTarget(Contract):
    """What a Target resolved to on the page, as evidence of which element was acted on."""

    description: str
    selector: str | None = None
    role: str | None = None
    name: str | None = None
    index: int | None = None
    frame_url: str | None = None
    score: float = Field(default=1.0, ge=0, le=1)


class DownloadInfo(Contract):
    path: str
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    size: int = Field(ge=0)
    suggested_filename: str


class SentRequest(Contract):
    """A request an action sent (browser/sent_requests.py); `status` None: no answer in its time."""

    method: str
    url: str
    resource_type: str = ""
    document: bool = False
    status: int | None = None
    failure: str = ""


class ActionOutcome(Contract):
    """The typed result of one action; never carries a secret value."""

    kind: ActionKind
    status: OutcomeStatus
    message: str = ""
    candidates: list[str] = Field(default_factory=list)
    resolved: ResolvedTarget | None = None
    value: str | None = None
    table: list[list[str]] | None = None
    url_after: str | None = None
    title_after: str | None = None
    download: DownloadInfo | None = None
    sent: list[SentRequest] = Field(default_factory=list)  # what it sent, with the site's answers
    duration_ms: float = Field(default=0.0, ge=0)

    @property
    def ok(self) -> bool:
        return self.status is OutcomeStatus.OK


# --- observations and captures -----------------------------------------------------------------


class ElementInfo(Contract):
    """One interactive element as the model sees it; `index` is stable within one observation and
    is what `Target(index=...)` refers to."""

    index: int = Field(ge=0)
    tag: str
    role: str | None = None
    name: str = ""
    input_type: str | None = None
    value: str | None = None
    value_hidden: bool = False
    checked: bool | None = None
    options: list[str] = Field(default_factory=list)
    placeholder: str | None = None
    href: str | None = None
    visible: bool = True
    enabled: bool = True
    frame: str = ""
    in_shadow: bool = False
    context: str = ""  # the row, card or list item it sits in, when that says more than its name
    form: int | None = None  # the form (search region, dialog) it belongs to, numbered across the page
    area: str = ""  # "nav", "header", "footer", "aside", "dialog"; "" for the main content
    heading: str = ""  # the heading its form sits under ("Join the pottery class"), for a form's fields

    def render(self) -> str:
        """One compact line, e.g. `[3] textbox "Email" =a@b.co` or `[5] password "Password" =[hidden]`."""
        kind = self.role or self.tag
        plain = {"text", "submit", "button", kind}
        if self.input_type and self.input_type not in plain:
            kind = f"{kind}:{self.input_type}"
        parts = [f"[{self.index}] {kind}"]
        if self.name:
            parts.append(f'"{self.name}"')
        if self.placeholder and self.placeholder != self.name:
            parts.append(f"ph={self.placeholder!r}")
        if self.value_hidden:
            parts.append("=[hidden]")
        elif self.value:
            parts.append(f"={self.value!r}")
        if self.checked is not None:
            parts.append("checked" if self.checked else "unchecked")
        if self.options:
            parts.append("options=" + "|".join(self.options))
        if self.href:
            parts.append(f"->{self.href}")
        if not self.visible:
            parts.append("hidden")
        if not self.enabled:
            parts.append("disabled")
        if self.frame:
            parts.append(f"frame={self.frame}")
        if self.in_shadow:
            parts.append("shadow")
        if self.area:
            parts.append(self.area)
        if self.form is not None:
            parts.append(f"form{self.form}")
        if self.context:
            parts.append(f"in {self.context!r}")
        return " ".join(parts)


class Observation(Contract):
    """What the decide step sees of a page: interactive elements plus compact readable text."""

    url: str
    title: str
    elements: list[ElementInfo] = Field(default_factory=list)
    text: str = ""
    truncated: bool = False
    token_estimate: int = Field(default=0, ge=0)

    def render(self) -> str:
        """The prompt form: a header, one line per element, then the page text."""
        lines = [f"URL: {self.url}", f"Title: {self.title}", "Elements:"]
        lines.extend(e.render() for e in self.elements)
        lines.append("Text:")
        lines.append(self.text)
        if self.truncated:
            lines.append("[observation truncated]")
        return "\n".join(lines)


class PageCapture(Contract):
    """Evidence of a page state: where it was, its normalised-DOM hash and an optional screenshot."""

    url: str
    title: str
    dom_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    screenshot: bytes | None = None
    screenshot_path: str | None = None
    #: Scroll, viewport and focus (browser/dom_hash.py DomState.view); None when unknown.
    view: str | None = None
