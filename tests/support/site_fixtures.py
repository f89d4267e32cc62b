"""Pytest fixtures for the local fixture website (star-imported by tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.site import FixtureSite

__all__ = ["site"]


@pytest.fixture(scope="session")
def site() -> Iterator[FixtureSite]:
    """One fixture server for the session; tests reading POST counts call `site.clear_posts()` first."""
    with FixtureSite() as running:
        yield running
