"""Navigation policy. Found: link-local addresses (the cloud metadata range 169.254.0.0/16) were
reachable from a run."""

from __future__ import annotations

import pytest

from browser.url_policy import UrlPolicy


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest/meta-data/",
        "https://169.254.1.1:8443/x",
        "http://[fe80::1]/",
        "ws://169.254.0.9/",
    ],
)
def test_link_local_addresses_are_refused(url: str) -> None:
    assert "link-local" in (UrlPolicy().check(url) or "")


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/", "https://example.org/", "http://10.0.0.1/"])
def test_other_hosts_pass_this_rule(url: str) -> None:
    assert UrlPolicy().check(url) is None
