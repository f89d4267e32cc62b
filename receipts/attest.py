"""The verdict on a run folder: is it complete, signed by a trusted key and untouched?

`receipts.verify` checks the hash chain and the files its records vouch for; that alone cannot tell
a consistent forgery (every hash recomputed) or a cut tail from the real thing. This module adds
the signed head (receipts.signing): the signature must verify with a trusted key, the chain must be
exactly as long as the head states and end at its hash, and every file of the folder must be the
one signed. "OK" means all of that and a run that finished; anything else is named in one sentence.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TypeVar

from receipts.keys import InstallKey, PublicKey, install_key
from receipts.layout import RunFolder
from receipts.signing import (
    PAYLOAD_TYPE,
    SIGNATURE_FILE,
    Envelope,
    KeySource,
    SignatureFileError,
    Statement,
    manifest,
    open_statement,
    pae,
    read_envelope,
    sign_run,
)
from receipts.verify import Problem, VerifyReport, verify

_T = TypeVar("_T")
OWN_LABEL = "this install's key"
TRUST_LABEL = "trusted with --trust"


class Verdict(StrEnum):
    OK = "OK"  # complete, signed by a trusted key, untouched, and the run finished
    FAILED = "FAILED"  # tampered, or signed by a key that is not trusted
    TRUNCATED = "TRUNCATED"  # records are missing from the end of a signed chain
    UNFINISHED = "UNFINISHED"  # the run stopped before its end (killed, interrupted, paused)
    UNSIGNED = "UNSIGNED"  # a chain that ended but carries no signature


@dataclass(frozen=True, slots=True)
class TrustedKey:
    key: PublicKey
    label: str  # "this install's key" or "trusted with --trust"


@dataclass(slots=True)
class RunCheck:
    chain: VerifyReport
    verdict: Verdict = Verdict.OK
    reason: str = ""  # the one sentence that says why the verdict is not OK
    keyid: str | None = None  # the key that signed the run, when there is a signature
    key_label: str | None = None  # how that key is trusted here, when it is
    statement: Statement | None = None
    envelope: Envelope | None = field(default=None, repr=False)

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.OK

    def summary(self) -> str:
        chain = self.chain
        if self.ok and self.statement is not None:
            pred = self.statement.predicate
            return (
                f"OK: complete, signed and untouched: {chain.records_checked} records, "
                f"{len(self.statement.subject)} files; run {pred.status}; signed by key {self.keyid} "
                f"({self.key_label})"
            )
        signer = f" [signed by key {self.keyid}]" if self.keyid and self.verdict is not Verdict.FAILED else ""
        return f"{self.verdict.value}: {self.reason}{signer}"

    def as_dict(self) -> dict[str, object]:
        data = self.chain.as_dict()
        data.update(
            verdict=self.verdict.value,
            ok=self.ok,
            reason=self.reason,
            keyid=self.keyid,
            key_trust=self.key_label,
            signed_head=None if self.statement is None else self.statement.predicate.model_dump(mode="json"),
            summary=self.summary(),
        )
        return data


def trust(extra: Sequence[PublicKey] = (), own: InstallKey | None = None) -> list[TrustedKey]:
    """This install's own key (when it has one; verifying never creates it) and the `--trust` keys."""
    mine = (own or install_key()).public()
    keys = [TrustedKey(mine, OWN_LABEL)] if mine is not None else []
    return keys + [TrustedKey(k, TRUST_LABEL) for k in extra]


def check_run(run_dir: Path | str, trusted: Sequence[TrustedKey] | None = None) -> RunCheck:
    """The full verdict on one run folder, trusting only the keys given (default: this install's)."""
    trusted = trust() if trusted is None else trusted
    folder = RunFolder(Path(run_dir))
    result = RunCheck(chain=verify(folder.root))
    chain = result.chain
    if chain.first_bad is not None and chain.first_bad.problem is not Problem.TAIL_MISSING:
        return _fail(result, Verdict.FAILED, chain.summary().removeprefix("FAILED "))
    try:
        envelope = read_envelope(folder)
    except SignatureFileError as exc:
        return _fail(result, Verdict.FAILED, f"{exc}.")
    if envelope is None:
        return _unsigned(result)
    result.envelope = envelope
    statement = _open(result, envelope, trusted)
    if statement is None:
        return result
    result.statement = statement
    if not _matches_head(result, folder, statement) or not _matches_files(result, folder, statement):
        return result
    pred = statement.predicate
    if not pred.finished:
        return _fail(
            result,
            Verdict.UNFINISHED,
            f"the receipts are signed and untouched, but the run did not finish: it ended as {pred.status}",
        )
    return result


def amend_signed(run_dir: Path | str, signer: KeySource, change: Callable[[], _T]) -> _T:
    """Blocking: applies `change` (files added to a run after its end, such as the spoken task's
    transcript in run.json) and signs the run again, but only if it verified with this install's key
    just before: a signature never comes to vouch for files that did not check out."""
    key = signer.load()
    before = check_run(run_dir, [TrustedKey(key.public, OWN_LABEL)])
    result = change()
    vouched = before.statement is not None and before.verdict in (Verdict.OK, Verdict.UNFINISHED)
    if before.statement is not None and vouched:
        pred = before.statement.predicate
        sign_run(
            RunFolder(Path(run_dir)), key, records=pred.records, head_hash=pred.head_hash, status=pred.status
        )
    return result


