"""Tolerant target matching without a browser."""

from __future__ import annotations

import pytest

from browser.matching import THRESHOLD, fits, fuzzy_match, normalise, similarity
from browser.models import ElementInfo, Target


def el(index: int, name: str, role: str = "textbox", tag: str = "input", **kw: object) -> ElementInfo:
    return ElementInfo.model_validate({"index": index, "tag": tag, "role": role, "name": name, **kw})


PAGE = [
    el(0, "Full name", input_type="text"),
    el(1, "Email address", input_type="email"),
    el(2, "By email", role="radio", input_type="radio"),
    el(3, "Save draft", role="button", tag="button"),
    el(4, "Cancel", role="button", tag="button"),
    el(5, "Buy", role="button", tag="button"),
    el(6, "Buy", role="button", tag="button"),
    el(7, "Country", role="combobox", tag="select"),
    el(8, "Terms", role="checkbox", input_type="checkbox", placeholder=None),
    el(9, "", placeholder="Search products", input_type="search", role="searchbox"),
]


def test_normalise_ignores_case_whitespace_and_edge_punctuation() -> None:
    assert normalise("  FULL\n  Name:* ") == "full name"


@pytest.mark.parametrize(
    ("query", "candidate", "low"),
    [("Email", "email", 1.0), ("Email", "Email address", 0.9), ("Emial adress", "Email address", THRESHOLD)],
)
def test_similarity(query: str, candidate: str, low: float) -> None:
    assert similarity(query, candidate) >= low


def test_unrelated_words_are_not_similar() -> None:
    assert similarity("Delete account", "Save draft") < THRESHOLD
    assert similarity("", "x") == 0.0


def test_near_miss_label_matches_one_element() -> None:
    result = fuzzy_match(Target(label="Emial adress"), PAGE)
    assert result.matched
    assert result.best[0].index == 1


def test_purpose_keeps_a_fill_off_the_radio_button() -> None:
    result = fuzzy_match(Target(label="email"), PAGE, purpose="fill")
    assert result.matched
    assert result.best[0].index == 1
    assert not fuzzy_match(Target(label="email"), PAGE).matched  # without it: a tie


def test_equal_matches_are_ambiguous_unless_one_is_visible() -> None:
    result = fuzzy_match(Target(role="button", name="buy"), PAGE)
    assert result.ambiguous
    assert [e.index for e in result.best] == [5, 6]
    hidden = [*PAGE[:6], PAGE[6].model_copy(update={"visible": False})]
    single = fuzzy_match(Target(role="button", name="buy"), [hidden[5].model_copy(update={"visible": False}),
                                                             *hidden[:5], PAGE[6]])  # fmt: skip
    assert single.matched
    assert single.best[0].index == 6


def test_a_miss_lists_the_closest_names_of_that_role() -> None:
    result = fuzzy_match(Target(role="button", name="Submit order"), PAGE)
    assert not result.matched
    assert not result.ambiguous
    assert set(result.closest) == {"Save draft", "Cancel", "Buy"}


def test_placeholder_and_role_without_name() -> None:
    assert fuzzy_match(Target(placeholder="search product"), PAGE).best[0].index == 9
    combo = fuzzy_match(Target(role="combobox"), PAGE)
    assert combo.matched
    assert combo.best[0].index == 7


@pytest.mark.parametrize(
    ("purpose", "tag", "input_type", "role", "expected"),
    [
        ("fill", "input", "email", "textbox", True),
        ("fill", "input", "radio", "radio", False),
        ("fill", "textarea", None, "textbox", True),
        ("fill", "div", None, "textbox", True),
        ("fill", "select", None, "combobox", False),
        ("check", "input", "checkbox", "checkbox", True),
        ("check", "div", None, "switch", True),
        ("check", "input", "text", "textbox", False),
        ("select", "select", None, "combobox", True),
        ("select", "input", "text", "combobox", False),
        ("upload", "input", "file", "button", True),
        ("upload", "input", "text", "textbox", False),
        (None, "a", None, "link", True),
    ],
)
def test_fits(purpose: str | None, tag: str, input_type: str | None, role: str, expected: bool) -> None:
    assert fits(purpose, tag, input_type, role) is expected  # type: ignore[arg-type]
