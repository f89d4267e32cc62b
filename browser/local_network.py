"""Chromium's own Local Network Access check, for navigations (docs/architecture.md, "Navigation
policy").

Chromium judges a request by the address its host *resolved* to, inside the network stack, at every
hop: a page on a public address that sends a frame to a loopback or private address is refused with
ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS. Subresources are checked by default; navigations only
with the `LocalNetworkAccessForNavigations` feature, which Waypost turns on for browsers it launches
unless the run's task names a private address. This is what stops a public name that resolves to
127.0.0.1 (no URL rule can see that). A granted permission does not lift it for a page served over
plain http, so a run whose task names a private address is launched without it.

Chromium judges navigations a page starts (a link, a form, a script, and every redirect of those);
a navigation the browser itself starts (Waypost's navigate action) has no page behind it and is not
judged, so for those only the URL rules hold.
"""

from __future__ import annotations

from urllib.parse import urlsplit

FEATURE = "LocalNetworkAccessForNavigations"
ERROR = "net::ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS"
_FEATURES_FLAG = "--enable-features="


def with_checks(args: list[str]) -> list[str]:
    """`args` with the feature added to the one --enable-features flag (Chromium reads only one)."""
    features = [a for a in args if a.startswith(_FEATURES_FLAG)]
    names = [n for a in features for n in a[len(_FEATURES_FLAG) :].split(",") if n]
    if FEATURE not in names:
        names.append(FEATURE)
    return [a for a in args if a not in features] + [_FEATURES_FLAG + ",".join(names)]


def refusal(url: str, failure: str | None) -> str | None:
    """Why Chromium refused the request (a failed request's error text), or None for another failure."""
    if not failure or ERROR not in failure:
        return None
    host = urlsplit(url).hostname or url
    return f"refused {host}: a private address as resolved, reached from a public page (Local Network Access)"
