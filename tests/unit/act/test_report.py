"""An ACT step's answer says what happened: inputs counted from the history, values redacted where
sensitive, and that the form was not submitted while submit is blocked."""

from __future__ import annotations

from executor.act.progress import StepProgress
from executor.act.report import describe, state_outputs
from receipts.redaction import Redactor


def progress() -> StepProgress:
    kinds = [("fill", "Email", "a@b.co"), ("fill", "Password", "hunter22"), ("select", "Package", "Pro")]
    return StepProgress(
        url="http://site/signup",
        history=[{"action": {"kind": k, "value": v}, "status": "ok"} for k, _, v in kinds]
        + [{"action": {"kind": "click"}, "status": "ok"}],
        facts=[{"kind": k, "label": label, "value": v, "target": {"label": label}} for k, label, v in kinds],
    )


def test_inputs_are_listed_redacted_and_not_submitted() -> None:
    text = describe(
        progress(), goal_summary="filled 1 field", submit_blocked=True,
        blocked_actions=["submit"], redactor=Redactor(),
    )  # fmt: skip
    assert text.startswith("Prefilled 3 fields on http://site/signup: ")
    assert 'Email = "a@b.co"; Password = [REDACTED]; Package = "Pro" (selected).' in text
    assert "hunter22" not in text
    assert "The form was NOT submitted" in text


def test_a_search_that_ran_is_not_called_unsubmitted() -> None:
    """A search sends its own small form; its answer says it searched, never "NOT submitted"."""
    p = StepProgress(
        url="http://site/results?q=dune",
        history=[
            {"action": {"kind": "fill", "value": "dune"}, "status": "ok", "ask": 0, "phase": "input"},
            {"action": {"kind": "click"}, "status": "ok", "ask": 0, "phase": "run"},
        ],
        facts=[{"kind": "fill", "label": "Search", "value": "dune", "target": {"label": "Search"}}],
    )
    text = describe(p, goal_summary="searched", submit_blocked=True, blocked_actions=["submit"])
    assert text.startswith('Filled 1 field on http://site/results?q=dune: Search = "dune".')
    assert "Searched with them" in text and "NOT submitted" not in text


def test_declared_secrets_and_missing_fields() -> None:
    p = progress()
    text = describe(p, goal_summary="filled 2 fields; not found: phone", submit_blocked=False,
                    redactor=Redactor(["a@b.co"]))  # fmt: skip
    assert "a@b.co" not in text and "NOT submitted" not in text
    assert text.endswith("No field found for: phone.")


def test_a_read_state_step_hands_its_text_on() -> None:
    p = StepProgress(url="http://site/account", extracted=["Current plan\tPro"])
    assert state_outputs(p) == {"state_text": "Current plan\tPro", "state_url": "http://site/account"}
    assert describe(p, goal_summary="state read", submit_blocked=True) == (
        "Read the current state of http://site/account."
    )
    assert state_outputs(StepProgress()) == {}


def test_a_switch_turned_off_reads_unchecked() -> None:
    """ "Turn off product updates" must not read as "Product updates = checked" in the answer."""
    p = StepProgress(
        url="http://site/notifications",
        history=[{"action": {"kind": "check", "checked": c}, "status": "ok"} for c in (False, True)],
        facts=[
            {"kind": "check", "label": n, "value": None, "checked": c, "target": {"label": n}}
            for n, c in (("Product updates", False), ("Digest", True))
        ],
    )
    text = describe(p, goal_summary="", submit_blocked=False)
    assert "Product updates = unchecked; Digest = checked." in text


def test_a_sent_form_says_what_was_pressed_once() -> None:
    """The window read "Then Done: pressed the send button.; now on ..." after a form was sent."""
    text = describe(progress(), goal_summary="Done: pressed the send button.", submit_blocked=False)
    assert text.endswith("Then pressed the send button; now on http://site/signup.")
    summary = "filled 3 fields and pressed the send button"
    text = describe(progress(), goal_summary=summary, submit_blocked=False)
    assert text.endswith("Then pressed the send button; now on http://site/signup.")


def test_what_was_not_found_reads_as_a_noun_phrase() -> None:
    """ "I could not find what is the CEO's phone number" read as the question pasted in."""
    from executor.act.report import subject

    assert subject("What is the CEO's phone number?") == "the CEO's phone number"
    assert subject("when the team offsite takes place") == "when the team offsite takes place"


def test_a_field_typed_into_twice_is_counted_once() -> None:
    """A search run again after a late filter types the query twice: two fields, not three."""
    typed = [("fill", "Search", "Tô Hoài"), ("select", "Kind", "E-books"), ("fill", "Search", "Tô Hoài")]
    p = StepProgress(
        url="http://site/results?q=to+hoai",
        history=[{"action": {"kind": k, "value": v}, "status": "ok", "phase": "input"} for k, _, v in typed],
        facts=[{"kind": k, "label": label, "value": v, "target": {"label": label}} for k, label, v in typed],
    )
    text = describe(p, goal_summary="searched", submit_blocked=False)
    assert text.startswith(
        'Prefilled 2 fields on http://site/results?q=to+hoai: Kind = "E-books" (selected); Search'
    )
