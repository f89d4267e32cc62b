"""The fixture server itself: pages, downloads and the POST counter tests rely on."""

from __future__ import annotations

import urllib.request

from tests.support.site import FixtureSite


def test_serves_pages_and_attachments(site: FixtureSite) -> None:
    with urllib.request.urlopen(site.url("/form.html")) as response:
        assert b"Contact us" in response.read()
    with urllib.request.urlopen(site.url("/files/report.csv")) as response:
        assert response.headers["Content-Disposition"] == 'attachment; filename="report.csv"'
        assert response.read().startswith(b"package,price")


def test_counts_posts_per_path() -> None:
    with FixtureSite() as own:
        for _ in range(2):
            request = urllib.request.Request(own.url("/signup"), data=b"name=a", method="POST")
            with urllib.request.urlopen(request) as response:
                assert response.status == 200
        assert own.post_count("/signup") == 2
        assert own.post_count("/other") == 0
        assert own.post_count() == 2
        assert own.post_bodies("/signup") == [b"name=a", b"name=a"]
        own.clear_posts()
        assert own.post_count() == 0
