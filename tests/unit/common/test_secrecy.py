"""The secrets owner: one placeholder grammar, one vault, one redactor that knows a value's forms."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from common.secrecy import (
    PLACEHOLDER,
    REDACTED,
    SecretRedactor,
    SecretVault,
    is_placeholder,
    placeholder,
    placeholder_names,
)
from executor.models import RunStatus
from executor.run.resources import RunResources
from executor.run.service import AgentCore, UndeclaredSecret
from executor.store.checkpoint_store import CheckpointStore
from planner.models import SecretRef, secret_placeholder
from receipts.redaction import Redactor

SECRET = "hunter2-Ünï/+?&"


def _forms(value: str) -> list[str]:
    raw = value.encode()
    return [
        value,
        quote(value, safe=""),
        quote_plus(value),
        json.dumps(value)[1:-1],
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
    ]


def test_one_grammar_for_planner_browser_and_receipts() -> None:
    assert placeholder("site_password") == secret_placeholder("site_password") == "{{secret:site_password}}"
    assert SecretRef(name="site_password").placeholder == placeholder("site_password")
    assert is_placeholder("{{secret:pw}}") and not is_placeholder("x {{secret:pw}}")
    assert not is_placeholder("{{secret:9pw}}") and not is_placeholder("{{secret:" + "a" * 41 + "}}")
    assert placeholder_names("a {{secret:pw}} b {{secret:otp_2}}") == ["pw", "otp_2"]
    assert PLACEHOLDER.pattern.count("secret") == 1


@pytest.mark.parametrize("form", _forms(SECRET))
def test_the_vault_and_the_receipts_redact_every_form(form: str) -> None:
    text = f"GET /cb?x={form} and header Authorization: Basic {form}"
    vault = SecretVault({"pw": SECRET})
    assert form not in vault.redact(text) and REDACTED in vault.redact(text)
    assert form not in Redactor([SECRET]).text(text)
    assert SecretRedactor([SECRET]).contains(text)


def test_redactor_reaches_nested_data_and_never_prints_values() -> None:
    redactor = SecretRedactor([SECRET])
    assert redactor.data({"a": [SECRET, {"b": f"x{SECRET}"}], "n": 3}) == {
        "a": [REDACTED, {"b": f"x{REDACTED}"}],
        "n": 3,
    }
    assert SECRET not in repr(redactor) and SECRET not in repr(SecretVault({"pw": SECRET}))


def test_vault_knows_which_declared_secrets_it_lacks() -> None:
    vault = SecretVault({"pw": SECRET})
    assert vault.missing(["pw", "otp"]) == ["otp"]
    vault.add("otp", "123456")
    assert vault.missing(["pw", "otp"]) == []


async def test_a_run_resumed_in_another_process_gets_its_secrets_again(tmp_path: Path) -> None:
    db = tmp_path / "waypost.sqlite3"
    given: list[dict[str, str]] = []

    def resources(run_id: str, run_dir: Path, secrets: object) -> RunResources:
        given.append(dict(secrets))  # type: ignore[call-overload]
        return RunResources(run_id=run_id, run_dir=run_dir, secrets=secrets)  # type: ignore[arg-type]

    first = AgentCore(store=CheckpointStore(db), tools={}, runs_dir=tmp_path, resources=resources)
    planned = await first.plan("log in to http://127.0.0.1:9/login as ann with password hunter22x")
    paused = await first.run(planned.plan)  # safe mode: the first action step waits for a person
    assert paused.run_status is RunStatus.NEEDS_CONFIRMATION
    assert given[-1] == {"password": "hunter22x"}
    assert first.missing_secrets(paused.run_id) == []

    later = AgentCore(store=CheckpointStore(db), tools={}, runs_dir=tmp_path, resources=resources)
    assert later.missing_secrets(paused.run_id) == ["password"]
    with pytest.raises(UndeclaredSecret):
        later.supply_secrets(paused.run_id, {"api_key": "x"})
    await later.resume(paused.run_id, secrets={"password": "hunter22x"}, approve_pending=False)
    assert given[-1] == {"password": "hunter22x"}
    assert later.missing_secrets(paused.run_id) == []
    assert b"hunter22x" not in _everything_written(tmp_path)


def _everything_written(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
