"""An action in flight, as a resume finds it: done, to run again, or only a person can say."""

from __future__ import annotations

from browser.models import ActionOutcome, OutcomeStatus
from executor.act.intent import INTENT_KEY, Intent, settled, take_back, with_intent
from executor.act.progress import StepProgress

CLICK = {"kind": "click", "target": {"selector": "#send"}}


def _progress() -> StepProgress:
    return StepProgress(done=1, count=2, performed=1, url="http://127.0.0.1/form")


def test_an_intent_round_trips_through_the_step_outputs() -> None:
    intent = Intent(n=2, action=CLICK, url="http://127.0.0.1/form", listed=True)
    outputs = with_intent(_progress(), intent)
    assert Intent.from_outputs(outputs) == intent
    assert StepProgress.from_outputs(outputs) == _progress()
    assert INTENT_KEY not in with_intent(_progress(), None)


def test_a_click_with_its_outcome_is_taken_as_done() -> None:
    ok = ActionOutcome(kind="click", status=OutcomeStatus.OK, url_after="http://127.0.0.1/thanks")
    intent = settled(Intent(n=2, action=CLICK, listed=True), ok)
    assert intent is not None
    progress = _progress()
    assert take_back(progress, intent) is False
    assert (progress.done, progress.count, progress.performed) == (2, 2, 2)
    assert progress.history[-1]["status"] == "ok" and progress.url == "http://127.0.0.1/thanks"


def test_a_click_without_a_certain_outcome_needs_a_decision() -> None:
    for status in (OutcomeStatus.TIMEOUT, OutcomeStatus.ERROR):  # it may have gone out first
        assert settled(Intent(n=2, action=CLICK), ActionOutcome(kind="click", status=status)) is None
    progress = _progress()
    assert take_back(progress, Intent(n=2, action=CLICK, listed=True)) is True
    assert progress == _progress()  # untouched until someone decides


def test_a_repeatable_action_is_rewound_to_run_again() -> None:
    fill = {"kind": "fill", "target": {"selector": "#name"}, "value": "Ada"}
    progress = _progress()
    assert take_back(progress, Intent(n=2, action=fill, listed=True)) is False
    assert (progress.done, progress.count, progress.performed) == (1, 1, 1)


def test_an_approved_repeat_is_sent_as_the_next_attempt_and_asks_anew() -> None:
    """An approval to repeat covers that one sending: the repeat's own unknown outcome is a new gate."""
    from executor.act.in_flight import rewind
    from executor.gates.desk import ActionGate, action_gate_id

    progress = _progress()
    first = Intent(n=2, action=CLICK, listed=True)
    rewind(progress, first)
    assert progress.count == 1 and progress.repeats == {2: 1}
    again = Intent(n=2, action=CLICK, attempt=progress.repeats[2] + 1, listed=True)
    gates = [
        action_gate_id(ActionGate(step_gate=None, risk="repeat", reason="?", n=i.n, attempt=i.attempt))
        for i in (first, again)
    ]
    assert gates == ["gate_action:repeat:2", "gate_action:repeat:2.2"]
    assert StepProgress.from_outputs(with_intent(progress, again)).repeats == {2: 1}  # saved with it