def _fail(result: RunCheck, verdict: Verdict, reason: str) -> RunCheck:
    result.verdict, result.reason = verdict, reason
    return result


def _unsigned(result: RunCheck) -> RunCheck:
    chain = result.chain
    if chain.first_bad is not None:  # run.json names records the file lacks, and nothing is signed
        return _fail(result, Verdict.TRUNCATED, f"{chain.first_bad.detail}; the run carries no signature")
    if chain.finished and chain.truncated is None:
        return _fail(
            result,
            Verdict.UNSIGNED,
            f"the chain ends with a run_end record but {SIGNATURE_FILE} is missing: nothing shows who "
            "made these receipts or that none were cut",
        )
    cut = ""
    if chain.truncated is not None:
        cut = f"; its last line ({chain.truncated.size} bytes) was cut short mid-write"
    return _fail(
        result,
        Verdict.UNFINISHED,
        f"the run did not finish (no signature{'' if chain.finished else ', no run_end record'}){cut}: "
        f"{chain.records_checked} records verify, but nothing shows that none were cut from the end",
    )


def _open(result: RunCheck, envelope: Envelope, trusted: Sequence[TrustedKey]) -> Statement | None:
    """Verifies the envelope with a trusted key and returns its statement (None: result says why)."""
    by_id = {t.key.keyid: t for t in trusted}
    known = [s for s in envelope.signatures if s.keyid in by_id]
    result.keyid = (known or envelope.signatures)[0].keyid
    if not known:
        mine = next((t.key.keyid for t in trusted if t.label == OWN_LABEL), None)
        here = f"this install's key is {mine}" if mine else "this install has no receipt key yet"
        _fail(
            result,
            Verdict.FAILED,
            f"signed by key {result.keyid}, which is not trusted here ({here}); to check another "
            "install's receipts, pass --trust with that install's public key",
        )
        return None
    try:
        signed = pae(PAYLOAD_TYPE, envelope.payload_bytes())
    except ValueError:
        signed = b""
    # The key named is the one whose signature verified: a stale signature carrying this install's
    # keyid beside a valid one by another key must not read "signed by ... (this install's key)".
    verified = next((s for s in known if signed and _verifies(by_id[s.keyid].key, s.sig, signed)), None)
    if verified is None or envelope.payloadType != PAYLOAD_TYPE:
        _fail(
            result,
            Verdict.FAILED,
            f"the signature in {SIGNATURE_FILE} does not verify with key {result.keyid}: "
            "the signed head was altered, or another key signed it",
        )
        return None
    result.keyid, result.key_label = verified.keyid, by_id[verified.keyid].label
    try:
        return open_statement(envelope)
    except SignatureFileError as exc:
        _fail(result, Verdict.FAILED, f"{exc}.")
        return None


def _verifies(key: PublicKey, sig: str, signed: bytes) -> bool:
    try:
        return key.verifies(base64.b64decode(sig, validate=True), signed)
    except (binascii.Error, ValueError):
        return False


def _matches_head(result: RunCheck, folder: RunFolder, statement: Statement) -> bool:
    chain, pred = result.chain, statement.predicate
    if pred.run_id != folder.run_id:
        _fail(result, Verdict.FAILED, f"the signature is for run {pred.run_id!r}, not {folder.run_id!r}")
        return False
    have = chain.records_checked
    if have < pred.records:
        cut = (
            f"; line {chain.truncated.line} was cut short mid-write"
            if chain.truncated is not None
            else " (cut at a line boundary)"
        )
        reason = f"the signed head states {pred.records} records but receipts.jsonl has {have}{cut}"
        _fail(result, Verdict.TRUNCATED, reason)
        return False
    if have > pred.records:
        extra = f"records {pred.records + 1}..{have}" if have > pred.records + 1 else f"record {have}"
        if chain.finished:
            _fail(result, Verdict.FAILED, f"{extra} were added after the run was signed")
        else:
            reason = f"the run went on after it was signed and did not finish: {extra} are not signed"
            _fail(result, Verdict.UNFINISHED, reason)
        return False
    if chain.head_hash != pred.head_hash:
        _fail(
            result,
            Verdict.FAILED,
            f"the chain ends at {chain.head_hash[:12]} but the signed head is {pred.head_hash[:12]}: "
            "the records were rewritten after signing",
        )
        return False
    return True


def _matches_files(result: RunCheck, folder: RunFolder, statement: Statement) -> bool:
    signed = statement.files()
    files, odd = manifest(folder.root, known=result.chain.digests)  # each file is hashed once
    problems = [f"{p} is not a regular file" for p in odd]
    problems += [f"{p} is missing" for p in signed if p not in files]
    problems += [
        f"{p} changed after signing (sha256 {files[p][:12]}, signed {signed[p][:12]})"
        for p in signed
        if p in files and files[p] != signed[p]
    ]
    problems += [f"{p} was added after the run was signed" for p in files if p not in signed]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        _fail(result, Verdict.FAILED, f"{problems[0]}{more}")
        return False
    return True
