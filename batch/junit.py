"""JUnit XML, the format CI test reporters read: one testcase per case, a failure with the run's
reason in words, the receipt report's path in system-out."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from batch.results import BatchSummary, CaseResult
from common.secrecy import scrub_bytes
from receipts.layout import write_atomic


def _failure_message(result: CaseResult) -> str:
    said = result.reason or "no reason recorded"
    return f"expected {result.expected}, the run ended {result.run_status}: {said}"


def junit_xml(summary: BatchSummary, *, suite_name: str = "waypost") -> bytes:
    suite = ET.Element(
        "testsuite",
        name=suite_name,
        tests=str(len(summary.runs)),
        failures=str(summary.failed),
        errors="0",
        skipped="0",
        time=f"{summary.seconds:.3f}",
    )
    for result in summary.runs:
        case = ET.SubElement(
            suite, "testcase", classname=suite_name, name=result.name, time=f"{result.seconds:.3f}"
        )
        if not result.passed:
            failure = ET.SubElement(case, "failure", message=_failure_message(result), type=result.run_status)
            failure.text = result.reason
        lines = [f"run {result.run_id or '-'}  status {result.run_status}"]
        if result.endpoint:
            lines.append(f"browser {result.endpoint}")
        if result.report:
            lines.append(f"receipts report: {result.report}")
        ET.SubElement(case, "system-out").text = "\n".join(lines)
    root = ET.Element("testsuites", tests=str(len(summary.runs)), failures=str(summary.failed))
    root.append(suite)
    ET.indent(root)
    data: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return data + b"\n"


def write_junit(summary: BatchSummary, path: Path) -> Path:
    write_atomic(path, scrub_bytes(junit_xml(summary)), fsync=False)  # a page may echo a typed secret
    return path
