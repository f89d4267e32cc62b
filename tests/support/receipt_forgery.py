"""Forgeries an attacker with write access to a run folder (not to the signing key) can make:
consistent with the hash chain, so the chain check alone passes them."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from receipts.chain import canonical_json, compute_hash


def write_chain(run: Path, records: list[dict[str, object]]) -> None:
    """Writes records back with every prev_hash and hash recomputed: a consistent chain."""
    prev = "0" * 64
    out = b""
    for obj in records:
        obj["prev_hash"] = prev
        obj["hash"] = prev = compute_hash(obj)
        out += canonical_json(obj) + b"\n"
    (run / "receipts.jsonl").write_bytes(out)


def rewrite_run_json(run: Path, records: int | None, head: str | None) -> None:
    """Makes run.json agree with a forged chain (or drops its receipt when records is None)."""
    meta = json.loads((run / "run.json").read_text())
    if records is None:
        meta.pop("receipt", None)
    else:
        meta["receipt"].update(records=records, head_hash=head)
    (run / "run.json").write_text(json.dumps(meta))


def swap_file_and_revouch(run: Path, name: str, fake: bytes) -> int:
    """Replaces one file and rewrites every record that vouches for it; returns the record count."""
    target = run / name
    real = target.read_bytes()
    target.write_bytes(fake)
    text = (run / "receipts.jsonl").read_text()  # every record that names it (a reused before-shot too)
    text = text.replace(hashlib.sha256(real).hexdigest(), hashlib.sha256(fake).hexdigest())
    records = [json.loads(line) for line in text.splitlines()]
    write_chain(run, records)
    rewrite_run_json(run, len(records), str(records[-1]["hash"]))
    return len(records)
