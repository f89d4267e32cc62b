"""The install's Ed25519 receipt key, and the public keys a verifier trusts (docs/architecture.md,
"Signed receipts").

One private key per install, created on first use in the Waypost data folder (never inside a run
folder, which travels), owner-only (0600 in a 0700 folder). A key is named by its keyid: the sha256
of the raw 32-byte public key, in hex, which is also the DSSE envelope's `keyid`. Public keys travel
as one base64 line (what `waypost receipts key` prints) or as a PEM file.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from common.bounded_read import KEY_BYTES, FileTooLarge, read_bytes, read_text
from common.paths import data_dir
from receipts.errors import ReceiptKeyError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

# `cryptography` is imported where a key is used, not here: a command that never signs or verifies
# (plan, doctor, the window's start) does not pay for loading it.

KEY_FILE_NAME = "receipts-ed25519.pem"


def keyid_of(raw_public: bytes) -> str:
    return hashlib.sha256(raw_public).hexdigest()


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A key that may have signed a run: verifies signatures, knows its own keyid."""

    raw: bytes  # the 32 bytes of the Ed25519 public key

    @property
    def keyid(self) -> str:
        return keyid_of(self.raw)

    @property
    def base64(self) -> str:
        return base64.b64encode(self.raw).decode("ascii")

    def verifies(self, signature: bytes, message: bytes) -> bool:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True, slots=True)
class SigningKey:
    """The install's private key; only the recorder (at a run's end) uses it."""

    private: Ed25519PrivateKey
    path: Path

    @property
    def public(self) -> PublicKey:
        from cryptography.hazmat.primitives import serialization

        raw = self.private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return PublicKey(raw)

    @property
    def keyid(self) -> str:
        return self.public.keyid

    def sign(self, message: bytes) -> bytes:
        return self.private.sign(message)

    def load(self) -> SigningKey:
        return self


@dataclass(frozen=True, slots=True)
class InstallKey:
    """Where the install's key lives; `load()` (in a worker thread) creates it on first use."""

    path: Path

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> InstallKey:
        return cls(data_dir / "keys" / KEY_FILE_NAME)

    def load(self) -> SigningKey:
        return load_or_create(self.path)

    def public(self) -> PublicKey | None:
        """The public half if the key exists (verifying never creates a key)."""
        return load_private(self.path).public if self.path.is_file() else None


def install_key() -> InstallKey:
    """This install's receipt key: in the data folder, never in a run folder (which travels)."""
    return InstallKey.in_data_dir(data_dir())


def load_or_create(path: Path) -> SigningKey:
    """The key at `path`, created (0600, folder 0700) when absent. Two processes creating it at
    once agree on one: the new key is linked into place only if no other got there first."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path.parent, 0o700)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        # a name of its own (mkstemp: 0600, O_EXCL), so threads of one process do not collide either
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        tmp = Path(name)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(pem)
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(FileExistsError):  # another process created it first: use theirs
                os.link(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    return load_private(path)


def load_private(path: Path) -> SigningKey:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = read_bytes(path, KEY_BYTES, what="receipt key")
    except FileTooLarge as exc:
        raise ReceiptKeyError(str(exc)) from exc
    except OSError as exc:
        raise ReceiptKeyError(f"cannot read the receipt key {path}: {exc.strerror or exc}") from exc
    if os.name == "posix" and path.stat().st_mode & 0o077:
        os.chmod(path, 0o600)  # owner-only, whatever an older copy or a restore left
    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise ReceiptKeyError(f"{path} is not a readable private key: {exc}") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise ReceiptKeyError(f"{path} holds a {type(key).__name__}, not an Ed25519 key")
    return SigningKey(key, path)


def parse_public(text: str) -> PublicKey:
    """A public key from `waypost receipts key` output (base64, '#' lines ignored) or PEM text."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if "-----BEGIN" in text:
        try:
            key = serialization.load_pem_public_key(text.encode("ascii"))
        except (ValueError, UnicodeEncodeError) as exc:
            raise ReceiptKeyError(f"not a readable PEM public key: {exc}") from exc
        if not isinstance(key, Ed25519PublicKey):
            raise ReceiptKeyError(f"the PEM key is a {type(key).__name__}, not an Ed25519 key")
        return PublicKey(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise ReceiptKeyError(
            "no public key found (expected one base64 line, as `waypost receipts key` prints)"
        )
    try:
        raw = base64.b64decode(lines[0], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ReceiptKeyError(f"{lines[0][:60]!r} is not base64") from exc
    if len(raw) != 32:
        raise ReceiptKeyError(f"an Ed25519 public key is 32 bytes; this one is {len(raw)}")
    return PublicKey(raw)


def trusted_key(value: str) -> PublicKey:
    """`--trust VALUE`: a file holding a public key, or the base64 key itself."""
    path = Path(value).expanduser()
    if path.is_file():
        try:
            return parse_public(read_text(path, KEY_BYTES, what="public key"))
        except (OSError, UnicodeDecodeError, FileTooLarge, ReceiptKeyError) as exc:
            raise ReceiptKeyError(f"--trust {value}: {exc}") from exc
    try:
        return parse_public(value)
    except ReceiptKeyError as exc:
        raise ReceiptKeyError(
            f"--trust {value!r} is neither a key file nor a base64 public key: {exc}"
        ) from exc
