"""The browser contracts: targets, the action union, outcomes and observations round-trip losslessly."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from browser.models import (
    ACTION_ADAPTER,
    ACTION_LIST_ADAPTER,
    ActionOutcome,
    ClickAction,
    DownloadInfo,
    ElementInfo,
    FillAction,
    Observation,
    OutcomeStatus,
    PageCapture,
    ResolvedTarget,
    Target,
    parse_action,
)
from browser.options import BrowserPolicy, LaunchOptions

EXAMPLES: list[dict[str, object]] = [
    {"kind": "navigate", "url": "https://example.test/", "wait_until": "domcontentloaded"},
    {"kind": "click", "target": {"role": "button", "name": "Next"}},
    {"kind": "fill", "target": {"label": "Email"}, "value": "a@b.co"},
    {"kind": "select", "target": {"selector": "#country"}, "value": ["de", "fr"]},
    {"kind": "check", "target": {"text": "I agree"}, "checked": False},
    {"kind": "press", "key": "Enter"},
    {"kind": "scroll", "direction": "up", "amount": 200},
    {"kind": "wait", "text": "Done", "timeout_ms": 3000},
    {"kind": "extract", "what": "attribute", "attribute": "href", "target": {"index": 4}},
    {"kind": "download", "target": {"placeholder": "x"}, "save_as": "r.csv"},
    {"kind": "upload", "target": {"label": "CV"}, "files": ["/tmp/cv.pdf"]},
    {"kind": "done", "summary": "ok"},
]


def test_the_design_examples_parse_to_their_kinds() -> None:
    fill = parse_action({"kind": "fill", "target": {"label": "Email"}, "value": "a@b.co"})
    assert isinstance(fill, FillAction)
    assert fill.target.label == "Email"
    assert fill.target.kind == "label"
    click = parse_action('{"kind": "click", "target": {"role": "button", "name": "Next"}}')
    assert isinstance(click, ClickAction)
    assert (click.target.role, click.target.name) == ("button", "Next")


@pytest.mark.parametrize("data", EXAMPLES, ids=lambda d: str(d["kind"]))
def test_every_action_kind_round_trips_through_json(data: dict[str, object]) -> None:
    action = parse_action(data)
    assert action.kind == data["kind"]
    again = parse_action(ACTION_ADAPTER.dump_json(action))
    assert again == action
    dumped = ACTION_ADAPTER.dump_python(action, mode="json", exclude_defaults=True)
    assert dumped["kind"] == data["kind"]


def test_a_list_of_actions_round_trips() -> None:
    actions = ACTION_LIST_ADAPTER.validate_python(EXAMPLES)
    assert ACTION_LIST_ADAPTER.validate_json(ACTION_LIST_ADAPTER.dump_json(actions)) == actions


def test_target_dumps_only_what_was_given() -> None:
    assert Target(role="button", name="Next").model_dump() == {"role": "button", "name": "Next"}
    assert Target(index=0).model_dump_json() == '{"index":0}'
    assert Target(label="x").describe() == 'label="x"'
    assert Target(role="link").describe() == "role=link"


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"label": "a", "text": "b"},
        {"selector": "#a", "index": 1},
        {"name": "Next"},
        {"index": -1},
        {"label": ""},
        {"label": "a", "nope": 1},
    ],
)
def test_invalid_targets_are_rejected(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Target.model_validate(data)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "teleport"},
        {"kind": "click"},
        {"kind": "fill", "target": {"label": "x"}},
        {"kind": "wait"},
        {"kind": "wait", "text": "a", "url_contains": "b"},
        {"kind": "extract", "what": "attribute", "target": {"index": 1}},
        {"kind": "extract", "what": "attribute", "attribute": "href"},
        {"kind": "extract", "attribute": "href", "target": {"index": 1}},
        {"kind": "download", "target": {"index": 1}, "save_as": "../../etc/passwd"},
        {"kind": "upload", "target": {"index": 1}, "files": []},
        {"kind": "click", "target": {"index": 1}, "timeout_ms": 0},
        {"kind": "click", "target": {"index": 1}, "extra": True},
    ],
)
def test_invalid_actions_are_rejected(data: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        parse_action(data)


def test_outcome_round_trips_with_every_field() -> None:
    outcome = ActionOutcome(
        kind="download",
        status=OutcomeStatus.OK,
        message="m",
        candidates=["a", "b"],
        resolved=ResolvedTarget(description="d", selector="a#x", role="link", name="X", index=3, score=0.9),
        value="v",
        table=[["a", "b"], ["1", "2"]],
        url_after="http://127.0.0.1/",
        title_after="t",
        download=DownloadInfo(path="/tmp/f", sha256="0" * 64, size=3, suggested_filename="f"),
        duration_ms=12.5,
    )
    assert ActionOutcome.model_validate_json(outcome.model_dump_json()) == outcome
    assert outcome.ok
    assert not ActionOutcome(kind="click", status=OutcomeStatus.NOT_FOUND).ok


def test_capture_keeps_screenshot_bytes_through_json() -> None:
    png = bytes(range(256))
    capture = PageCapture(url="u", title="t", dom_hash="a" * 64, screenshot=png)
    again = PageCapture.model_validate_json(capture.model_dump_json())
    assert again.screenshot == png
    with pytest.raises(ValidationError):
        PageCapture(url="u", title="t", dom_hash="nothex")


def test_observation_renders_compactly_and_round_trips() -> None:
    observation = Observation(
        url="http://127.0.0.1/",
        title="T",
        elements=[
            ElementInfo(index=0, tag="input", role="textbox", name="Email", input_type="email", value="a@b"),
            ElementInfo(
                index=1,
                tag="input",
                role="textbox",
                name="Password",
                input_type="password",
                value_hidden=True,
            ),
            ElementInfo(
                index=2, tag="input", role="checkbox", name="Terms", input_type="checkbox", checked=True
            ),
            ElementInfo(index=3, tag="button", role="button", name="Go", enabled=False, frame="f1"),
        ],
        text="Hello",
    )
    lines = observation.render().splitlines()
    assert lines[3] == "[0] textbox:email \"Email\" ='a@b'"
    assert lines[4] == '[1] textbox:password "Password" =[hidden]'
    assert lines[5] == '[2] checkbox "Terms" checked'
    assert lines[6] == '[3] button "Go" disabled frame=f1'
    assert Observation.model_validate_json(observation.model_dump_json()) == observation


def test_policy_and_launch_options() -> None:
    assert BrowserPolicy(no_submit=True).submit_blocked
    assert BrowserPolicy(blocked_actions=["SUBMIT"]).submit_blocked
    assert not BrowserPolicy(blocked_actions=["purchase"]).submit_blocked
    with pytest.raises(ValidationError):
        LaunchOptions(cdp_url="http://127.0.0.1:9222", ws_endpoint="ws://127.0.0.1:1")
    with pytest.raises(ValidationError):
        LaunchOptions(cdp_url="http://127.0.0.1:9222", user_data_dir="/tmp/p")


def test_action_schema_is_a_discriminated_union() -> None:
    schema = ACTION_ADAPTER.json_schema()
    assert schema["discriminator"]["propertyName"] == "kind"
    assert len(schema["discriminator"]["mapping"]) == 12


def test_dumps_without_defaults_still_parse_and_schemas_keep_their_shape() -> None:
    done = ACTION_ADAPTER.dump_python(parse_action({"kind": "done"}), exclude_defaults=True)
    assert done == {"kind": "done"}
    assert parse_action(done) == parse_action({"kind": "done"})
    schema = ACTION_ADAPTER.json_schema(mode="serialization")
    assert "target" in schema["$defs"]["ClickAction"]["properties"]
    assert "role" in Target.model_json_schema(mode="serialization")["properties"]
