"""URL policy decisions (the browser applies them to navigations and every request)."""

from __future__ import annotations

import pytest

from browser.url_policy import UrlPolicy


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        "chrome://settings",
        "javascript:alert(1)",
        " javascript:alert(1)",
        "data:text/html,<h1>x</h1>",
        "about:config",
        "chrome-extension://abc/x.html",
        "view-source:http://127.0.0.1/",
        "ftp://127.0.0.1/x",
        "blob:file:///x",
        "relative/path",
    ],
)
def test_refused_by_default(url: str) -> None:
    assert UrlPolicy().check(url) is not None


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/a",
        "https://example.test/",
        "about:blank",
        "wss://x.test/s",
        "blob:https://a.test/1",
    ],
)
def test_allowed_by_default(url: str) -> None:
    assert UrlPolicy().check(url) is None


def test_schemes_can_be_allowed() -> None:
    policy = UrlPolicy(allowed_schemes=["data:", "FILE"])
    assert policy.check("data:text/plain,hi") is None
    assert policy.check("file:///tmp/x") is None
    assert policy.check("javascript:1") is not None


def test_domain_allow_list_takes_subdomains_but_not_lookalikes() -> None:
    policy = UrlPolicy(allowed_domains=["example.test", "*.shop.test"])
    assert policy.check("https://example.test/x") is None
    assert policy.check("https://www.example.test/x") is None
    assert policy.check("https://a.shop.test/") is None
    assert policy.check("https://shop.test/") is None
    reason = policy.check("https://evil-example.test/")
    assert reason is not None
    assert "allow-list" in reason
    assert policy.check("https://example.test.evil.test/") is not None
    assert policy.check("http://127.0.0.1/") is not None
    assert policy.check("about:blank") is None
