"""The rule policy over asks (planner/ask_cognition.py): one ask at a time, in the person's order, and
a send never goes before what it was meant to send."""

from __future__ import annotations

from browser.models import ElementInfo, Observation
from planner.ask_cognition import decide_asks
from planner.ask_reader import read_asks


def el(index: int, tag: str, name: str, **extra: object) -> ElementInfo:
    return ElementInfo.model_validate({"index": index, "tag": tag, "name": name, **extra})


def test_a_send_waits_for_the_choice_before_it() -> None:
    """ "Choose the window seat and book": no seat on the page, so the Book button is not pressed and
    the step ends saying why, with the page's own words first."""
    asks = read_asks("choose the window seat and book it on https://x.test/seats")
    obs = Observation(
        url="https://x.test/seats",
        title="Seats",
        text="Seats\nNo window seats available on this flight.",
        elements=[
            el(0, "button", "Aisle seat 12C", role="button"),
            el(1, "button", "Book", role="button", input_type="submit", form=1),
        ],
    )
    decision = decide_asks(asks, obs, [])
    assert decision.decision == "answer" and not decision.actions[0]["success"]
    assert decision.answer is not None and decision.answer.startswith(
        'the page says "No window seats available'
    )
    assert "book was not sent" in decision.answer
