"""Redaction: declared secrets, sensitive fields and credential-bearing URL parts become [REDACTED].

Every text a run writes passes through one `Redactor`: record fields, snapshots, notes, log lines and
the text members of a Playwright trace. A secret is caught as typed and in the encodings it commonly
takes on its way into a URL, HTML, JSON or a header (common/secrecy.py: percent- and form-encoded,
HTML- or JSON-escaped, base64).
Values of sensitive fields are dropped whole and then also treated as secrets, so an echo of a typed
password later in a URL or page text is caught too. Screenshot masking is the browser layer's job.
"""

from __future__ import annotations

import contextlib
import logging
import re
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from common.secrecy import REDACTED, SecretRedactor, is_placeholder
from receipts.errors import RedactionError
from receipts.layout import write_atomic

#: Field names and labels whose values are never written (plus whatever the caller declares).
_SENSITIVE_NAME = re.compile(
    r"pass(?:word|wd|code|phrase)?\b|passwor|\bpwd\b|\bpin\b|secret|token|api[ _-]?key|\bcvc\b|\bcvv\b|"
    r"one[ -]time|\botp\b|authoriz|\bcookie\b|credit[ _-]?card|card[ _-]?number",
    re.IGNORECASE,
)
#: Keys of digests, times and file names we generate: redacting inside them would break the chain.
_DIGEST_KEY = re.compile(r"(?:^|_)(?:hash|sha256)$|^(?:path|time|seq)$|_at$")
_URL_PARAM = re.compile(
    r"([?&;#](?:[A-Za-z0-9.\-\[\]]*[_-])?(?:password|passwd|pwd|token|secret|api[_-]?key|apikey|auth|"
    r"signature|sig|session|code)=)([^&#\s\"'<>]+)",
    re.IGNORECASE,
)
_URL_USERINFO = re.compile(r"(://[^/\s:@]+:)([^@\s/]+)(@)")


class Redactor:
    """Replaces declared secrets and sensitive values with [REDACTED]; cheap to call on every text."""

    def __init__(
        self,
        secrets: Iterable[str] = (),
        *,
        sensitive_fields: Iterable[str] = (),
        min_secret_length: int = 3,
        matcher: SecretRedactor | None = None,
    ) -> None:
        """`matcher` is the secrets owner's redactor (a run passes its vault's): one set of values
        and forms for receipts, stores, logs and model requests alike."""
        self._min = min_secret_length
        self._secrets: set[str] = set()
        self._sensitive_fields = {self._norm(n) for n in sensitive_fields if n.strip()}
        self._matcher = matcher if matcher is not None else SecretRedactor()
        for secret in secrets:
            self.add_secret(secret)

    def __repr__(self) -> str:  # never print the values
        return f"Redactor(secrets={len(self._secrets)}, sensitive_fields={sorted(self._sensitive_fields)})"

    @staticmethod
    def _norm(name: str) -> str:
        return " ".join(name.lower().split())

    def add_secret(self, secret: str) -> None:
        """Declares one more value to redact; empty values are ignored, too-short ones refused."""
        if not secret:
            return
        if len(secret) < self._min:
            raise RedactionError(
                f"a secret of {len(secret)} characters cannot be redacted without mangling ordinary text"
                f" (minimum {self._min})"
            )
        if secret in self._secrets:
            return
        self._secrets.add(secret)
        self._matcher.add(secret)

    def add_sensitive_field(self, name: str) -> None:
        if name.strip():
            self._sensitive_fields.add(self._norm(name))

    def is_sensitive(self, *names: str | None, field_type: str | None = None) -> bool:
        """True for password inputs, declared sensitive fields and password-like names or labels."""
        if field_type is not None and field_type.lower() == "password":
            return True
        for name in names:
            if not name:
                continue
            norm = self._norm(name)
            if norm in self._sensitive_fields or _SENSITIVE_NAME.search(norm):
                return True
            if any(f in norm for f in self._sensitive_fields if len(f) >= 3):
                return True
        return False

    def _sensitive_key(self, key: str) -> bool:
        norm = self._norm(key.replace("_", " "))
        return norm in self._sensitive_fields or _SENSITIVE_NAME.search(norm) is not None

    def is_sensitive_target(self, target: Mapping[str, Any] | None, field_type: str | None = None) -> bool:
        """Whether a target dict ({"label": ...}, {"selector": ...}, ...) names a sensitive field."""
        names = [str(v) for k, v in (target or {}).items() if k != "index" and isinstance(v, str)]
        return self.is_sensitive(*names, field_type=field_type)

    def text(self, value: str) -> str:
        """Secrets, credentials in URLs (user:pass@, ?token=...) become [REDACTED]."""
        value = self._matcher.text(value)
        if "=" in value:
            value = _URL_PARAM.sub(lambda m: m.group(1) + REDACTED, value)
        if "@" in value:
            value = _URL_USERINFO.sub(lambda m: m.group(1) + REDACTED + m.group(3), value)
        return value

    def optional(self, value: str | None) -> str | None:
        return None if value is None else self.text(value)

    def json(self, data: Any) -> Any:
        """Redacts every string of a JSON-like structure, keys included; values under sensitive
        keys (password, token, ...) go whole; digests and generated paths are left intact."""
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, Mapping):
            out: dict[str, Any] = {}
            for key, val in data.items():
                skey = str(key)
                if _DIGEST_KEY.search(skey):
                    out[skey] = val
                elif isinstance(val, str) and val and self._sensitive_key(skey):
                    out[self.text(skey)] = REDACTED
                else:
                    out[self.text(skey)] = self.json(val)
            return out
        if isinstance(data, list | tuple):
            return [self.json(v) for v in data]
        return data

    def hide_value(self, value: str | list[str] | None) -> str | list[str] | None:
        """A typed sensitive value, hidden; it is also declared as a secret so a later echo (in a URL
        or the page) is caught. A placeholder is not a value and stays as it is."""
        if value is None:
            return None
        for item in [value] if isinstance(value, str) else value:
            if not is_placeholder(item):
                # Too short to search for elsewhere: the field itself is still hidden.
                with contextlib.suppress(RedactionError):
                    self.add_secret(item)
        if isinstance(value, str):
            return value if is_placeholder(value) else REDACTED
        return [v if is_placeholder(v) else REDACTED for v in value]

    def contains_secret(self, value: str) -> bool:
        return self._matcher.contains(value)


class RedactingFilter(logging.Filter):
    """A logging filter that renders each message and passes it through the redactor."""

    def __init__(self, redactor: Redactor) -> None:
        super().__init__()
        self._redactor = redactor

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self._redactor.text(record.getMessage())
        record.args = None
        return True


def redact_zip(path: Path, redactor: Redactor) -> int:
    """Rewrites the UTF-8 text members of a zip (e.g. a Playwright trace) through the redactor.

    Binary members (images) are copied as they are. Returns how many members changed; the file is
    replaced atomically and only when something changed.
    """
    changed = 0
    members: list[tuple[zipfile.ZipInfo, bytes]] = []
    try:
        with zipfile.ZipFile(path) as zf:
            for info in zf.infolist():
                data = zf.read(info)
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    members.append((info, data))
                    continue
                clean = redactor.text(text)
                if clean != text:
                    changed += 1
                    data = clean.encode("utf-8")
                members.append((info, data))
    except zipfile.BadZipFile as exc:
        raise RedactionError(f"{path.name} is not a readable zip: {exc}") from exc
    if changed:
        tmp = path.with_name(path.name + ".redacting")
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as out:
            for info, data in members:
                out.writestr(info, data)
        write_atomic(path, tmp.read_bytes())
        tmp.unlink()
    return changed
