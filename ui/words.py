"""People's words for what the core says in codes: modes, run outcomes, step states.

The codes stay where someone debugging needs them (tooltips, receipts JSON); the window's visible
text uses these words.
"""

from __future__ import annotations

from executor.models import RunBundleV1, RunStatus, StepStatus

MODE_WORDS: dict[str, str] = {
    "A": "Research",
    "B": "Act",
    "C": "Research, then act",
    "D": "Check, then explain",
    "CLARIFY": "Needs a question answered first",
}

STATUS_WORDS: dict[str, str] = {
    RunStatus.SUCCESS: "Done",
    RunStatus.PARTIAL: "Partly done",
    RunStatus.NEEDS_CONFIRMATION: "Waiting for your confirmation",
    RunStatus.NEEDS_CLARIFICATION: "Needs your answer",
    RunStatus.FAILED: "Failed",
    RunStatus.ABORTED_BUDGET: "Stopped: over its budget",
    RunStatus.BLOCKED_POLICY: "Blocked by a safety rule",
}

STEP_WORDS: dict[str, str] = {
    StepStatus.PENDING: "Waiting",
    StepStatus.RUNNING: "Running",
    StepStatus.SUCCESS: "Done",
    StepStatus.FAILED: "Failed",
    "WAITING": "Asking you",
    "STOPPED": "Stopped",
}


def mode_words(mode: str) -> str:
    return MODE_WORDS.get(str(mode), str(mode))


def step_words(status: str) -> str:
    return STEP_WORDS.get(str(status), str(status).replace("_", " ").capitalize())


def outcome_words(bundle: RunBundleV1, declined_step: str | None = None) -> str:
    """One sentence a person reads: "You declined “Prefill signup”." rather than a policy code."""
    if bundle.run_status is RunStatus.BLOCKED_POLICY and "declined" in (bundle.reason or ""):
        what = f"“{declined_step}”" if declined_step else "the step"
        return f"You declined {what}. Nothing more was done on the page."
    return STATUS_WORDS.get(bundle.run_status, str(bundle.run_status))
