"""The hash chain of receipts.jsonl.

hash = sha256 over the canonical JSON (sorted keys, no whitespace, UTF-8) of the record without its
`hash` field; each record's prev_hash is the previous record's hash, the first one's is 64 zeros.
Hashing the parsed JSON dict (not the model) keeps verification independent of model defaults.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from receipts.models import GENESIS_HASH, RECORD_ADAPTER, Record


def canonical_json(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def compute_hash(data: dict[str, Any]) -> str:
    """The hash a record dict should carry: everything but `hash` itself."""
    body = {k: v for k, v in data.items() if k != "hash"}
    return hashlib.sha256(canonical_json(body)).hexdigest()


def seal(data: dict[str, Any]) -> Record:
    """Validates a record dict (seq and prev_hash set, `hash` ignored) and fills in its hash.

    The hash is taken over the model's JSON form, which is exactly what `encode_line` writes.
    """
    record = RECORD_ADAPTER.validate_python({**data, "hash": GENESIS_HASH})
    return record.model_copy(update={"hash": compute_hash(record.model_dump(mode="json"))})


def encode_line(record: Record) -> bytes:
    """One line of receipts.jsonl, newline included."""
    return canonical_json(record.model_dump(mode="json")) + b"\n"
