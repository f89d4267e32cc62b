"""From a step's inputs to what the loop runs, for each action step type.

- ACT: `{"url"?, "actions": [...]}` runs the list as written; `{"url"?, "goal", "payload"}` lets the
  cognition decide each next action.
- FORM_FILL: as ACT, or `{"url"?, "fields": {"Label": "value"}}` (a fill by label each).
- CLICK_NAV: as ACT, or `{"url"?, "target": {...}}` (one click).
- DOWNLOAD_FILE: as ACT, or `{"url"?, "target": {...}, "save_as"?: name}` (one download).
Payload values and action values may use earlier steps' outputs (executor/act/refs.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from browser.models import Action, parse_action
from executor.act.loop import LoopSpec
from executor.act.refs import resolve_data, step_payload
from executor.errors import FatalToolError
from executor.tools.boundary import ToolContext
from planner.asks import AskList, FillAsk, SubmitAsk
from planner.models import Step


class BadActInputs(FatalToolError):
    code = "bad_act_inputs"


def _parse(items: Any) -> list[Action]:
    if not isinstance(items, list):
        raise BadActInputs("`actions` must be a list of action objects")
    actions = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise BadActInputs(f"action {number} must be an object with a `kind`, not {item!r}")
        try:
            actions.append(parse_action(item))
        except ValidationError as exc:
            raise BadActInputs(f"invalid action {number} ({_described(item)}): {_first(exc)}") from exc
    return actions


def _described(item: dict[str, Any]) -> str:
    kind = item.get("kind")
    return f"kind {kind!r}" if kind is not None else "no kind"


def _first(exc: ValidationError) -> str:
    """The first error with where it is: `value: Field required`, `kind: Input tag 'x' ...`."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error.get("loc", ())[1:])  # [0] is the kind, named already
    return f"{where}: {error.get('msg', exc)}" if where else str(error.get("msg", exc))


def _shortcut(step: Step, inputs: dict[str, Any]) -> list[dict[str, Any]] | None:
    kind = step.type_name
    if kind == "FORM_FILL" and isinstance(inputs.get("fields"), dict):
        return [
            {"kind": "fill", "target": {"label": str(k)}, "value": str(v)}
            for k, v in inputs["fields"].items()
        ]
    if kind == "CLICK_NAV" and isinstance(inputs.get("target"), dict):
        return [{"kind": "click", "target": inputs["target"]}]
    if kind == "DOWNLOAD_FILE" and isinstance(inputs.get("target"), dict):
        save_as = {"save_as": inputs["save_as"]} if inputs.get("save_as") else {}
        return [{"kind": "download", "target": inputs["target"], **save_as}]
    return None


def _listed(step: Step, inputs: dict[str, Any]) -> Any:
    listed = inputs.get("actions")
    return _shortcut(step, inputs) if listed is None else listed


def _own_payload(inputs: dict[str, Any]) -> dict[str, Any]:
    own = inputs.get("payload") or {}
    if not isinstance(own, dict):
        raise BadActInputs("`payload` must be an object of field -> value")
    return own


def check_inputs(step: Step) -> None:
    """What `loop_spec` would refuse, found when the plan is read (executor/run/plan_check.py): actions
    that are not valid actions, a payload that is not an object. References to earlier steps are
    left as written (they are text either way)."""
    listed = _listed(step, dict(step.inputs))
    if listed is not None:
        _parse(listed)
    else:
        _own_payload(dict(step.inputs))


def loop_spec(step: Step, ctx: ToolContext) -> LoopSpec:
    return spec_for(step, ctx.step_outputs)


def spec_for(step: Step, outputs: Mapping[str, Any]) -> LoopSpec:
    """What the loop runs for `step`, given the outputs of the steps before it (also what a gate
    shows before the step starts, executor/gates/look.py)."""
    inputs = resolve_data(dict(step.inputs), outputs)
    url = inputs.get("url") if isinstance(inputs.get("url"), str) else None
    listed = _listed(step, inputs)
    if listed is not None:
        return LoopSpec(url=url, actions=_parse(listed))
    goal = str(inputs.get("goal") or step.name or "")
    own = _own_payload(inputs)
    payload = step_payload(own, step.depends_on, outputs)
    if not goal and not payload and not url:
        raise BadActInputs(f"{step.type_name} step {step.step_id} has no actions, goal, payload or url")
    if not goal and not payload:
        return LoopSpec(url=url, actions=[])
    asks = _asks(inputs.get("asks"))
    if asks is not None:
        asks = _with_earlier(asks, {k: v for k, v in payload.items() if k not in own})
    return LoopSpec(url=url, goal=goal, payload=payload, asks=asks)


def _with_earlier(asks: AskList, earlier: Mapping[str, Any]) -> AskList:
    """What an earlier step handed on ("package": "Pro", the recommendation) joins the asks as a
    fill, before any send: "prefill the form for it" means with the package it chose."""
    named = {a.field.lower() for a in asks.asks if isinstance(a, FillAsk)}
    values = {a.value for a in asks.asks if isinstance(a, FillAsk)}
    extra = [
        FillAsk(field=k.replace("_", " "), value=v)
        for k, v in earlier.items()
        if isinstance(v, str) and v and k.replace("_", " ").lower() not in named and v not in values
    ]
    if not extra:
        return asks
    at = next((i for i, a in enumerate(asks.asks) if isinstance(a, SubmitAsk)), len(asks.asks))
    return asks.model_copy(update={"asks": [*asks.asks[:at], *extra, *asks.asks[at:]]})


def _asks(raw: Any) -> AskList | None:
    """The plan's asks for the step, checked like every other input."""
    if raw is None:
        return None
    try:
        return AskList.model_validate(raw)
    except ValidationError as exc:
        raise BadActInputs(f"invalid asks: {exc.errors()[0].get('msg', exc)}") from exc
