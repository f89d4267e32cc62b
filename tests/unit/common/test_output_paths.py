"""Every output path passes the secrets owner's one redactor (common/secrecy.scrub).

The inventory half fails when a module gains a way to write (a file, stdout/stderr, a database, a
log handler, a model request) without the redactor: route the new path through scrub/scrub_data/
scrub_bytes (or open the database with common.scrubbed_sqlite.scrubbed_db), or, if it can only ever
write Waypost's own data, list it in OWN_DATA with the reason. The other half checks each path
scrubs for real.
"""

from __future__ import annotations

import ast
import base64
import html
import io
import json
import logging
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from common.scrubbed_sqlite import scrubbed_db
from common.secrecy import SecretVault, live_secrets, scrub, scrub_bytes, scrub_data
from executor.journal.observability import JsonFormatter
from planner.llm import LLMClient
from planner.llm_settings import LLMSettings
from receipts.redaction import Redactor
from tests.support.llm_server import Reply, ScriptedLLMServer

ROOT = Path(__file__).resolve().parents[3]
SKIP_DIRS = {"tests", "benchmarks", "scripts", "docs", ".venv"}
SECRET = "Unit-7f3q kite+blue/44"  # used by no other test: a lingering vault cannot hold it

#: Calls that write somewhere a person, a file or a server can read (dotted-name endings).
_WRITERS = (
    "print", ".write_text", ".write_bytes", ".write", "FileHandler", "StreamHandler",
    "sqlite3.connect", "completions.create", "embeddings.create",
)  # fmt: skip
#: Names whose import shows a module routes its output through the one redactor.
_SCRUBBERS = {"scrub", "scrub_data", "scrub_bytes", "scrubbed_db", "Redactor", "RedactingFilter"}

#: Modules that write only Waypost's own data (never page text, model output or a typed value).
OWN_DATA = {
    "app/stopped.py": "a run id and fixed text",
    "common/moments.py": "the names of code moments, to a test's pipe",
    "app/cli_signals.py": "a run id and fixed text",
    "app/wiring.py": "where a broken store was moved to, and the run ids and statuses it held",
    "app/settings.py": "settings the person chose; the API key is never written there",
    "app/doctor.py": "a probe file holding 'ok'",
    "app/doctor_stores.py": "opens the stores read-only (mode=ro)",
    "app/demo/server.py": "the demo site's bundled pages",
    "app/demo/run.py": "the demo's own task titles",
    "evals/site.py": "the eval site's bundled pages",
    "browser/capture.py": "screenshots, masked where a secret shows (browser/secret_mask.py)",
    "voice/audio.py": "audio samples",
    "voice/offline.py": "the recogniser's fixed vocabulary",
    "common/scrubbed_sqlite.py": "the scrubbing connection itself",
    "receipts/layout.py": "records the recorder redacted (receipts/redaction.Redactor)",
    "receipts/chain_file.py": "record lines and files the recorder redacted (receipts/redaction.Redactor)",
    "receipts/resume.py": "a newline closing a torn record",
    "receipts/keys.py": "the install's signing key, owner-only",
}


def _modules() -> list[Path]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in SKIP_DIRS or len(rel.parts) < 2 or rel.parts[0].startswith("."):
            continue
        found.append(path)
    return found


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return _dotted(node.value) + "." + node.attr
    return "?"


def _writes(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            names |= {w for w in _WRITERS if name == w or name.endswith(w if w[0] == "." else "." + w)}
    return names


def _imports_scrubber(tree: ast.AST) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name in _SCRUBBERS for a in node.names):
            return True
    return False


def test_every_module_that_writes_uses_the_one_redactor() -> None:
    bypass = {}
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        writes = _writes(tree)
        if writes and rel not in OWN_DATA and not _imports_scrubber(tree):
            bypass[rel] = sorted(writes)
    assert bypass == {}, "these modules write without common.secrecy.scrub (see this test's docstring)"


def test_only_the_scrubbing_connection_opens_a_writable_database() -> None:
    opened = []
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            if "sqlite3.connect(" in line and "mode=ro" not in line:
                opened.append(path.relative_to(ROOT).as_posix())
    assert opened == ["common/scrubbed_sqlite.py"]


def test_the_own_data_list_names_real_modules() -> None:
    assert [m for m in OWN_DATA if not (ROOT / m).exists()] == []


def _forms(value: str) -> list[str]:
    raw = value.encode()
    return [
        value,
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        quote(value, safe=""),
        quote_plus(value),
        json.dumps(value)[1:-1],
        html.escape(value),
        value.upper(),
        value.lower(),
    ]


@pytest.mark.parametrize("form", _forms(SECRET))
def test_a_live_vault_makes_scrub_catch_every_form(form: str) -> None:
    vault = SecretVault({"pw": SECRET})
    assert scrub(f"page says <{form}>") == "page says <[REDACTED]>"
    assert scrub_data({"a": [f"x{form}"]}) == {"a": ["x[REDACTED]"]}
    assert scrub_bytes(form.encode()) == b"[REDACTED]"
    del vault


