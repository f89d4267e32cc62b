"""Redactor rules, and a sweep: a secret recorded through every writing path is in no file."""

from __future__ import annotations

import logging
import re
import zipfile
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from common.secrecy import REDACTED
from receipts.errors import RedactionError
from receipts.interface import Capture
from receipts.models import FormField, StateSnapshot
from receipts.recorder import JsonlRecorder
from receipts.redaction import RedactingFilter, Redactor
from receipts.report import export_report
from receipts.verify import verify
from tests.unit.receipts._helpers import SECRET, dom, png


@pytest.mark.parametrize(
    "form",
    [
        SECRET,
        quote(SECRET, safe=""),
        quote(SECRET),
        quote_plus(SECRET),
        re.sub("%[0-9A-F]{2}", lambda m: m.group(0).lower(), quote(SECRET, safe="")),
    ],
)
def test_secret_caught_plain_and_url_encoded(form: str) -> None:
    text = f"https://h/login?next=/home&q={form}&x=1"
    out = Redactor([SECRET]).text(text)
    assert form not in out
    assert REDACTED in out and out.startswith("https://h/login?next=/home&q=")


def test_secret_caught_html_and_json_escaped() -> None:
    secret = 'a"b<c>&d'
    r = Redactor([secret])
    assert r.text('<input value="a&quot;b&lt;c&gt;&amp;d">') == f'<input value="{REDACTED}">'
    assert r.text('{"v": "a\\"b<c>&d"}') == f'{{"v": "{REDACTED}"}}'


def test_credentials_in_urls() -> None:
    r = Redactor()
    assert r.text("https://bob:pa55@h/x") == f"https://bob:{REDACTED}@h/x"
    assert r.text("https://h/cb?code=abc123&state=ok") == f"https://h/cb?code={REDACTED}&state=ok"
    assert r.text("https://h/?access_token=t0k&page=2") == f"https://h/?access_token={REDACTED}&page=2"
    assert r.text("https://h/?page=2") == "https://h/?page=2"


def test_sensitive_fields() -> None:
    r = Redactor(sensitive_fields=["Mother's maiden name"])
    assert r.is_sensitive("Email", field_type="password")
    assert r.is_sensitive("Password")
    assert r.is_sensitive("API key")
    assert r.is_sensitive("mother's  MAIDEN name")
    assert not r.is_sensitive("Email")
    assert not r.is_sensitive("Pinned items")  # "pin" only as a word
    assert r.is_sensitive_target({"selector": "#new-password"})
    assert not r.is_sensitive_target({"role": "button", "name": "Next"})


def test_json_redacts_strings_keys_and_sensitive_keys_but_not_digests() -> None:
    r = Redactor([SECRET])
    data = {
        "password": "plain-pass",
        "nested": [{"note": f"x {SECRET} y"}, {SECRET: 1}],
        "token_count": 5,
        "dom_hash": "ab" * 32,
        "time": "2026-01-01T00:00:00Z",
    }
    out = r.json(data)
    assert out["password"] == REDACTED
    assert out["nested"] == [{"note": f"x {REDACTED} y"}, {REDACTED: 1}]
    assert out["token_count"] == 5 and out["dom_hash"] == "ab" * 32 and out["time"] == data["time"]


def test_too_short_secret_is_refused_and_repr_hides_values() -> None:
    with pytest.raises(RedactionError):
        Redactor(["ab"])
    r = Redactor([SECRET, ""])
    assert SECRET not in repr(r)


def test_logging_filter(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("waypost.test.redaction")
    log.addFilter(RedactingFilter(Redactor([SECRET])))
    with caplog.at_level(logging.INFO, logger="waypost.test.redaction"):
        log.info("typed %s into the form", SECRET)
    assert SECRET not in caplog.text and REDACTED in caplog.text


def sweep(run_dir: Path, forbidden: list[str]) -> tuple[set[str], list[str]]:
    """Names of all files of the run, and "form in file" for each forbidden form found in one
    (zip members are searched decompressed too)."""
    names: set[str] = set()
    leaks: list[str] = []
    for path in run_dir.rglob("*"):
        if not path.is_file():
            continue
        names.add(path.name)
        blobs = [path.read_bytes()]
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as zf:
                blobs += [zf.read(n) for n in zf.namelist()]
        leaks += [f"{form!r} in {path.name}" for blob in blobs for form in forbidden if form.encode() in blob]
    return names, leaks


async def test_secret_reaches_no_file_of_the_run(run_dir: Path) -> None:
    """Every writing path carries the secret (or its encodings); no byte of any file holds it."""
    learned = "typed-but-never-declared-9"
    rec = await JsonlRecorder.open(run_dir, redactor=Redactor([SECRET]))
    await rec.write_run_meta({"task": f"log in with {SECRET}", "settings": {"api_key": "sk-live-123456"}})
    url = f"http://127.0.0.1/p?q={quote_plus(SECRET)}"
    page = Capture(url=url, title=f"Hello {SECRET}", dom_hash=dom("p"), screenshot=png((1, 2, 3)))
    await rec.record_action(
        action={"kind": "fill", "target": {"label": "Password"}, "value": learned},
        outcome={"status": "ok", "message": f"filled {learned}"}, before=page, after=page,
    )  # fmt: skip
    await rec.record_action(
        action={"kind": "fill", "target": {"label": "Notes"}, "value": f"note {SECRET}"},
        outcome={"status": "error", "message": SECRET, "candidates": [SECRET]}, before=page, after=page,
        target_resolved={"description": f"textarea {SECRET}"},
    )  # fmt: skip
    await rec.record_action(
        action={"kind": "navigate", "url": f"http://127.0.0.1/{quote(SECRET, safe='')}"},
        outcome={"status": "ok"}, before=page, after=page,
    )  # fmt: skip
    await rec.record_note(f"echo of the typed password: {learned}; and {SECRET}")
    await rec.record_dialog(dialog_type="alert", message=f"Wrong password {SECRET}", accepted=True, url=url)
    await rec.record_evidence(url=url, title=SECRET, snippet=f"...{SECRET}...", content=SECRET)
    await rec.record_gate_decision(gate_id="g", decision="ALLOW", reason=f"because {SECRET}")
    # Fields the recorder does not redact one by one are caught by its whole-record safety net.
    await rec.record_gate_decision(gate_id="g2", decision="DENY", gate_kind=SECRET, step_id=f"s-{SECRET}")
    await rec.record_snapshot(
        StateSnapshot(
            label=SECRET, url=url, title=SECRET, text_excerpt=f"body {SECRET} {learned}",
            form_fields=[FormField(name="pw", type="password", value="another-pass-77"),
                         FormField(name="comment", value=f"c {SECRET}")],
        )
    )  # fmt: skip
    with zipfile.ZipFile(rec.folder.trace, "w") as zf:
        zf.writestr("trace.network", f'{{"postData":"pw={quote_plus(SECRET)}"}}')
    await rec.finish("SUCCESS", reason=f"done {SECRET}", final_state=page)
    export_report(run_dir)

    forbidden = [
        SECRET,
        quote(SECRET, safe=""),
        quote_plus(SECRET),
        learned,
        "another-pass-77",
        "sk-live-123456",
    ]
    names, leaks = sweep(run_dir, forbidden)
    assert names >= {"run.json", "receipts.jsonl", "report.html", "trace.zip", "000001-before.png"}
    assert leaks == []
    assert verify(run_dir).ok
