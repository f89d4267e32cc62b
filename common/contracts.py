"""Base model, ids and clock shared by every package; imports nothing of ours (docs/architecture.md)."""

from __future__ import annotations

import os
import random
import uuid
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict

_ids = random.Random(uuid.uuid4().int)
os.register_at_fork(after_in_child=lambda: _ids.seed(uuid.uuid4().int))  # no shared sequence after fork


def new_id(prefix: str) -> str:
    """Short random ids: readable in logs, unique enough for one machine's runs.

    Not secrets, so a seeded PRNG serves: uuid4 reads the OS entropy pool on every call, which
    was a tenth of the executor's per-step cost.
    """
    return f"{prefix}_{_ids.getrandbits(48):012x}"


def utc_now() -> datetime:
    return datetime.now(UTC)


class Contract(BaseModel):
    """Base of every boundary model: unknown fields are errors, not silently dropped."""

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, serialize_by_alias=True, use_enum_values=False
    )
