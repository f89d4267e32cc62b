"""Credentials inside a browser endpoint are secrets.

A hosted grid takes its key in the endpoint (`wss://host?token=...`, `wss://user:password@host`).
The batch scrubs those values from every line it prints or writes (they join the process's live
secrets, common/secrecy.py), and batch.json keeps the endpoint with them cut out: a resume is given
the endpoints again (`--browser`, or the config file), and takes them only where they match the kept
ones (docs/architecture.md, "Batches").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from urllib.parse import unquote, urlsplit

from batch.suite import SuiteError
from common.secrecy import REDACTED

#: Query parameters that carry a credential (browserless: token; others: key, apiKey, auth, sig...).
_CREDENTIAL = re.compile(r"(?i)token|key|secret|auth|pass|sig|credential")


def _query_pairs(query: str) -> list[tuple[str, str]]:
    return [(k, v) for k, _, v in (part.partition("=") for part in query.split("&") if part)]


def credentials(endpoints: Iterable[str]) -> list[str]:
    """Every credential value in the endpoints, as written and decoded."""
    found: list[str] = []
    for url in endpoints:
        parts = urlsplit(url)
        if parts.password:
            found += [parts.password, unquote(parts.password)]
        for name, value in _query_pairs(parts.query):
            if value and _CREDENTIAL.search(name):
                found += [value, unquote(value)]
    return [value for value in dict.fromkeys(found) if value]


def kept(url: str) -> str:
    """The endpoint as batch.json stores it: each credential replaced by [REDACTED]."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        user, _, host = netloc.rpartition("@")
        netloc = f"{user.partition(':')[0]}:{REDACTED}@{host}"
    query = "&".join(
        f"{name}={REDACTED}" if value and _CREDENTIAL.search(name) else (f"{name}={value}" if value else name)
        for name, value in _query_pairs(parts.query)
    )
    return parts._replace(netloc=netloc, query=query).geturl()


def with_endpoints(stored: Sequence[str], given: Sequence[str], batch_id: str) -> list[str]:
    """The endpoints a resume connects to: the stored ones, or, where those held credentials, the
    ones given again (which must match them once their credentials are cut)."""
    if not any(REDACTED in url for url in stored):
        return list(stored)
    if [kept(url) for url in given] != list(stored):
        raise SuiteError(
            f"batch {batch_id}: its browser endpoints held credentials, which Waypost does not keep; "
            "give the same --browser endpoints again"
        )
    return list(given)
