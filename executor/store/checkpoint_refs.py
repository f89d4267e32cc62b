"""Checkpoint references (`chk://<run_id>/<n>`) and the errors of the checkpoint store."""

from __future__ import annotations

import re

RUN_ID = r"[^/\s]+"


_REF = re.compile(rf"chk://(?P<run>{RUN_ID})/(?P<n>0|[1-9][0-9]{{0,8}})")


class CheckpointStoreError(Exception):
    """The store cannot serve: file unreadable or corrupt, a newer schema, or a bad reference."""


class UnknownCheckpoint(CheckpointStoreError):
    """No run or checkpoint with that id: resume cannot start from it."""


def parse_ref(ref: str) -> tuple[str, int]:
    """`chk://<run_id>/<n>` -> (run_id, n). n = 0 names the run's live state (what save_step wrote)."""
    match = _REF.fullmatch(ref) if isinstance(ref, str) else None
    if match is None:
        raise CheckpointStoreError(f"malformed checkpoint ref {ref!r}: expected 'chk://<run_id>/<n>'")
    return match["run"], int(match["n"])