def test_scrub_forgets_a_finished_runs_vault_and_a_closed_scope() -> None:
    vault = SecretVault({"pw": SECRET})
    assert scrub(SECRET) != SECRET
    del vault
    assert scrub(SECRET) == SECRET
    with live_secrets([SECRET]):
        assert scrub(SECRET) == "[REDACTED]"
    assert scrub(SECRET) == SECRET


def test_scrub_applies_every_live_vault_and_a_value_learnt_later() -> None:
    """scrub keeps the live redactors' patterns (common/secrecy.py): a second vault, and a value a
    vault learns after it went live (a typed value the recorder hides), count at once; an empty
    vault changes nothing, and a vault that goes takes only its own values."""
    empty = SecretVault()
    assert scrub(SECRET) == SECRET
    first = SecretVault({"pw": SECRET})
    empty.redactor.add("typed-hunter-22")
    assert scrub(f"{SECRET} typed-hunter-22") == "[REDACTED] [REDACTED]"
    del first
    assert scrub(f"{SECRET} typed-hunter-22") == f"{SECRET} [REDACTED]"
    del empty
    assert scrub("typed-hunter-22") == "typed-hunter-22"


def test_the_receipts_redactor_shares_the_vaults_values() -> None:
    """A typed sensitive value the recorder hides is then scrubbed everywhere else too."""
    vault = SecretVault({"pw": SECRET})
    redactor = Redactor(vault.values(), matcher=vault.redactor)
    redactor.hide_value("typed-hunter-22")
    assert vault.redact("echo typed-hunter-22") == "echo [REDACTED]"
    assert scrub("echo typed-hunter-22") == "echo [REDACTED]"


def test_a_store_never_holds_a_secret(tmp_path: Path) -> None:
    vault = SecretVault({"pw": SECRET})
    path = tmp_path / "s.sqlite3"
    conn = scrubbed_db(str(path), isolation_level=None)
    conn.execute("CREATE TABLE t (a TEXT, b BLOB)")
    conn.execute("INSERT INTO t VALUES (?, ?)", (json.dumps({"x": SECRET}), SECRET.encode()))
    conn.executemany("INSERT INTO t VALUES (:a, :b)", [{"a": quote(SECRET), "b": None}])
    conn.close()
    data = path.read_bytes()
    assert not any(f.encode() in data for f in _forms(SECRET))
    del vault


@pytest.mark.parametrize("short", ["12", "x", "ce"])
def test_a_short_secret_never_cuts_a_stored_document(tmp_path: Path, short: str) -> None:
    """A PIN "12" or an "x" replaced in a document's text would cut through its numbers and keys
    ("time_ms_used":[REDACTED]5, "e[REDACTED]ceeded") and leave the run store unreadable."""
    document = {
        "exceeded": None,
        "time_ms_used": 12345,
        "note": f"typed {short} in the field",
        "items": [short],
    }
    path = tmp_path / "s.sqlite3"
    with live_secrets([short]):
        conn = scrubbed_db(str(path), isolation_level=None)
        conn.execute("CREATE TABLE t (a TEXT)")
        conn.execute("INSERT INTO t VALUES (?)", (json.dumps(document),))
        [(stored,)] = conn.execute("SELECT a FROM t").fetchall()
        conn.close()
    assert json.loads(stored) == {
        **document,
        "note": "typed [REDACTED] in the field",
        "items": ["[REDACTED]"],
    }


def test_log_lines_are_scrubbed() -> None:
    vault = SecretVault({"pw": SECRET})
    record = logging.LogRecord("waypost", logging.INFO, __file__, 1, "page said %s", (SECRET,), None)
    line = JsonFormatter().format(record)
    assert SECRET not in line and "[REDACTED]" in line
    del vault


def test_progress_lines_are_scrubbed() -> None:
    from app.progress import ProgressPrinter

    vault = SecretVault({"pw": SECRET})
    out = io.StringIO()
    ProgressPrinter(out)._say(f"fill -> error page said {SECRET}")
    assert SECRET not in out.getvalue()
    del vault


async def test_a_model_request_never_carries_a_secret(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    """Whatever the page echoed into the prompt, the request body the server receives is clean."""
    vault = SecretVault({"pw": SECRET})
    llm_server.script(Reply(content="ok"))
    client = LLMClient(llm_settings)
    messages = [{"role": "user", "content": f"Page: your password is {SECRET} ({quote(SECRET)})"}]
    assert await client.chat(messages, purpose="probe", max_tokens=8) == "ok"
    (request,) = llm_server.requests
    assert not any(f.encode() in request.raw for f in _forms(SECRET)) and b"[REDACTED]" in request.raw
    del vault


def test_the_bundle_is_redacted_even_with_only_a_hidden_typed_value() -> None:
    """No secret declared, but the recorder hid a typed password: the run's bundle loses its echo."""
    from pydantic import BaseModel

    class Bundle(BaseModel):
        final_answer: str

    vault = SecretVault()
    Redactor(matcher=vault.redactor).hide_value("Typed-pw-9931")
    bundle = vault.redact_model(Bundle(final_answer="the page says Typed-pw-9931"))
    assert bundle.final_answer == "the page says [REDACTED]"
