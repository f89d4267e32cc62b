"""`waypost batch` on a grid of two real Playwright servers (run-server on 127.0.0.1)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from app.cli import main
from receipts.verify import verify
from tests.support.playwright_server import PlaywrightServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def read_task(site: FixtureSite, path: str) -> str:
    return f"Open {site.url(path)} and tell me the page title"


def write_suite(folder: Path, cases: Sequence[Mapping[str, object]]) -> Path:
    suite = folder / "suite.jsonl"
    suite.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return suite


def batch(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object], str]:
    code = main(["batch", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else {}), err


def test_eight_cases_on_two_servers_end_with_their_true_statuses(
    grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases: list[dict[str, object]] = [
        {"name": f"read {i}", "task": read_task(site, f"/slow?delay=0.2&case={i}")} for i in range(7)
    ]
    cases.insert(3, {"name": "missing page", "task": read_task(site, "/no-such-page")})
    junit = waypost_home / "junit.xml"
    args = [str(write_suite(waypost_home, cases)), "--workers", "4", "--junit", str(junit)]
    code, document, _ = batch(capsys, *args, "--browser", grid[0].endpoint, "--browser", grid[1].endpoint)

    runs = document["runs"]
    assert isinstance(runs, list)
    assert code == 1
    assert [r["name"] for r in runs] == [c["name"] for c in cases]
    assert {r["name"]: r["run_status"] for r in runs if not r["passed"]} == {"missing page": "FAILED"}
    assert (document["passed"], document["failed"]) == (7, 1)
    assert {r["endpoint"] for r in runs} == {grid[0].endpoint, grid[1].endpoint}  # both servers served

    root = ET.parse(junit).getroot()
    testcases = root.findall("./testsuite/testcase")
    assert len(testcases) == 8
    failed = [t for t in testcases if t.find("failure") is not None]
    assert [t.get("name") for t in failed] == ["missing page"]
    assert "HTTP 404" in (failed[0].find("failure").get("message") or "")  # type: ignore[union-attr]

    runs_dir = waypost_home / "data" / "runs"
    for run in runs:
        report = verify(runs_dir / run["run_id"])
        assert report.ok, (run["name"], report.as_dict())
    index = (runs_dir / "batches" / str(document["batch_id"]) / "index.html").read_text(encoding="utf-8")
    assert all(f"../../{r['run_id']}/report.html" in index for r in runs)


def test_runs_sharing_a_browser_end_with_their_true_statuses_and_verified_receipts(
    grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases: list[dict[str, object]] = [
        {"name": f"read {i}", "task": read_task(site, f"/slow?delay=0.2&shared={i}")} for i in range(4)
    ]
    cases.append({"name": "missing page", "task": read_task(site, "/no-such-page")})
    suite = write_suite(waypost_home, cases)
    code, document, _ = batch(
        capsys, str(suite), "--workers", "3", "--isolation", "context", "--browser", grid[0].endpoint
    )

    runs = document["runs"]
    assert isinstance(runs, list)
    assert code == 1
    assert {r["name"]: r["run_status"] for r in runs if not r["passed"]} == {"missing page": "FAILED"}
    runs_dir = waypost_home / "data" / "runs"
    for run in runs:
        report = verify(runs_dir / run["run_id"])
        assert report.ok, (run["name"], report.as_dict())
    kept = json.loads((runs_dir / "batches" / str(document["batch_id"]) / "batch.json").read_text())
    assert kept["isolation"] == "context"  # a resume goes on as the batch began


def test_a_case_awaiting_approval_pauses_and_the_others_go_on(
    grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill = f"Open {site.url('/form.html')} and fill the email with a@b.co"
    cases: list[dict[str, object]] = [
        {"name": "fill", "task": fill, "expect": "NEEDS_CONFIRMATION"},
        {"name": "read", "task": read_task(site, "/index.html")},
    ]
    suite = write_suite(waypost_home, cases)
    code, document, _ = batch(
        capsys, str(suite), "--workers", "2", "--approve", "ask", "--browser", grid[0].endpoint
    )
    statuses = {r["name"]: r["run_status"] for r in document["runs"]}  # type: ignore[attr-defined]
    assert statuses == {"fill": "NEEDS_CONFIRMATION", "read": "SUCCESS"}
    assert code == 0
    paused = next(r for r in document["runs"] if r["name"] == "fill")  # type: ignore[attr-defined]
    resumed = main(["resume", paused["run_id"], "--approve", "all", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (resumed, out["run_status"]) == (0, "SUCCESS")


def test_bad_suite_or_unreachable_endpoint_is_exit_2_before_any_run(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    good = {"name": "read", "task": read_task(site, "/index.html")}
    suite = waypost_home / "suite.jsonl"
    suite.write_text(json.dumps(good) + "\n" + '{"name": "broken"\n', encoding="utf-8")
    code, document, err = batch(capsys, str(suite))
    assert (code, document) == (2, {})
    assert "suite.jsonl line 2: not JSON" in err
    suite.write_text(json.dumps(good) + "\n", encoding="utf-8")
    code, _, err = batch(capsys, str(suite), "--browser", "ws://127.0.0.1:9/")
    assert code == 2 and "browser endpoint not reachable: ws://127.0.0.1:9/" in err
    code, _, err = batch(capsys, str(suite), "--browser", "ftp://127.0.0.1:9/")
    assert code == 2 and "expected ws:// or wss://" in err
    code, _, err = batch(capsys, str(suite), "--isolation", "context")  # no endpoint to share
    assert code == 2 and "--isolation context shares an endpoint's browser" in err
    runs_dir = waypost_home / "data" / "runs"
    assert list(runs_dir.glob("run_*")) == [] and list(runs_dir.glob("batches/*")) == []  # nothing ran
