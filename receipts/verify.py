"""Verification of a run folder: the hash chain of receipts.jsonl and every file a record vouches for.

Reports the first bad record with a specific reason. A last line cut short by a crash (no newline,
unparseable) is reported as truncation, distinct from tampering: every record before it still
verifies, so `ok` stays true.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from pydantic import ValidationError

from receipts.chain import compute_hash
from receipts.errors import RunFolderError
from receipts.layout import RECEIPTS_JSONL, RunFolder
from receipts.models import GENESIS_HASH, RECORD_ADAPTER, Record, RunEndRecord, file_refs
from receipts.regular import NotRegular, read_regular, sha256_regular


class Problem(StrEnum):
    EDITED = "edited"  # the line's content does not match its own hash
    DELETED = "deleted"  # records are missing before this one
    INSERTED = "inserted"  # a line that does not belong to the chain
    REORDERED = "reordered"  # records are out of order
    REPLACED = "replaced"  # a record was swapped for a re-hashed forgery
    BROKEN_LINK = "broken_link"  # prev_hash/seq disagree in a way none of the above explains
    UNPARSEABLE = "unparseable"  # a line in the middle is not JSON
    INVALID = "invalid"  # JSON with a valid hash but not a valid record (or another run's record)
    MISSING_FILE = "missing_file"  # a screenshot/snapshot the record vouches for is gone
    ALTERED_FILE = "altered_file"  # that file's sha256 differs from the record
    TAIL_MISSING = "tail_missing"  # run.json's receipt names a later head than the file has
    NO_RECEIPTS = "no_receipts"  # receipts.jsonl is absent
    NOT_REGULAR = "not_regular"  # a file to read is a symlink, FIFO, device or too large: never read


@dataclass(frozen=True, slots=True)
class BadRecord:
    line: int  # 1-based line number in receipts.jsonl (0 when the problem is not one line)
    seq: int | None
    problem: Problem
    detail: str


@dataclass(frozen=True, slots=True)
class Truncation:
    line: int
    size: int  # bytes of the partial line
    offset: int  # where it starts: the valid file ends here


@dataclass(slots=True)
class VerifyReport:
    run_dir: Path
    ok: bool = True
    records_checked: int = 0
    files_checked: int = 0
    head_hash: str = GENESIS_HASH
    head_seq: int = 0
    first_bad: BadRecord | None = None
    truncated: Truncation | None = None
    finished: bool = False  # the last verified record is a run_end
    records: list[Record] = field(default_factory=list, repr=False)
    #: sha256 of each file the records vouch for, by its path in the run folder, as hashed here:
    #: the signature check (receipts.attest) reads these instead of hashing every file again.
    digests: dict[str, str] = field(default_factory=dict, repr=False)

    def as_dict(self) -> dict[str, object]:
        """Plain JSON data for `waypost receipts verify --json`."""
        bad, cut = self.first_bad, self.truncated
        return {
            "run_dir": str(self.run_dir),
            "ok": self.ok,
            "records_checked": self.records_checked,
            "files_checked": self.files_checked,
            "head_seq": self.head_seq,
            "head_hash": self.head_hash,
            "finished": self.finished,
            "first_bad": None
            if bad is None
            else {"line": bad.line, "seq": bad.seq, "problem": bad.problem.value, "detail": bad.detail},
            "truncated": None if cut is None else {"line": cut.line, "size": cut.size, "offset": cut.offset},
            "summary": self.summary(),
        }

    def summary(self) -> str:
        if self.first_bad is not None:
            bad = self.first_bad
            where = f"line {bad.line}" + (f" (seq {bad.seq})" if bad.seq is not None else "")
            return f"FAILED at {where}: {bad.problem.value}: {bad.detail}"
        text = f"OK: {self.records_checked} records, {self.files_checked} files verified"
        if self.truncated is not None:
            text += (
                f"; line {self.truncated.line} was cut short ({self.truncated.size} bytes) by a crash"
                " mid-write"
            )
        return text


def _lines(data: bytes) -> Iterator[tuple[int, int, bytes, bool]]:
    """(line number, start offset, content without newline, terminated) for each line."""
    offset = 0
    number = 0
    while offset < len(data):
        number += 1
        end = data.find(b"\n", offset)
        if end < 0:
            yield number, offset, data[offset:], False
            return
        yield number, offset, data[offset:end], True
        offset = end + 1


def sha256_file(path: Path) -> str:
    """The sha256 of a regular file (receipts/regular.py: a symlink, FIFO or device is refused)."""
    return sha256_regular(path)


def verify(run_dir: Path | str, *, check_files: bool = True) -> VerifyReport:
    """Checks the chain and (unless told not to) the sha256 of every referenced file."""
    folder = RunFolder(Path(run_dir))
    report = VerifyReport(run_dir=folder.root)
    try:
        data = read_regular(folder.receipts, RECEIPTS_JSONL)
    except FileNotFoundError:
        report.ok = False
        report.first_bad = BadRecord(0, None, Problem.NO_RECEIPTS, f"{folder.receipts} does not exist")
        return report
    except NotRegular as exc:
        report.ok = False
        report.first_bad = BadRecord(0, None, Problem.NOT_REGULAR, str(exc))
        return report
    parsed: list[tuple[int, int, dict[str, object] | None, bool]] = []
    for number, offset, raw, terminated in _lines(data):
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            obj = None
        parsed.append((number, offset, obj if isinstance(obj, dict) else None, terminated))
    _check_chain(folder, report, parsed, check_files, len(data))
    if report.ok and report.truncated is None:
        _check_tail(folder, report)
    return report


def _check_chain(
    folder: RunFolder,
    report: VerifyReport,
    parsed: list[tuple[int, int, dict[str, object] | None, bool]],
    check_files: bool,
    total: int,
) -> None:
    last_index: dict[object, int] = {}  # seq -> last line index carrying it, to tell reorder from delete
    for i, (_, _, parsed_obj, _) in enumerate(parsed):
        seq_value = parsed_obj.get("seq") if parsed_obj is not None else None
        if isinstance(seq_value, int):
            last_index[seq_value] = i
    hash_line: dict[object, int] = {}
    digests = report.digests
    prev_hash, expected, run_id = GENESIS_HASH, 1, None

    def fail(line: int, seq: object, problem: Problem, detail: str) -> None:
        report.ok = False
        report.first_bad = BadRecord(line, seq if isinstance(seq, int) else None, problem, detail)

    for i, (number, offset, obj, terminated) in enumerate(parsed):
        if obj is None:
            if i == len(parsed) - 1 and not terminated:
                report.truncated = Truncation(number, total - offset, offset)
                return
            fail(number, None, Problem.UNPARSEABLE, "not a JSON object")
            return
        seq, claimed = obj.get("seq"), obj.get("hash")
        if compute_hash(obj) != claimed:
            fail(number, seq, Problem.EDITED, "content does not match the record's hash")
            return
        link = obj.get("prev_hash")
        if seq != expected or link != prev_hash:
            following = parsed[i + 1][2] if i + 1 < len(parsed) else None
            if claimed in hash_line:
                fail(number, seq, Problem.INSERTED, f"duplicate of line {hash_line[claimed]}")
            elif isinstance(seq, int) and seq > expected:
                if last_index.get(expected, -1) > i:
                    fail(number, seq, Problem.REORDERED, f"seq {expected} expected here appears later")
                else:
                    missing = f"seq {expected}" if seq == expected + 1 else f"seq {expected}..{seq - 1}"
                    fail(number, seq, Problem.DELETED, f"{missing} missing before this record")
            elif isinstance(link, str) and hash_line.get(link, number - 1) < number - 1:
                first = hash_line[link] + 1
                first_obj = parsed[first - 1][2] or {}
                detail = f"line {number} links to line {first - 1}: lines {first}..{number - 1} were inserted"
                fail(first, first_obj.get("seq"), Problem.INSERTED, detail)
            elif following is not None and following.get("prev_hash") == prev_hash:
                fail(number, seq, Problem.INSERTED, "the next line links past it to the previous record")
            elif seq == expected and number > 1:
                detail = f"line {number} does not link to it: replaced by a re-hashed record"
                fail(number - 1, expected - 1, Problem.REPLACED, detail)
            else:
                fail(number, seq, Problem.BROKEN_LINK, f"expected seq {expected} linking to {prev_hash[:12]}")
            return
        try:
            record = RECORD_ADAPTER.validate_python(obj)
        except ValidationError as exc:
            fail(number, seq, Problem.INVALID, f"not a valid record: {exc.errors()[0]['msg']}")
            return
        run_id = run_id or record.run_id
        if record.run_id != run_id:
            fail(number, seq, Problem.INVALID, f"run_id {record.run_id!r} differs from {run_id!r}")
            return
        if check_files and not _check_files(folder, report, number, record, digests):
            return
        hash_line[claimed] = number
        prev_hash, expected = record.hash, record.seq + 1
        report.records.append(record)
        report.records_checked += 1
        report.head_hash, report.head_seq = record.hash, record.seq
        report.finished = isinstance(record, RunEndRecord)


def _check_files(
    folder: RunFolder, report: VerifyReport, line: int, record: Record, digests: dict[str, str]
) -> bool:
    for ref in file_refs(record):
        try:
            folder.resolve(ref.path)  # never outside the run folder
            actual = digests.get(ref.path) or sha256_regular(folder.root / ref.path, ref.path)
            digests[ref.path] = actual  # a reused before-shot is hashed once
        except NotRegular as exc:
            report.ok = False
            report.first_bad = BadRecord(line, record.seq, Problem.NOT_REGULAR, str(exc))
            return False
        except (FileNotFoundError, RunFolderError):
            report.ok = False
            report.first_bad = BadRecord(line, record.seq, Problem.MISSING_FILE, f"{ref.path} is missing")
            return False
        if actual != ref.sha256:
            report.ok = False
            report.first_bad = BadRecord(
                line,
                record.seq,
                Problem.ALTERED_FILE,
                f"{ref.path} sha256 {actual[:12]} != {ref.sha256[:12]}",
            )
            return False
        report.files_checked += 1
    return True


def _check_tail(folder: RunFolder, report: VerifyReport) -> None:
    """run.json's receipt (written at finish) names the head: catches records cut from the end."""
    receipt = folder.read_run_json().get("receipt")
    if not isinstance(receipt, dict):
        return
    head, count = receipt.get("head_hash"), receipt.get("records")
    if isinstance(count, int) and count > report.records_checked:
        report.ok = False
        report.first_bad = BadRecord(
            report.records_checked + 1,
            report.head_seq + 1,
            Problem.TAIL_MISSING,
            f"run.json records {count} records, the file has {report.records_checked}",
        )
    elif isinstance(count, int) and count == report.records_checked and head != report.head_hash:
        report.ok = False
        report.first_bad = BadRecord(
            report.records_checked, report.head_seq, Problem.REPLACED, "head hash differs from run.json"
        )
