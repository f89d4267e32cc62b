"""What a stopped batch reports (Ctrl-C, SIGTERM): the cases that ended, the ones left to do (a run
that was in flight is checkpointed and resumes; a case that never started starts), and the command
that finishes the batch. Read from the journal, so it is true even when workers were cut off."""

from __future__ import annotations

from batch.journal import BatchJournal
from batch.results import BatchSummary

EXIT_INTERRUPTED = 130


def resume_command(batch_id: str) -> str:
    return f"waypost batch --resume {batch_id}"


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
        "resume_command": resume_command(batch_id),
        "exit_code": EXIT_INTERRUPTED,
    }


def stopped_sentence(document: dict[str, object]) -> str:
    """The stderr line: why it stopped and the command that finishes the batch."""
    return f"waypost: batch {document['reason']}. Continue it with: {document['resume_command']}"
