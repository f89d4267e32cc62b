"""A suite's secrets are never written into the batch folder, and a resume gets them from the suite
file again, only for the cases it matches."""

from __future__ import annotations

from pathlib import Path

import pytest

from batch.journal import BatchJournal
from batch.stopped import resume_command
from batch.suite import SuiteCase, SuiteError
from batch.suite_secrets import kept, secret_values, with_secrets
from executor.gates.approval import ApprovalPolicy

SECRET = "Zq7horsePASS91x"
TASK = f"Open http://127.0.0.1:9/login and log in with ada:{SECRET}"


def cases() -> list[SuiteCase]:
    return [
        SuiteCase(name="login", task=TASK),
        SuiteCase(name="plain", task="Open http://127.0.0.1:9/ and read it"),
    ]


def test_the_batch_folder_keeps_tasks_with_their_secrets_cut(tmp_path: Path) -> None:
    journal = BatchJournal.create(tmp_path, cases(), workers=1, per_endpoint=1, approve=ApprovalPolicy.ALL)
    assert journal.cases[0].task == TASK  # this batch still runs the task as given
    for path in journal.folder.rglob("*"):
        assert SECRET.encode() not in path.read_bytes(), path
    reopened = BatchJournal.open(tmp_path, journal.spec.batch_id)
    assert reopened.cases[0].task == "Open http://127.0.0.1:9/login and log in with ada:{{secret:password}}"
    assert reopened.cases[1] == cases()[1]


def test_a_resume_takes_the_secrets_from_the_suite_file_again() -> None:
    stored = [kept(case) for case in cases()]
    again = with_secrets(stored, cases(), ended=set(), batch_id="batch_x")
    assert again == cases()
    assert secret_values(again[0]) == {"password": SECRET}
    assert secret_values(again[1]) == {}


def test_a_resume_without_the_suite_file_names_the_cases_that_need_it() -> None:
    stored = [kept(case) for case in cases()]
    with pytest.raises(SuiteError, match=r"'login' held secrets.*waypost batch SUITE --resume batch_x"):
        with_secrets(stored, None, ended=set(), batch_id="batch_x")
    assert with_secrets(stored, None, ended={"login"}, batch_id="batch_x") == stored  # it ended: no need


def test_a_suite_file_that_changed_the_task_is_refused() -> None:
    stored = [kept(case) for case in cases()]
    changed = [SuiteCase(name="login", task=f"Open http://evil.example/ and log in with ada:{SECRET}")]
    with pytest.raises(SuiteError, match="'login' is not in the suite file as it was"):
        with_secrets(stored, changed, ended=set(), batch_id="batch_x")


def test_a_stopped_batch_says_to_give_the_suite_and_the_endpoints_again(tmp_path: Path) -> None:
    endpoint = "wss://grid.example.test/?token=gridKey7731xq"
    journal = BatchJournal.create(
        tmp_path, cases(), workers=1, endpoints=[endpoint], per_endpoint=1, approve=ApprovalPolicy.ALL
    )
    batch_id = journal.spec.batch_id
    assert (
        resume_command(journal, journal.cases)
        == f"waypost batch SUITE --resume {batch_id} --browser ENDPOINT"
    )
    assert (
        resume_command(journal, journal.cases[1:]) == f"waypost batch --resume {batch_id} --browser ENDPOINT"
    )
    plain = BatchJournal.create(tmp_path, cases()[1:], workers=1, per_endpoint=1, approve=ApprovalPolicy.ALL)
    assert resume_command(plain, plain.cases) == f"waypost batch --resume {plain.spec.batch_id}"
