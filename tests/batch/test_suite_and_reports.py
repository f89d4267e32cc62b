"""The suite file, the JUnit XML and the index page, without a browser."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from batch.index_page import index_html
from batch.junit import junit_xml
from batch.pool import EndpointPool, NoEndpointLeft
from batch.results import BatchSummary, CaseResult
from batch.suite import SuiteError, parse_suite
from executor.models import RunStatus

PLAN = {"mode": "A", "steps": [{"step_id": "c1", "type": "COMPUTE"}]}


def _lines(*cases: object) -> str:
    return "".join((c if isinstance(c, str) else json.dumps(c)) + "\n" for c in cases)


def test_a_suite_holds_tasks_and_plans_with_expectations() -> None:
    cases = parse_suite(
        _lines(
            {"name": "a", "task": "Open http://127.0.0.1:9/ and read it", "url": "http://127.0.0.1:9/"},
            "",
            {"name": "b", "plan": PLAN, "expect": "FAILED"},
        )
    )
    assert [c.name for c in cases] == ["a", "b"]
    assert cases[0].expect is RunStatus.SUCCESS and cases[0].url == "http://127.0.0.1:9/"
    assert cases[1].plan is not None and cases[1].expect is RunStatus.FAILED


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ("{not json", "line 2: not JSON"),
        ("[1, 2]", "line 2: a case is a JSON object"),
        (json.dumps({"task": "x"}), "line 2: name: Field required"),
        (json.dumps({"name": "b"}), 'line 2: give "task" or "plan"'),
        (json.dumps({"name": "b", "task": "x", "plan": PLAN}), 'line 2: give "task" or "plan"'),
        (json.dumps({"name": "b", "task": "x", "expect": "GREAT"}), "line 2: expect"),
        (json.dumps({"name": "b", "plan": {"mode": "Z"}}), "line 2: plan.mode"),
        (json.dumps({"name": "b", "task": "x", "colour": "red"}), "line 2: colour"),
        (json.dumps({"name": "a", "task": "again"}), "line 2: name 'a' already used on line 1"),
    ],
)
def test_a_bad_line_is_named(bad: str, said: str) -> None:
    with pytest.raises(SuiteError, match="suite line 2") as caught:
        parse_suite(_lines({"name": "a", "task": "x"}, bad))
    assert said in str(caught.value)


def test_an_empty_suite_is_an_error() -> None:
    with pytest.raises(SuiteError, match="no cases"):
        parse_suite("\n\n")


def _summary() -> BatchSummary:
    runs = [
        CaseResult(
            name=f"case {i}",
            run_id=f"run_{i:012x}",
            run_status=RunStatus.SUCCESS,
            expected=RunStatus.SUCCESS,
            passed=True,
            seconds=1.5,
            endpoint="ws://127.0.0.1:1/",
            report=f"/runs/run_{i:012x}/report.html",
            answer=f"answer {i}" if i else "<b>" + "long " * 100,
        )
        for i in range(3)
    ]
    runs.append(
        CaseResult(
            name='<script>alert("x")</script>',
            run_id="run_00000000000f",
            run_status=RunStatus.FAILED,
            expected=RunStatus.SUCCESS,
            passed=False,
            seconds=0.5,
            reason="HTTP 404 for http://127.0.0.1:9/missing",
        )
    )
    return BatchSummary.of("batch_000000000001", runs, 4.0)


def test_junit_has_one_testcase_per_case_and_the_failure_in_words() -> None:
    root = ET.fromstring(junit_xml(_summary()))
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == 4
    failures = [(c.get("name"), c.find("failure")) for c in cases if c.find("failure") is not None]
    assert len(failures) == 1
    name, failure = failures[0]
    assert name == '<script>alert("x")</script>'
    assert failure is not None
    assert "expected SUCCESS, the run ended FAILED: HTTP 404" in (failure.get("message") or "")
    assert "receipts report: /runs/run_000000000000/report.html" in (cases[0].findtext("system-out") or "")
    assert root.find("testsuite").get("failures") == "1"  # type: ignore[union-attr]


def test_index_links_reports_and_escapes_names(tmp_path: Path) -> None:
    page = index_html(_summary(), Path("/runs/batches/batch_000000000001"))
    assert page.count('href="../../run_') == 3
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "Content-Security-Policy" in page
    assert "<td>answer 1</td>" in page
    long = "&lt;b&gt;" + "long " * 59 + "l…"  # cut to 300 characters, and escaped
    assert f"<td>{long}</td>" in page


def test_document_has_the_fields_ci_reads() -> None:
    document = _summary().document()
    assert (document["passed"], document["failed"]) == (3, 1)
    assert set(document["runs"][0]) == {  # type: ignore[index]
        "name",
        "run_id",
        "run_status",
        "expected",
        "passed",
        "seconds",
        "endpoint",
        "reason",
        "answer",
    }
    assert document["runs"][0]["answer"] == "<b>" + "long " * 100  # type: ignore[index]


async def test_the_pool_spreads_runs_and_skips_dead_endpoints() -> None:
    pool = EndpointPool(["ws://a/", "ws://b/"], limit_each=2)
    taken = [await pool.acquire() for _ in range(4)]
    assert sorted(s.label for s in taken) == ["ws://a/", "ws://a/", "ws://b/", "ws://b/"]
    first = taken[0]
    await pool.mark_dead(first)
    for slot in taken:
        await pool.release(slot)
    moved = await pool.acquire(avoid=first)
    assert moved.url != first.url
    await pool.mark_dead(moved)
    with pytest.raises(NoEndpointLeft):
        await pool.acquire()
