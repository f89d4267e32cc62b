"""A suite's secrets stay out of the batch folder.

A task may carry a password or a token ("log in with ada:hunter2"). The batch keeps its own copy of
the suite for `--resume`; that copy holds each task as the planner sees it, with every secret cut to
its placeholder (planner/secrets.py), so no value is written to disk. A resumed batch whose unfinished
cases held secrets gets them from the suite file again (`waypost batch SUITE --resume BATCH_ID`): a
case is taken from it only when it matches the kept copy once its secrets are cut, so the file
cannot swap a different task in (docs/architecture.md, "Batches").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from batch.suite import SuiteCase, SuiteError
from common.secrecy import has_placeholder
from planner.secrets import extract_secrets


def kept(case: SuiteCase) -> SuiteCase:
    """The case as the batch folder stores it: its task with every secret cut to a placeholder."""
    if case.task is None:
        return case
    return case.model_copy(update={"task": extract_secrets(case.task).text})


def holds_secrets(case: SuiteCase) -> bool:
    """A stored case whose task had secrets (its values are not in the batch folder)."""
    return case.task is not None and has_placeholder(case.task)


def secret_values(case: SuiteCase) -> dict[str, str]:
    """The values the case's task declares, by placeholder name (a resumed run needs them again)."""
    if case.task is None:
        return {}
    return {name: value.get_secret_value() for name, value in extract_secrets(case.task).values.items()}


def with_secrets(
    stored: Sequence[SuiteCase], given: Sequence[SuiteCase] | None, ended: Collection[str], batch_id: str
) -> list[SuiteCase]:
    """The cases to resume: each stored case that held secrets and has not ended, taken from `given`
    (the suite file again). A SuiteError says which case is missing or differs."""
    needed = [case for case in stored if holds_secrets(case) and case.name not in ended]
    if needed and given is None:
        names = ", ".join(repr(case.name) for case in needed)
        raise SuiteError(
            f"batch {batch_id}: case(s) {names} held secrets, which Waypost does not keep; "
            f"give the suite file again: waypost batch SUITE --resume {batch_id}"
        )
    by_name = {case.name: case for case in given or ()}
    out = []
    for case in stored:
        if case in needed:
            again = by_name.get(case.name)
            if again is None or kept(again) != case:
                raise SuiteError(f"batch {batch_id}: case {case.name!r} is not in the suite file as it was")
            case = again
        out.append(case)
    return out
