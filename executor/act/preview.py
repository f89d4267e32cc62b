"""An ACT-family step's gate picture: its start page with the elements its actions will touch marked.

The step's listed actions are marked as written. A goal step decides its actions on the page, so the
picture marks what the rules decide on the page as it is now (planner/cognition.py `rule_decide`,
the first batch only) and says that the step decides again when it runs (a model may choose other
fields; the receipts show what was done). A step with no start page acts where the run is: that
page is marked, and with no browser open yet there is nothing to look at (the gate desk then shows
the run's last recorded page).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from browser.models import Action, Observation, parse_action
from executor.act.spec import BadActInputs, spec_for
from executor.gates.look import look_and_note
from executor.run.resources import RunResources
from planner.cognition import rule_decide
from planner.decisions import HistoryEntry
from planner.models import Step

DECIDED_LATER = "Marked as Waypost reads this page now; the step decides again when it runs."


#: Decisions the preview follows at most; the inputs a decision makes without leaving the page.
_MAX_DECISIONS = 12
_INPUTS = ("fill", "select", "check")


def _parsed(items: Sequence[dict[str, Any]]) -> list[Action]:
    actions = []
    for item in items:
        try:
            actions.append(parse_action(item))
        except ValidationError:
            continue
    return actions


async def preview_step(
    step: Step, resources: RunResources, outputs: Mapping[str, Mapping[str, Any]]
) -> str | None:
    try:
        spec = spec_for(step, outputs)
    except BadActInputs:
        return None  # the step fails when it runs, saying why; the gate shows the page as it is
    if spec.url is None and not resources.browser_started:
        return None
    driver = await resources.driver()
    url = None if spec.url in (None, driver.url) else spec.url
    listed, goal, payload = spec.actions, spec.goal, spec.payload

    def choose(observation: Observation) -> Sequence[Action]:
        """The rules' inputs on this page, taken one decision after another as if each went
        through (the ask policy decides one field a turn), up to the first press."""
        if listed is not None:
            return listed
        chosen: list[Action] = []
        history: list[HistoryEntry] = []
        for _ in range(_MAX_DECISIONS):
            decision = rule_decide(goal, payload, observation, history)
            acts = [a for a in _parsed(decision.actions) if a.kind != "done"]
            if decision.decision != "act" or not acts:
                break
            chosen += acts
            if any(a.kind not in _INPUTS for a in acts):
                break  # what a press leads to is not on this page
            history += [
                HistoryEntry(action=raw, ask=decision.ask, phase=decision.phase) for raw in decision.actions
            ]
        return chosen

    note = "" if listed is not None else DECIDED_LATER
    return await look_and_note(driver, resources.run_id, resources.run_dir, step.step_id, url, choose, note)
