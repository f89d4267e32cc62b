"""The OS keyring as a place for a paused run's secrets (ui/kept_secrets.py), kept per run.

Each value is stored under the service `waypost-run-secrets` and the user `<run id>/<secret name>`,
so a value is only ever offered back to the run it was typed for, and is removed when that run ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.settings import keyring_available
from ui.kept_secrets import KeptSecretsError

SERVICE = "waypost-run-secrets"
NO_KEYRING = (
    "No OS keyring is available on this system (install and unlock one, e.g. GNOME Keyring or "
    "KWallet), so secrets are asked for at each resume."
)


def _user(run_id: str, name: str) -> str:
    return f"{run_id}/{name}"


class KeyringSecrets:
    """KeptSecrets over the `keyring` package; every call names the run."""

    @property
    def available(self) -> bool:
        return keyring_available()

    @property
    def unavailable_reason(self) -> str:
        return NO_KEYRING

    def load(self, run_id: str, names: Sequence[str]) -> dict[str, str]:
        if not self.available:
            return {}
        import keyring
        from keyring.errors import KeyringError

        found: dict[str, str] = {}
        for name in names:
            try:
                value = keyring.get_password(SERVICE, _user(run_id, name))
            except KeyringError as exc:
                raise KeptSecretsError(f"the OS keyring could not be read: {exc}") from exc
            if value:
                found[name] = value
        return found

    def keep(self, run_id: str, values: Mapping[str, str]) -> None:
        if not self.available:
            raise KeptSecretsError(NO_KEYRING)
        import keyring
        from keyring.errors import KeyringError

        try:
            for name, value in values.items():
                keyring.set_password(SERVICE, _user(run_id, name), value)
        except KeyringError as exc:
            raise KeptSecretsError(f"the OS keyring did not keep the secrets: {exc}") from exc

    def forget(self, run_id: str, names: Sequence[str]) -> None:
        if not self.available:
            return
        import keyring
        from keyring.errors import KeyringError, PasswordDeleteError

        for name in names:
            try:
                keyring.delete_password(SERVICE, _user(run_id, name))
            except PasswordDeleteError:
                continue  # never kept, or already gone
            except KeyringError as exc:
                raise KeptSecretsError(f"the OS keyring did not remove the secrets: {exc}") from exc
