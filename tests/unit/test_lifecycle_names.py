"""One name per change of a run's state: the journal entry's, the bus event's and the window's signal
(docs/architecture.md, "One name per change"). A new event named otherwise fails here."""

from __future__ import annotations

import re
import typing

from pydantic import BaseModel

from executor.journal import events, run_journal

#: Bus events that show no journal entry of their own, each with why.
NO_ENTRY = {
    "EvidenceAdded": "published beside a finished StepRecorded, one per new source",
    "BudgetUpdated": "published beside a finished StepRecorded",
    "ToolCalled": "the tool engine's; a step's record carries its calls",
}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _bus_events() -> list[type[BaseModel]]:
    union = typing.get_args(events.RunEvent)[0]
    return list(typing.get_args(union))


def test_every_bus_event_is_named_as_the_journal_entry_it_shows() -> None:
    entries = {entry.__name__ for entry in typing.get_args(run_journal.Entry)}
    named_otherwise = [
        event.__name__
        for event in _bus_events()
        if event.__name__ not in entries and event.__name__ not in NO_ENTRY
    ]
    assert named_otherwise == []


def test_every_bus_event_kind_is_its_class_name() -> None:
    kinds = {event.__name__: event.model_fields["kind"].default for event in _bus_events()}
    assert kinds == {name: _snake(name) for name in kinds}


def test_the_window_hears_each_event_under_its_kind() -> None:
    """run_closed is the one exception: the window hears a run's end with the bundle its coroutine
    returns (ui/controller.py `run_finished`)."""
    from ui.controller import RunController

    kinds = [event.model_fields["kind"].default for event in _bus_events()]
    unheard = [kind for kind in kinds if kind != "run_closed" and not hasattr(RunController, kind)]
    assert unheard == []
