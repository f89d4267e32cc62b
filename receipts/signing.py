"""The signed head of a run: a DSSE envelope over an in-toto Statement (docs/architecture.md,
"Signed receipts").

When a run ends, its recorder signs one statement naming every file of the run folder (path and
sha256: receipts.jsonl, run.json, screenshots, snapshots, artifacts, downloads, gate previews) and
the chain's head (record count, head hash, status, whether the run finished). It is written as
receipts.dsse.json beside the receipts. The format is the one in-toto tools already read:
payloadType "application/vnd.in-toto+json", the payload base64, and Ed25519 signatures over DSSE's
pre-authentication encoding. The exported report.html (written later, and itself carrying the
envelope) and the envelope are the only files left out.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from common.contracts import utc_now
from receipts.errors import ReceiptsError
from receipts.layout import REPORT_HTML, RunFolder, write_atomic
from receipts.models import Sha256
from receipts.regular import NotRegular, read_regular, sha256_regular

if TYPE_CHECKING:
    from receipts.keys import SigningKey

SIGNATURE_FILE = "receipts.dsse.json"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE: Final = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE: Final = "urn:waypost:receipt-head:v1"
#: Files of the run folder's top level that the signature does not cover (see the module docstring).
UNSIGNED = frozenset({SIGNATURE_FILE, REPORT_HTML})
#: Statuses of a run that stopped before its end: paused for a person, or interrupted.
UNFINISHED_STATUSES = frozenset({"INTERRUPTED", "NEEDS_CONFIRMATION", "NEEDS_CLARIFICATION"})


class KeySource(Protocol):
    """Gives the signing key (receipts.keys.InstallKey creates it on first use); blocking."""

    def load(self) -> SigningKey: ...


class SignatureFileError(ReceiptsError):
    """receipts.dsse.json exists but is not a DSSE envelope of a Waypost receipt head."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)


class DsseSignature(_Strict):
    keyid: str
    sig: str  # base64


class Envelope(_Strict):
    payloadType: str  # DSSE's own field name
    payload: str  # base64 of the statement's JSON
    signatures: list[DsseSignature] = Field(min_length=1)

    def payload_bytes(self) -> bytes:
        return base64.b64decode(self.payload, validate=True)


class Subject(_Strict):
    name: str
    digest: dict[Literal["sha256"], Sha256]


class HeadPredicate(_Strict):
    """What the signer states about the chain: how long it is, where it ends, whether the run ended."""

    run_id: str
    records: int = Field(ge=0)
    head_hash: Sha256
    status: str
    finished: bool
    signed_at: datetime


class Statement(_Strict):
    type: Literal["https://in-toto.io/Statement/v1"] = Field(default=STATEMENT_TYPE, alias="_type")
    subject: list[Subject]
    predicateType: Literal["urn:waypost:receipt-head:v1"] = PREDICATE_TYPE
    predicate: HeadPredicate

    def files(self) -> dict[str, str]:
        return {s.name: s.digest["sha256"] for s in self.subject}


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE's pre-authentication encoding: what is actually signed (type and payload, unambiguous)."""
    kind = payload_type.encode("utf-8")
    return b"DSSEv1 %d %s %d %s" % (len(kind), kind, len(payload), payload)


def _walk(root: Path) -> Iterator[tuple[str, Path]]:
    """(relative POSIX path, path) of every entry below root, symlinks not followed, sorted."""
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs.sort()
        base = Path(folder)
        for name in sorted(files + [d for d in dirs if (base / d).is_symlink()]):
            path = base / name
            rel = path.relative_to(root).as_posix()
            if rel not in UNSIGNED:
                yield rel, path


def manifest(root: Path, known: Mapping[str, str] | None = None) -> tuple[dict[str, str], list[str]]:
    """(path -> sha256 of each regular file, paths that are not regular files) of a run folder.

    A run writes only regular files; anything else (a symlink pointing out of the folder, a device)
    is listed so verification can refuse it rather than follow it. `known` holds digests already
    computed for some paths (by the chain check, a moment before): those files are not read again.
    """
    known = known or {}
    files: dict[str, str] = {}
    odd: list[str] = []
    for rel, path in _walk(root):
        try:
            files[rel] = known.get(rel) or sha256_regular(path, rel)
        except (NotRegular, OSError):  # a symlink, FIFO or device (or gone): never read, never signed
            odd.append(rel)
    return files, odd


def head_statement(
    folder: RunFolder, *, records: int, head_hash: str, status: str, signed_at: datetime | None = None
) -> Statement:
    files, _ = manifest(folder.root)
    predicate = HeadPredicate(
        run_id=folder.run_id,
        records=records,
        head_hash=head_hash,
        status=status,
        finished=status not in UNFINISHED_STATUSES,
        signed_at=signed_at or utc_now(),
    )
    subjects = [Subject(name=name, digest={"sha256": digest}) for name, digest in files.items()]
    return Statement(subject=subjects, predicate=predicate)


def sign_statement(statement: Statement, key: SigningKey) -> Envelope:
    payload = json.dumps(statement.model_dump(mode="json"), sort_keys=True, separators=(",", ":")).encode()
    signature = key.sign(pae(PAYLOAD_TYPE, payload))
    return Envelope(
        payloadType=PAYLOAD_TYPE,
        payload=base64.b64encode(payload).decode("ascii"),
        signatures=[DsseSignature(keyid=key.keyid, sig=base64.b64encode(signature).decode("ascii"))],
    )


def sign_run(folder: RunFolder, key: SigningKey, *, records: int, head_hash: str, status: str) -> Envelope:
    """Blocking (worker thread): signs the run folder as it is now and writes receipts.dsse.json."""
    envelope = sign_statement(
        head_statement(folder, records=records, head_hash=head_hash, status=status), key
    )
    body = json.dumps(envelope.model_dump(mode="json"), indent=2).encode("utf-8") + b"\n"
    write_atomic(folder.root / SIGNATURE_FILE, body)
    return envelope


def read_envelope(folder: RunFolder) -> Envelope | None:
    """The run's envelope, None when the run was never signed; SignatureFileError when unreadable."""
    try:
        data = read_regular(folder.root / SIGNATURE_FILE, SIGNATURE_FILE)
    except FileNotFoundError:
        return None
    except NotRegular as exc:
        raise SignatureFileError(str(exc)) from exc
    try:
        return Envelope.model_validate_json(data)
    except ValidationError as exc:
        raise SignatureFileError(
            f"{SIGNATURE_FILE} is not a DSSE envelope: {exc.errors()[0]['msg']}"
        ) from exc


def open_statement(envelope: Envelope) -> Statement:
    """The statement inside an envelope (call only after its signature verified)."""
    if envelope.payloadType != PAYLOAD_TYPE:
        raise SignatureFileError(f"payloadType {envelope.payloadType!r} is not {PAYLOAD_TYPE!r}")
    try:
        return Statement.model_validate_json(envelope.payload_bytes())
    except (ValidationError, ValueError) as exc:
        raise SignatureFileError(f"the signed payload is not a Waypost receipt head: {exc}") from exc
