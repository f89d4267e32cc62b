"""Exceptions of the receipts package: one base so callers can catch receipts trouble specifically."""

from __future__ import annotations


class ReceiptsError(Exception):
    """Base of every error the receipts package raises on purpose."""


class RunFolderError(ReceiptsError):
    """A run id or folder is unsafe (path traversal), missing, or not a run folder."""


class ChainError(ReceiptsError):
    """An existing receipts.jsonl does not verify, so nothing may be appended to it."""


class RunLockedError(ReceiptsError):
    """Another recorder (maybe another process) is writing this run folder."""


class RecorderClosedError(ReceiptsError):
    """A record was offered after the recorder finished or closed."""


class RedactionError(ReceiptsError):
    """A declared secret cannot be redacted safely (e.g. too short to tell apart from text)."""


class ReceiptKeyError(ReceiptsError):
    """A key file or a --trust value cannot be read as an Ed25519 key."""
