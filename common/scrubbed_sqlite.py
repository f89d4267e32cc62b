"""A sqlite3 connection that scrubs every text it is asked to store.

Run stores keep page text, model answers and URLs; a page may echo a secret into any of them. The
stores open their database with `scrubbed_db`, so every parameter of every
`execute`/`executemany` passes the secrets owner's one redactor (common/secrecy.scrub) on its way in,
whatever column or statement a later change adds. SQL text itself is the code's, never data.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from common.secrecy import scrub, scrub_bytes, scrub_data, secrets_live


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        scrubbed = scrub(value)
        return _scrub_json(value) if scrubbed != value and value[:1] in "{[" else scrubbed
    if isinstance(value, bytes):
        return scrub_bytes(value)
    return value


def _scrub_json(text: str) -> str:
    """A stored document scrubbed value by value: a short secret (a PIN "12", an "x") replaced in
    the text itself would cut through a number or a key ("time_ms_used":[REDACTED]5) and leave the
    store unreadable. Its strings are scrubbed; keys, numbers and the shape stay."""
    try:
        data = json.loads(text)
    except ValueError:
        return scrub(text)
    return json.dumps(scrub_data(data), ensure_ascii=False, separators=(",", ":"))


def scrub_params(params: Any) -> Any:
    """Positional or named parameters with every str/bytes value scrubbed (as they are when no
    secret is live: one check per statement instead of one per value)."""
    if not secrets_live():
        return params
    if isinstance(params, Mapping):
        return {key: _clean(value) for key, value in params.items()}
    if isinstance(params, Sequence) and not isinstance(params, str | bytes):
        return tuple(_clean(value) for value in params)
    return params


class ScrubbingConnection(sqlite3.Connection):
    """sqlite3.Connection whose execute/executemany scrub their parameters."""

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        return super().execute(sql, scrub_params(parameters))

    def executemany(self, sql: str, seq_of_parameters: Iterable[Any], /) -> sqlite3.Cursor:
        return super().executemany(sql, (scrub_params(p) for p in seq_of_parameters))


def scrubbed_db(path: str, **kwargs: Any) -> ScrubbingConnection:
    """sqlite3.connect with the scrubbing connection: how every Waypost store opens its database."""
    return sqlite3.connect(path, factory=ScrubbingConnection, **kwargs)
