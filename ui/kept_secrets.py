"""Where a paused run's secrets may wait for a resume in a later session, if the person chooses so.

Values never go to disk in clear: the only place they are kept is the OS keyring
(app/secret_keyring.py), and only when the person ticks the box in the resume dialog. Without a
keyring the dialog says so and asks each time. The window holds a KeptSecrets; it never touches the
keyring itself. (Not to be confused with common.secrecy.SecretVault, which holds a running run's
secrets in memory.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class KeptSecretsError(RuntimeError):
    """The keyring refused to store or read (locked, denied); the message says which."""


class KeptSecrets(Protocol):
    @property
    def available(self) -> bool:
        """A real OS keyring backend exists."""

    @property
    def unavailable_reason(self) -> str: ...

    def load(self, run_id: str, names: Sequence[str]) -> dict[str, str]:
        """The values kept for this run, by name (only those found)."""

    def keep(self, run_id: str, values: Mapping[str, str]) -> None:
        """Keeps the values for this run until forget(); KeptSecretsError when the keyring refuses."""

    def forget(self, run_id: str, names: Sequence[str]) -> None:
        """Removes this run's values (the run ended: nothing is left to resume)."""
