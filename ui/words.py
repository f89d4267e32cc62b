"""People's words for what the core says in codes: modes, run outcomes, step states, History lines.

The codes stay where someone debugging needs them (tooltips, receipts JSON); the window's visible
text uses these words. Plain strings (the enums' values), so the window paints before the core's
modules load (docs/architecture.md, "Cold start").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from common.words import listed, plural

if TYPE_CHECKING:
    from executor.models import RunBundleV1
    from executor.run.replay import ReplayReport

MODE_WORDS: dict[str, str] = {
    "A": "Research",
    "B": "Act",
    "C": "Research, then act",
    "D": "Check, then explain",
    "CLARIFY": "Needs a question answered first",
}

STATUS_WORDS: dict[str, str] = {
    "SUCCESS": "Done",
    "PARTIAL": "Partly done",
    "NEEDS_CONFIRMATION": "Waiting for your confirmation",
    "NEEDS_CLARIFICATION": "Needs your answer",
    "FAILED": "Failed",
    "ABORTED_BUDGET": "Stopped: over its budget",
    "BLOCKED_POLICY": "Blocked by a safety rule",
}

#: How a run reads in the History list (short; the code is in the row's tooltip).
HISTORY_WORDS: dict[str, str] = {
    "SUCCESS": "Done",
    "PARTIAL": "Partly done",
    "NEEDS_CONFIRMATION": "Waiting for you",
    "NEEDS_CLARIFICATION": "Has a question",
    "FAILED": "Failed",
    "ABORTED_BUDGET": "Over budget",
    "BLOCKED_POLICY": "Blocked",
    "DECLINED": "You declined",
    "RUNNING": "Running",
    "INTERRUPTED": "Stopped; can resume",
    "UNREADABLE": "Unreadable",
    "REPLAY_OK": "Replay: no drift",
    "REPLAY_DRIFT": "Replay: drifted",
    "REPLAY_NOTHING": "Replay: nothing replayed",
}

STEP_WORDS: dict[str, str] = {
    "PENDING": "Waiting",
    "RUNNING": "Running",
    "SUCCESS": "Done",
    "FAILED": "Failed",
    "SKIPPED": "Skipped",
    "BLOCKED_GATE": "Declined",
    "WAITING": "Asking you",
    "STOPPED": "Stopped",
}


def mode_words(mode: str) -> str:
    return MODE_WORDS.get(str(mode), str(mode))


def step_words(status: str) -> str:
    return STEP_WORDS.get(str(status), str(status).replace("_", " ").capitalize())


def history_words(status: str) -> str:
    return HISTORY_WORDS.get(status, status.replace("_", " ").capitalize())


def replay_words(report: ReplayReport) -> str:
    """ "Replayed 3 actions: no drift", or that nothing was (the drift's codes are in the summary)."""
    if not report.replayed:
        why = "you declined every step" if report.all_declined else "no recorded action could be replayed"
        return f"Nothing was replayed: {why}"
    verdict = "no drift" if report.ok else "the site drifted (see the receipts)"
    left = [s.note.partition(";")[0] for s in report.steps if s.status == "skipped"]
    if left:  # a risky action (a submit) is not sent again: said, not hidden behind "no drift"
        why = "; ".join(dict.fromkeys(n for n in left if n))
        verdict += f"; {plural(len(left), 'action')} not replayed" + (f" ({why})" if why else "")
    return f"Replayed {plural(report.replayed, 'action')}: {verdict}"


def outcome_words(bundle: RunBundleV1, declined_step: str | None = None) -> str:
    """One sentence a person reads: "You declined “Prefill signup”." rather than a policy code."""
    status = bundle.run_status.value
    if status == "BLOCKED_POLICY" and "declined" in (bundle.reason or ""):
        what = f"“{declined_step}”" if declined_step else "the step"
        return f"You declined {what}. Nothing more was done on the page."
    return STATUS_WORDS.get(status, status)


_BLOCKED_WORDS = {
    "submit": "sending a form",
    "send": "sending a message",
    "purchase": "buying",
    "payment": "paying",
    "delete": "deleting",
    "login": "logging in",
    "download": "downloading",
    "upload": "uploading",
}


def blocked_words(actions: list[str]) -> str:
    """What stays blocked whatever the person answers, in words ("sending a form and buying")."""
    if not actions:
        return "Nothing else is blocked beyond this step."
    words = list(dict.fromkeys(_BLOCKED_WORDS.get(a, a.replace("_", " ")) for a in actions))
    return f"Whatever you answer, these stay blocked: {listed(words)}."


def named_steps(reason: str, names: Mapping[str, str]) -> str:
    """A run's reason with its step ids as the step names the plan shows: "“Open the page” failed: …"
    rather than "unfinished steps: stp_o1 failed: …; stp_c1 skipped: needs 'stp_o1'"."""
    text = reason.removeprefix("unfinished steps: ")
    for step_id in sorted(names, key=len, reverse=True):
        pattern = rf"(?<![\w/.:'-])'?{re.escape(step_id)}'?(?![\w/.-])"
        text = re.sub(pattern, f"“{names[step_id]}”".replace("\\", "\\\\"), text)
    return text
