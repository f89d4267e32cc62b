"""The heal cascade's first stage keeps what a redesign rarely changes: a selector's tag and its
attribute tests, without ids and classes (executor/run/replay_heal.py)."""

from __future__ import annotations

import pytest

from executor.run.replay_heal import stable_selector


@pytest.mark.parametrize(
    ("selector", "stable"),
    [
        ("#name", None),
        ("input#email", None),
        ('input#email[name="email"]', 'input[name="email"]'),
        ('.btn.primary[data-testid="go"]', '[data-testid="go"]'),
        ('form .x [name="a"]', None),  # a descendant path is not one element's own attributes
    ],
)
def test_stable_selector_keeps_tag_and_attributes_only(selector: str, stable: str | None) -> None:
    assert stable_selector(selector) == stable
