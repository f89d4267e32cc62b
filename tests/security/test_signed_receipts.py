"""Receipts prove who made them: the forgeries that once verified OK now fail, each in one sentence.

Each forgery is made as an attacker with write access to the run folder (but not to the install's
private key) would: consistent with the hash chain, so `verify()` (the chain alone) still passes,
which the tests assert first. The signed head (receipts/signing.py) is what catches them.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import html
import json
import os
import stat
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from executor.act.artifact import store_artifact
from receipts.attest import OWN_LABEL, TRUST_LABEL, TrustedKey, Verdict, amend_signed, check_run, trust
from receipts.keys import InstallKey, SigningKey, install_key, load_or_create, parse_public
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.signing import PAYLOAD_TYPE, SIGNATURE_FILE, Envelope, sign_run
from receipts.verify import verify
from tests.support.receipt_forgery import rewrite_run_json, write_chain
from tests.unit.receipts._helpers import png, record_flow


@pytest.fixture(autouse=True)
def own_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(data))
    return data


async def signed_run(root: Path, *, status: str = "SUCCESS", finish: bool = True) -> Path:
    """A 7-record run (gate, four actions, evidence, run_end) with one artifact, signed at its end."""
    folder = RunFolder.for_run(root, "run_signed01")
    recorder = await JsonlRecorder.open(folder, signer=install_key())
    await recorder.write_run_meta({"task": "fill the form"})
    await record_flow(recorder)
    store_artifact(folder.root, "notes/summary.md", b"# Summary\nThe form was filled.\n")
    if finish:
        await recorder.finish(status)
    else:
        await recorder.aclose()  # the process was killed before the run's end
    return folder.root


def lines(run: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run / "receipts.jsonl").read_bytes().splitlines()]


def resigned_forgery(run: Path, key_dir: Path) -> tuple[SigningKey, Envelope]:
    """An attacker edits a record, re-chains the run and signs it with a key of their own."""
    records = lines(run)
    records[3]["value"] = "forged"
    write_chain(run, records)
    head = str(records[-1]["hash"])
    rewrite_run_json(run, 7, head)
    attacker = load_or_create(key_dir / "key.pem")
    return attacker, sign_run(RunFolder(run), attacker, records=7, head_hash=head, status="SUCCESS")


def verdict(run: Path, trusted: list[TrustedKey] | None = None) -> tuple[Verdict, str]:
    check = check_run(run, trusted)
    return check.verdict, check.summary()


async def test_untouched_run_is_ok_and_names_its_key(tmp_path: Path, own_data: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    key = install_key().load()
    check = check_run(run)
    assert check.ok, check.summary()
    assert check.summary().startswith("OK: complete, signed and untouched: 7 records")
    assert key.keyid in check.summary() and OWN_LABEL in check.summary()
    # A DSSE envelope over an in-toto Statement that names every file the run wrote.
    envelope = json.loads((run / SIGNATURE_FILE).read_text())
    assert envelope["payloadType"] == PAYLOAD_TYPE == "application/vnd.in-toto+json"
    assert [s["keyid"] for s in envelope["signatures"]] == [key.keyid]
    statement = json.loads(base64.b64decode(envelope["payload"]))
    assert statement["_type"] == "https://in-toto.io/Statement/v1"
    names = {s["name"] for s in statement["subject"]}
    assert {"receipts.jsonl", "run.json", "artifacts/notes/summary.md", "shots/000002-after.png"} <= names
    assert statement["predicate"] | {"signed_at": None} == {
        "run_id": "run_signed01",
        "records": 7,
        "head_hash": lines(run)[-1]["hash"],
        "status": "SUCCESS",
        "finished": True,
        "signed_at": None,
    }
    # The key: owner-only, in the data folder, never inside the run folder.
    key_file = own_data / "keys" / "receipts-ed25519.pem"
    assert key.path == key_file
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
    assert not any("PRIVATE KEY" in p.read_text(errors="ignore") for p in run.rglob("*") if p.is_file())
    assert load_or_create(key_file).keyid == key.keyid  # created once, then reused


async def test_forgery_recompute_every_hash(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    records = lines(run)
    records[2]["outcome"] = {"status": "ok", "message": "the person approved this", "candidates": []}
    write_chain(run, records)
    rewrite_run_json(run, 7, str(records[-1]["hash"]))
    assert verify(run).ok  # consistent: the chain alone cannot tell
    got, text = verdict(run)
    assert got is Verdict.FAILED
    assert "the records were rewritten after signing" in text


async def test_forgery_swap_a_screenshot_and_revouch(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    shot = run / "shots" / "000002-after.png"
    real, fake = shot.read_bytes(), png((255, 0, 255))
    shot.write_bytes(fake)
    text = (run / "receipts.jsonl").read_text()  # every record that vouches for it (a reused before-shot too)
    text = text.replace(hashlib.sha256(real).hexdigest(), hashlib.sha256(fake).hexdigest())
    records = [json.loads(line) for line in text.splitlines()]
    write_chain(run, records)
    rewrite_run_json(run, 7, str(records[-1]["hash"]))
    assert verify(run).ok
    got, text = verdict(run)
    assert got is Verdict.FAILED and "rewritten after signing" in text


async def test_forgery_cut_the_tail_and_drop_the_head(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    kept = (run / "receipts.jsonl").read_bytes().splitlines(keepends=True)[:3]
    (run / "receipts.jsonl").write_bytes(b"".join(kept))
    rewrite_run_json(run, None, None)
    assert verify(run).ok
    got, text = verdict(run)
    assert got is Verdict.TRUNCATED
    assert "the signed head states 7 records but receipts.jsonl has 3 (cut at a line boundary)" in text
    # Dropping the signature too leaves a run that cannot be told from a killed one: never OK.
    (run / SIGNATURE_FILE).unlink()
    got, text = verdict(run)
    assert got is Verdict.UNFINISHED and "nothing shows that none were cut from the end" in text


async def test_torn_line_prefix_of_a_finished_run(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    data = (run / "receipts.jsonl").read_bytes()
    cut = data.index(b"\n", data.index(b"\n") + 1) + 40  # two whole lines and a torn third
    (run / "receipts.jsonl").write_bytes(data[:cut])
    assert verify(run).ok and verify(run).truncated is not None  # the chain calls it a crash
    got, text = verdict(run)
    assert got is Verdict.TRUNCATED
    assert "states 7 records but receipts.jsonl has 2; line 3 was cut short mid-write" in text


async def test_deleting_run_json_and_cutting_at_a_line_boundary(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    (run / "run.json").unlink()
    kept = (run / "receipts.jsonl").read_bytes().splitlines(keepends=True)[:5]
    (run / "receipts.jsonl").write_bytes(b"".join(kept))
    assert verify(run).ok
    got, text = verdict(run)
    assert got is Verdict.TRUNCATED and "states 7 records but receipts.jsonl has 5" in text


async def test_modified_artifact_and_added_file(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    summary = run / "artifacts" / "notes" / "summary.md"
    summary.write_bytes(b"# Summary\nThe form was submitted.\n")
    assert verify(run).ok  # the chain only has the artifact's hash in a note
    got, text = verdict(run)
    assert got is Verdict.FAILED and "artifacts/notes/summary.md changed after signing" in text
    summary.write_bytes(b"# Summary\nThe form was filled.\n")
    assert check_run(run).ok
    (run / "artifacts" / "extra.txt").write_text("planted")
    got, text = verdict(run)
    assert got is Verdict.FAILED and "artifacts/extra.txt was added after the run was signed" in text


async def test_other_keys_are_refused(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    envelope = Envelope.model_validate_json((run / SIGNATURE_FILE).read_text())
    attacker, _ = resigned_forgery(run, tmp_path / "attacker")
    got, text = verdict(run)
    assert got is Verdict.FAILED
    assert f"signed by key {attacker.keyid}, which is not trusted here" in text
    assert "pass --trust with that install's public key" in text
    # ...or claims the install's keyid with a signature of its own.
    forged = Envelope.model_validate_json((run / SIGNATURE_FILE).read_text())
    forged.signatures[0].keyid = envelope.signatures[0].keyid
    (run / SIGNATURE_FILE).write_text(forged.model_dump_json())
    got, text = verdict(run)
    assert got is Verdict.FAILED and "does not verify with key" in text


async def test_unfinished_and_unsigned_runs_say_so(tmp_path: Path) -> None:
    killed = await signed_run(tmp_path / "killed", finish=False)
    got, text = verdict(killed)
    assert got is Verdict.UNFINISHED
    assert text.startswith("UNFINISHED: the run did not finish (no signature, no run_end record)")
    paused = await signed_run(tmp_path / "paused", status="NEEDS_CONFIRMATION")
    got, text = verdict(paused)
    assert got is Verdict.UNFINISHED and "did not finish: it ended as NEEDS_CONFIRMATION" in text
    finished = await signed_run(tmp_path / "finished")
    (finished / SIGNATURE_FILE).unlink()
    got, text = verdict(finished)
    assert got is Verdict.UNSIGNED and f"{SIGNATURE_FILE} is missing" in text


async def test_amend_re_signs_only_a_run_that_checked_out(tmp_path: Path) -> None:
    run = await signed_run(tmp_path / "runs")
    amend_signed(run, install_key(), lambda: (run / "spoken-task.wav").write_bytes(b"RIFF"))
    assert check_run(run).ok
    (run / "shots" / "000002-after.png").write_bytes(png((1, 2, 3)))
    amend_signed(run, install_key(), lambda: (run / "run.json").write_text("{}"))
    assert not check_run(run).ok  # the tampered screenshot was not vouched for


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from app.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


async def test_verify_another_install_with_trust(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_RUNS_DIR", str(tmp_path / "runs"))
    run = await signed_run(tmp_path / "runs")
    code, out, _ = cli(capsys, "receipts", "key")
    assert code == 0
    pub_a = out.splitlines()[0]
    (tmp_path / "a.pub").write_text(out)
    assert parse_public(out).keyid == install_key().load().keyid
    code, out, _ = cli(capsys, "receipts", "verify", str(run))
    assert code == 0 and out.startswith("OK: complete, signed and untouched")
    # Install B: another data folder, another key.
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "other"))
    InstallKey.in_data_dir(tmp_path / "other").load()
    code, out, _ = cli(capsys, "receipts", "verify", str(run))
    assert code == 1 and "FAILED: signed by key" in out and "which is not trusted here" in out
    for given in (str(tmp_path / "a.pub"), pub_a):
        code, out, _ = cli(capsys, "receipts", "verify", str(run), "--trust", given, "--json")
        data = json.loads(out)
        assert code == 0 and data["verdict"] == "OK" and data["key_trust"] == TRUST_LABEL, data
    wrong = base64.b64encode(os.urandom(32)).decode()
    code, out, _ = cli(capsys, "receipts", "verify", str(run), "--trust", wrong)
    assert code == 1 and "not trusted here" in out
    code, _, err = cli(capsys, "receipts", "verify", str(run), "--trust", "not-a-key")
    assert code == 2 and "--trust 'not-a-key' is neither a key file nor a base64 public key" in err
    # The exported report carries the signature and the key that made it.
    out_file = tmp_path / "report.html"
    code, _, _ = cli(capsys, "receipts", "export", str(run), "--trust", pub_a, "--out", str(out_file))
    page = out_file.read_text(encoding="utf-8")
    keyid = parse_public(pub_a).keyid
    assert code == 0 and 'id="dsse-envelope"' in page and keyid in page and "Receipts verified" in page
    carried = json.loads(html.unescape(page.split('id="dsse-envelope">')[1].split("</pre>")[0]))
    assert carried["signatures"][0]["keyid"] == keyid


def test_trust_reads_files_and_keeps_own_key(tmp_path: Path) -> None:
    mine = install_key().load()
    other = load_or_create(tmp_path / "o.pem")
    keys = trust([other.public])
    assert [(k.key.keyid, k.label) for k in keys] == [(mine.keyid, OWN_LABEL), (other.keyid, TRUST_LABEL)]


def test_first_use_from_many_threads_makes_one_key(tmp_path: Path) -> None:
    """Concurrent runs of one process (a batch) open their recorders at once on a fresh install."""
    path = tmp_path / "fresh" / "keys" / "receipts-ed25519.pem"
    start = threading.Barrier(8)

    def create() -> str:
        start.wait()
        return load_or_create(path).keyid

    with ThreadPoolExecutor(8) as pool:
        keyids = set(pool.map(lambda _: create(), range(8)))
    assert keyids == {load_or_create(path).keyid}
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind


# --- round 2 -------------------------------------------------------------------------------------


async def test_a_stale_own_signature_beside_a_trusted_one_names_the_key_that_verified(tmp_path: Path) -> None:
    """Found: an envelope carrying this install's keyid with a stale signature, plus a valid signature
    by a `--trust`ed attacker key, verified "OK ... signed by key <this install's> (this install's key)"
    over forged records. The key named is the one whose signature verified; an untrusted one never
    counts."""
    run = await signed_run(tmp_path / "runs")
    own = Envelope.model_validate_json((run / SIGNATURE_FILE).read_text())
    attacker, forged = resigned_forgery(run, tmp_path / "attacker")
    both = forged.model_copy(update={"signatures": [own.signatures[0], forged.signatures[0]]})
    (run / SIGNATURE_FILE).write_text(both.model_dump_json())
    check = check_run(run, trust([attacker.public]))
    assert check.keyid == attacker.keyid and check.key_label == TRUST_LABEL, check.summary()
    assert OWN_LABEL not in check.summary() and install_key().load().keyid not in check.summary()
    untrusted = check_run(run)  # without --trust the attacker's signature counts for nothing
    assert untrusted.verdict is Verdict.FAILED and "does not verify" in untrusted.summary()


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("shots/000002-after.png", "symlink to /dev/zero"),
        ("shots/000002-after.png", "FIFO"),
        ("receipts.jsonl", "FIFO"),
        ("run.json", "FIFO"),
        (SIGNATURE_FILE, "FIFO"),
    ],
)
async def test_a_file_replaced_by_a_fifo_or_a_device_fails_at_once(
    tmp_path: Path, own_data: Path, name: str, kind: str
) -> None:
    """Found: a screenshot replaced by a symlink to /dev/zero or a FIFO made `receipts verify` hang.
    Only regular files inside the run folder are read; anything else is FAILED with a sentence."""
    run = await signed_run(tmp_path / "runs")
    (run / name).unlink()
    if kind == "FIFO":
        os.mkfifo(run / name)
    else:
        (run / name).symlink_to("/dev/zero")
    env = {**os.environ, "WAYPOST_DATA_DIR": str(own_data), "WAYPOST_CONFIG_DIR": str(tmp_path / "config")}
    # A separate process, so a verifier that hangs is killed rather than hanging the test run.
    command = [sys.executable, "-m", "app", "receipts", "verify", str(run)]
    done = await asyncio.to_thread(
        subprocess.run, command, capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("FAILED: ") and name in done.stdout, done.stdout
