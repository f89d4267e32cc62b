"""What a stopped batch reports (Ctrl-C, SIGTERM): the cases that ended, the ones left to do (a run
that was in flight is checkpointed and resumes; a case that never started starts), and the command
that finishes the batch. Read from the journal, so it is true even when workers were cut off."""

from __future__ import annotations

from batch.endpoint_secrets import credentials
from batch.journal import BatchJournal
from batch.results import BatchSummary
from batch.suite import SuiteCase
from batch.suite_secrets import holds_secrets, kept

EXIT_INTERRUPTED = 130


def resume_command(journal: BatchJournal, left: list[SuiteCase]) -> str:
    """What to type next. Secrets are not kept in the batch folder, so a case left that held one
    needs the suite file again, and an endpoint that held a key needs its --browser again."""
    suite = "SUITE " if any(holds_secrets(kept(case)) for case in left) else ""
    endpoints = journal.spec.endpoints
    browsers = " --browser ENDPOINT" * len(endpoints) if credentials(endpoints) else ""
    return f"waypost batch {suite}--resume {journal.spec.batch_id}{browsers}"


def stopped_document(journal: BatchJournal, signal_name: str, seconds: float) -> dict[str, object]:
    """The `--json` document of a stopped batch: the usual keys over the cases that ended, plus
    `resumable` (each case not ended, with its run id when a run had started) and how to go on."""
    state = journal.state()
    ended = [state.ended[c.name] for c in journal.cases if c.name in state.ended]
    left = [
        {"name": c.name, "run_id": state.in_flight.get(c.name)}
        for c in journal.cases
        if c.name not in state.ended
    ]
    batch_id = journal.spec.batch_id
    document = BatchSummary.of(batch_id, ended, seconds).document()
    reason = (
        f"stopped by {signal_name}: {len(ended)} of {len(journal.cases)} cases ended, "
        f"{len(left)} left (runs in flight are checkpointed)"
    )
    return {
        **document,
        "batch_status": "INTERRUPTED",
        "reason": reason,
        "resumable": left,
        "resume_command": resume_command(journal, [c for c in journal.cases if c.name not in state.ended]),
        "exit_code": EXIT_INTERRUPTED,
    }


def stopped_sentence(document: dict[str, object]) -> str:
    """The stderr line: why it stopped and the command that finishes the batch."""
    return f"waypost: batch {document['reason']}. Continue it with: {document['resume_command']}"
