"""`waypost receipts list|show|verify|export|trace RUN` and `receipts key`: QA's view of what a run
did, and proof of who recorded it and that it is untouched (docs/architecture.md, "Signed receipts")."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from app.settings import Settings
from common.secrecy import scrub
from receipts.attest import TrustedKey, check_run, trust
from receipts.errors import RunFolderError
from receipts.keys import install_key, trusted_key
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.report import describe_target, export_report, read_records
from receipts.runs import list_runs, resolve_run

Emit = Callable[[argparse.Namespace, Any, str], None]


def receipts_command(args: argparse.Namespace, settings: Settings, emit: Emit) -> int:
    runs_dir = Path(settings.runs_dir).expanduser()
    if args.action == "list":
        runs = list_runs(runs_dir)
        rows = [
            {"run_id": r.run_id, "status": r.status, "records": r.records, "modified": r.modified.isoformat()}
            for r in runs
        ]
        human = "\n".join(
            f"{r['run_id']:<24} {r['status'] or '-':<20} {r['records'] or 0:>5}  {r['modified']}"
            for r in rows
        )
        emit(args, rows, human or f"no runs in {runs_dir}")
        return 0
    if args.action == "key":
        return _key(args, emit)
    if not args.run:
        raise RunFolderError(f"receipts {args.action} needs RUN (a run id or a run folder)")
    folder = resolve_run(args.run, runs_dir)
    trusted = trust([trusted_key(value) for value in getattr(args, "trust", None) or []])
    if args.action == "verify":
        check = check_run(folder.root, trusted)
        emit(args, check.as_dict(), check.summary())
        return 0 if check.ok else 1
    if args.action == "trace":
        return open_trace(folder, trusted)
    if args.action == "export":
        _check_out(args.out, force=bool(getattr(args, "force", False)))
        out = export_report(folder.root, args.out, trusted=trusted)
        emit(args, {"report": str(out)}, str(out))
        return 0
    records = [record for _, record in read_records(folder)]
    actions = [r for r in records if isinstance(r, ActionRecord)]
    lines = [f"run {folder.run_id}: {len(records)} records, {len(actions)} actions ({folder.root})"]
    for r in actions:
        value = f" = {r.value}" if r.value is not None else ""
        target = describe_target(r.target_resolved or r.target_requested)
        after = r.after.url if r.after else ""
        kind = r.action.get("kind", "?")
        lines.append(f"{r.seq:>4} {kind:<9} {target:<40}{value}  -> {r.outcome.status}  {after}")
    emit(args, [json.loads(r.model_dump_json()) for r in records], "\n".join(lines))
    return 0


def viewer_command(trace: Path) -> list[str]:
    """Playwright's trace viewer serving `trace` on 127.0.0.1 (any free port; it prints the address
    and opens it in the desktop's browser when there is one). Served, not launched in its own window,
    because that window needs a Chromium downloaded by Playwright, and Waypost often drives a system
    one (docs/architecture.md, "Traces")."""
    return [
        sys.executable,
        "-m",
        "playwright",
        "show-trace",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        str(trace),
    ]


def open_trace(folder: RunFolder, trusted: Sequence[TrustedKey]) -> int:
    """Says whether the run's receipts verify (they cover trace.zip), then serves its trace in
    Playwright's trace viewer until Ctrl-C."""
    if not folder.trace.is_file():
        raise RunFolderError(f"run {folder.run_id} has no trace (record one with waypost run --trace)")
    check = check_run(folder.root, trusted)
    doubt = "" if check.ok else "\nthe trace may not be what the run recorded"
    print(scrub(f"{check.summary()}{doubt}\nCtrl-C stops the viewer."), file=sys.stderr)
    try:
        return subprocess.call(viewer_command(folder.trace))
    except KeyboardInterrupt:
        return 0


def _key(args: argparse.Namespace, emit: Emit) -> int:
    """Prints this install's public key (creating the key on first use) in the form --trust reads."""
    key = install_key()
    public = key.load().public
    data = {
        "public_key": public.base64,
        "keyid": public.keyid,
        "algorithm": "ed25519",
        "key_file": str(key.path),
    }
    human = f"{public.base64}\n# Ed25519 receipt key {public.keyid} (private key: {key.path})"
    emit(args, data, human)
    return 0


def _check_out(out: Path | None, *, force: bool) -> None:
    """`--out` names a file: a folder is a clear error, an existing file is kept unless --force."""
    if out is None:
        return
    if out.is_dir():
        raise RunFolderError(f"--out {out} is a folder: give a file path, such as {out / 'report.html'}")
    if out.exists() and not force:
        raise RunFolderError(f"--out {out} exists: pass --force to overwrite it")
