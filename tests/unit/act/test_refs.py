"""Payloads built from earlier steps: inherited payloads and {{step:ID.PATH}} references."""

from __future__ import annotations

import pytest

from executor.act.refs import UnresolvedReference, resolve_data, step_payload

OUTPUTS = {
    "stp_c1": {
        "recommendation": {"name": "Datafeed Pro", "price": 99},
        "payload": {"package": "Datafeed Pro", "email": "team@example.com"},
        "ranked": ["Pro", "Basic"],
    }
}


def test_references_resolve_into_text_and_whole_values() -> None:
    data = {
        "package": "{{step:stp_c1.recommendation.name}}",
        "note": "at ${{step:stp_c1.recommendation.price}}/mo",
        "second": "{{step:stp_c1.ranked.1}}",
        "pw": "{{secret:site_password}}",
    }
    assert resolve_data(data, OUTPUTS) == {
        "package": "Datafeed Pro",
        "note": "at $99/mo",
        "second": "Basic",
        "pw": "{{secret:site_password}}",  # only the driver resolves secrets
    }


def test_dependencies_payloads_are_inherited_and_own_keys_win() -> None:
    payload = step_payload({"email": "me@example.com", "name": "Ada"}, ["stp_c1"], OUTPUTS)
    assert payload == {"package": "Datafeed Pro", "email": "me@example.com", "name": "Ada"}
    assert step_payload({"x": "1"}, [], OUTPUTS) == {"x": "1"}


@pytest.mark.parametrize("ref", ["{{step:nope.a}}", "{{step:stp_c1.missing}}", "{{step:stp_c1.ranked.9}}"])
def test_unresolved_reference_is_a_clear_failure(ref: str) -> None:
    with pytest.raises(UnresolvedReference, match="step:"):
        resolve_data({"v": ref}, OUTPUTS)
