"""What an ACT step tells the person: the answer text says what happened, from the step's own record.

- Inputs: every fill / select / check that succeeded, counted from the history (not from the last
  decision), listed as `Label = "value"` with sensitive values redacted (password-like labels,
  declared secrets, `{{secret:...}}` placeholders).
- Submission: when the browser policy blocks submit (the gate's blocked actions, no_submit), no
  submission can have gone through: the text says the form was NOT submitted; refusals are named.
  Unless a guard could not check what left (`unchecked`, a worker that ran before it was paused:
  browser/worker_guard.py): then the text says a typed value may have left, and why.
- Read-state goals: the text read by extract actions goes out as `state_text` (and the page as
  `state_url`), the documented keys a later COMPUTE step (compare_state_with_sources) reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from common.secrecy import REDACTED
from common.words import plural
from executor.act.progress import StepProgress
from planner.fact_words import Fact
from receipts.redaction import Redactor

INPUT_KINDS = ("fill", "select", "check")
_MAX_STATE = 4000


def _label(fact: Mapping[str, Any]) -> str:
    label = fact.get("label")
    if isinstance(label, str) and label.strip():
        return label.strip()
    target = fact.get("target") or {}
    return str(next((v for v in target.values() if isinstance(v, str)), "a field"))


def _shown(fact: Mapping[str, Any], redactor: Redactor | None) -> str:
    kind, value = fact.get("kind"), fact.get("value")
    if kind == "check":
        return "checked" if fact.get("checked", True) else "unchecked"
    text = "" if value is None else str(value)
    target = fact.get("target") if isinstance(fact.get("target"), Mapping) else None
    sensitive = "{{secret:" in text
    if redactor is not None:
        sensitive = sensitive or redactor.is_sensitive(_label(fact)) or redactor.is_sensitive_target(target)
        sensitive = sensitive or redactor.text(text) != text
    shown = REDACTED if sensitive else f'"{text}"'
    return f"{shown} (selected)" if kind == "select" else shown


def inputs_made(progress: StepProgress) -> list[dict[str, Any]]:
    """The step's successful inputs, one per field (the last value typed into it wins)."""
    by_field: dict[str, dict[str, Any]] = {}
    for fact in progress.facts:
        key = repr(sorted((fact.get("target") or {}).items())) + _label(fact)
        by_field.pop(key, None)
        by_field[key] = fact
    return list(by_field.values())


def input_count(progress: StepProgress) -> int:
    return sum(
        1 for h in progress.history if h.get("status") == "ok" and h["action"].get("kind") in INPUT_KINDS
    )


def describe(
    progress: StepProgress,
    *,
    goal_summary: str,
    submit_blocked: bool,
    blocked_actions: Sequence[str] = (),
    redactor: Redactor | None = None,
    unchecked: Sequence[str] = (),
    sent_next: bool = False,
) -> str:
    """The step's answer: inputs listed, submission state said, refusals named, the goal's notes."""
    made = inputs_made(progress)
    count = len(made) or input_count(progress)  # a field typed into twice is one field
    parts: list[str] = []
    if progress.extracted and not count:
        parts.append(f"Read the current state of {progress.url or 'the page'}.")
    pressed = _pressed(progress, goal_summary)
    # a search that ran sent its own small form: saying "NOT submitted" beside its results misleads
    searched = any(h.get("phase") == "run" and h.get("status") == "ok" for h in progress.history)
    if count:
        listed = "; ".join(f"{_label(f)} = {_shown(f, redactor)}" for f in made)
        where = f" on {progress.url}" if progress.url and not pressed else ""
        filled = "Filled" if pressed or searched else "Prefilled"
        parts.append(f"{filled} {plural(count, 'field')}{where}: {listed}.")
        if submit_blocked and unchecked:
            parts.append(
                f"A typed value MAY HAVE LEFT the browser although submitting was blocked: {unchecked[0]}."
            )
        elif searched:
            parts.append("Searched with them; the results are on that page.")
        elif submit_blocked and sent_next:
            parts.append("Not sent by this step: the next one sends the form, with its own confirmation.")
        elif submit_blocked:
            blocked = ", ".join(blocked_actions) or "submit"
            parts.append(
                f"The form was NOT submitted: submitting stays blocked in this run (blocked: {blocked})."
            )
    if pressed:
        parts.append(f"Then {_press_words(goal_summary)}; now on {progress.url}.")
    if progress.refused:
        parts.append(
            "Refused: " + "; ".join(f"{r.get('action')} ({r.get('why')})" for r in progress.refused) + "."
        )
    note = goal_summary.partition("; not found: ")[2]
    if note:
        parts.append(f"No field found for: {note}.")
    return " ".join(parts) or goal_summary


def _press_words(goal_summary: str) -> str:
    """ "pressed the send button", out of "filled 3 fields and pressed ..." or "Done: ...; pressed ... ."."""
    m = re.search(r"pressed the [^;.]*", goal_summary)
    return m.group(0).strip() if m else "pressed the button"


def _pressed(progress: StepProgress, goal_summary: str) -> bool:
    """Whether the step sent its form: the goal pressed its button, and that press went through."""
    last = next(
        (h for h in reversed(progress.history) if h["action"].get("kind") in ("click", "press")), None
    )
    return last is not None and last.get("status") == "ok" and " pressed the " in goal_summary


def state_outputs(progress: StepProgress) -> dict[str, Any]:
    """`state_text` / `state_url` for a step that read the page's state (extract actions)."""
    if not progress.extracted:
        return {}
    text = "\n".join(progress.extracted)[:_MAX_STATE]
    return {"state_text": text, "state_url": progress.url}


def subject(question: str) -> str:
    """What a question asks about, as a noun phrase: "when the team offsite takes place"."""
    q = " ".join(question.split()).rstrip("?. ")
    q = re.sub(r"(?i)^(?:what(?:'s| is| are)|tell me|give me|show me|find)\s+(?=\w)", "", q)
    return q[0].lower() + q[1:] if q else "the answer"


def fact_sentence(facts: Sequence[tuple[Fact, int]]) -> str:
    """The answer's first sentence holds every fact asked for, each cited ("3 March 2027 [1]; 38.2 GB
    [1]."); the page's own lines follow as evidence."""
    heads = []
    for fact, number in facts:
        value = fact.value.rstrip(". ")
        why = f" ({fact.because})" if fact.because and fact.satisfied else ""
        heads.append(f"{value}{why} [{number}]")
    lead = "; ".join(heads)
    lead = lead[:1].upper() + lead[1:]
    lines = [f'"{f.line.strip()[:200]}"' for f, _ in facts if f.line.strip() != f.value.strip()]
    return f"{lead}." + (f" The page says: {'; '.join(lines)}." if lines else "")
