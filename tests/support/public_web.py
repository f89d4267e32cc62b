"""A made-up public name, public.test, that a test's Chromium resolves to 127.0.0.1, so a page served
by the fixture site counts as public (navigation-policy attack tests; the Chromium and the harness on
it are fixtures of tests/security/conftest.py)."""

from __future__ import annotations

from tests.support.site import FixtureSite

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]
PUBLIC = "public.test"
#: The Chromium flag that maps the public name to the fixture site's address.
PUBLIC_RULE = f"--host-resolver-rules=MAP {PUBLIC} 127.0.0.1"


def public_url(site: FixtureSite, path: str) -> str:
    """The fixture site's page at `path`, addressed by the public name."""
    return site.url(path).replace("127.0.0.1", PUBLIC)
