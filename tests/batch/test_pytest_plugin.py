"""The `waypost` pytest fixture, loaded through its pytest11 entry point in a pytest of its own."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from receipts.verify import verify
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QA_SUITE = """
def test_reads_the_home_page(waypost):
    outcome = waypost.run("Open {home} and tell me the page title", approve="all")
    assert outcome.status == "SUCCESS", outcome.reason
    assert "Fixture site" in outcome.answer
    assert (outcome.receipts / "receipts.jsonl").is_file()


def test_a_missing_page_is_reported_not_raised(waypost):
    outcome = waypost.run("Open {missing} and tell me the page title")
    assert outcome.status == "FAILED" and "HTTP 404" in outcome.reason
"""


def test_the_fixture_runs_flows_and_records_their_reports(waypost_home: Path, site: FixtureSite) -> None:
    qa = waypost_home / "qa"
    qa.mkdir()
    (qa / "test_flows.py").write_text(
        QA_SUITE.format(home=site.url("/index.html"), missing=site.url("/gone.html")), encoding="utf-8"
    )
    junit = waypost_home / "qa.xml"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", str(qa)],
        cwd=qa,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    properties = {
        case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in ET.parse(junit).getroot().iter("testcase")
    }
    assert set(properties) == {"test_reads_the_home_page", "test_a_missing_page_is_reported_not_raised"}
    for recorded in properties.values():
        report = Path(recorded["waypost_report"] or "")
        assert report.name == "report.html" and report.is_file()
        assert verify(report.parent).ok
    assert recorded["waypost_run"].endswith(" FAILED")  # type: ignore[union-attr]
