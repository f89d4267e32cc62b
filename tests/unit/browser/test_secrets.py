"""The secret vault: placeholders resolve only on demand, values are scrubbed from every text."""

from __future__ import annotations

import pytest

from browser.models import ActionOutcome, OutcomeStatus, ResolvedTarget
from common.secrecy import REDACTED, SecretVault, UnknownSecret, placeholder
from planner.models import secret_placeholder


def test_placeholder_form_matches_the_planner() -> None:
    assert placeholder("site_password") == secret_placeholder("site_password") == "{{secret:site_password}}"


def test_resolve_replaces_placeholders_and_rejects_unknown_names() -> None:
    vault = SecretVault({"pw": "hunter2", "user": "ann"})
    assert vault.resolve("{{secret:user}}:{{secret:pw}}") == "ann:hunter2"
    assert vault.resolve("no placeholders") == "no placeholders"
    assert vault.has_placeholder("x {{secret:pw}}")
    assert not vault.has_placeholder("{{secret:Bad Name}}")
    with pytest.raises(UnknownSecret):
        vault.resolve("{{secret:other}}")


def test_redact_scrubs_values_longest_first() -> None:
    vault = SecretVault({"short": "abc", "long": "abcdef"})
    assert vault.redact("x abcdef y abc") == f"x {REDACTED} y {REDACTED}"
    assert SecretVault().redact("abc") == "abc"


def test_redact_model_reaches_nested_fields() -> None:
    vault = SecretVault({"pw": "hunter2"})
    outcome = ActionOutcome(
        kind="click",
        status=OutcomeStatus.NOT_FOUND,
        message="no hunter2",
        candidates=["hunter2 button"],
        resolved=ResolvedTarget(description="text=hunter2", name="hunter2"),
        table=[["hunter2"]],
    )
    clean = vault.redact_model(outcome)
    assert "hunter2" not in clean.model_dump_json()
    assert clean.resolved is not None
    assert clean.resolved.name == REDACTED


def test_values_never_show_in_repr_and_names_are_checked() -> None:
    vault = SecretVault({"pw": "hunter2"})
    assert "hunter2" not in repr(vault)
    assert "pw" in vault
    assert vault.names == ["pw"]
    with pytest.raises(ValueError, match="secret name"):
        vault.add("Bad-Name", "x")
