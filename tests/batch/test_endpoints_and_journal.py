"""Endpoint kinds and options, and the batch journal read back after a kill, without a browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from batch.journal import BatchJournal, BatchJournalError
from batch.results import CaseResult
from batch.suite import SuiteCase
from browser.grid import EndpointError, check_endpoints, endpoint_kind, endpoint_options
from browser.options import LaunchOptions
from executor.gates.approval import ApprovalPolicy
from executor.models import RunStatus


def test_endpoint_kinds() -> None:
    assert endpoint_kind("ws://grid:3000/") == endpoint_kind("WSS://grid/") == "playwright"
    assert endpoint_kind("http://127.0.0.1:9222") == endpoint_kind("https://cdp.example") == "cdp"
    with pytest.raises(EndpointError, match="expected ws:// or wss://"):
        endpoint_kind("grid:3000")


def test_a_playwright_server_is_told_how_to_launch_and_a_local_profile_is_dropped() -> None:
    base = LaunchOptions(headless=True, user_data_dir="/home/me/profile", executable="/opt/chrome")
    remote = endpoint_options("ws://127.0.0.1:3000/", base)
    assert remote.ws_endpoint == "ws://127.0.0.1:3000/" and remote.cdp_url is None
    assert remote.user_data_dir is None and remote.executable is None
    assert json.loads(remote.ws_headers["x-playwright-launch-options"]) == {"headless": True}
    cdp = endpoint_options("http://127.0.0.1:9222", base)
    assert (cdp.cdp_url, cdp.ws_endpoint, cdp.user_data_dir) == ("http://127.0.0.1:9222", None, None)


async def test_unreachable_and_malformed_endpoints_are_named() -> None:
    with pytest.raises(EndpointError, match=r"not reachable: ws://127\.0\.0\.1:9/, http://127\.0\.0\.1:9/"):
        await check_endpoints(["ws://127.0.0.1:9/", "http://127.0.0.1:9/"])
    with pytest.raises(EndpointError, match="names no host"):
        await check_endpoints(["ws:///path"])
    with pytest.raises(EndpointError, match="Port out of range"):
        await check_endpoints(["ws://127.0.0.1:99999/"])


def _result(name: str) -> CaseResult:
    return CaseResult(
        name=name,
        run_id="run_000000000001",
        run_status=RunStatus.SUCCESS,
        expected=RunStatus.SUCCESS,
        passed=True,
        seconds=1.0,
    )


def test_the_journal_reads_back_what_ended_and_what_was_in_flight(tmp_path: Path) -> None:
    cases = [SuiteCase(name=n, task=f"Open http://127.0.0.1:9/{n} and read it") for n in "abc"]
    journal = BatchJournal.create(tmp_path, cases, workers=2, per_endpoint=2, approve=ApprovalPolicy.ALL)
    journal.started("a", "run_000000000001", None)
    journal.started("b", "run_000000000002", "ws://127.0.0.1:1/")
    journal.ended(_result("a"))
    with journal.path.open("a", encoding="utf-8") as torn:  # a kill -9 in the middle of a line
        torn.write('{"event": "ended", "case": "b", "res')
    again = BatchJournal.open(tmp_path, journal.spec.batch_id)
    state = again.state()
    assert list(state.ended) == ["a"] and state.in_flight == {"b": "run_000000000002"}
    assert [c.name for c in again.cases] == ["a", "b", "c"] and again.spec.workers == 2


def test_a_batch_id_is_checked_before_any_path_is_built(tmp_path: Path) -> None:
    with pytest.raises(BatchJournalError, match="not a batch id"):
        BatchJournal.open(tmp_path, "../../etc")
    with pytest.raises(BatchJournalError, match="no batch"):
        BatchJournal.open(tmp_path, "batch_000000000000")
