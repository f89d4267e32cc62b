"""The fault suite's fixtures: one fault server per module, and the table every case adds a row to
(printed at the end of the session: case, status, seconds, side effects counted)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.fault_site import FaultSite

ROWS: list[tuple[str, str, float, str]] = []


@pytest.fixture(scope="module")
def fault_site() -> Iterator[FaultSite]:
    with FaultSite() as site:
        yield site


@pytest.fixture
def table(request: pytest.FixtureRequest) -> Iterator[list[tuple[str, float, str]]]:
    """A test appends (status, seconds, side effects); rows are named after the test."""
    rows: list[tuple[str, float, str]] = []
    yield rows
    for status, seconds, effects in rows:
        ROWS.append((request.node.name.removeprefix("test_"), status, seconds, effects))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not ROWS:
        return
    terminalreporter.write_line("")
    terminalreporter.write_line(f"{'case':<44} {'status':<22} {'seconds':>7}  side effects")
    for case, status, seconds, effects in ROWS:
        terminalreporter.write_line(f"{case:<44} {status:<22} {seconds:>7.1f}  {effects}")
