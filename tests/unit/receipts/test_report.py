"""The HTML report: self-contained, escaped, and honest about a failed verification."""

from __future__ import annotations

import re
from pathlib import Path

from receipts.interface import Capture
from receipts.recorder import JsonlRecorder
from receipts.report import export_report, render_report
from tests.unit.receipts._helpers import cap, dom, png, record_flow

EVIL = "<script>alert('x')</script>"


async def test_report_is_self_contained_and_escapes_page_text(recorder: JsonlRecorder, run_dir: Path) -> None:
    await recorder.write_run_meta({"task": f"check {EVIL}"})
    await record_flow(recorder)
    page = Capture(url="http://127.0.0.1/x", title=EVIL, dom_hash=dom("x"), screenshot=png((5, 5, 5)))
    await recorder.record_action(
        action={"kind": "click", "target": {"text": '"><img src=x onerror=alert(1)>'}},
        outcome={"status": "ok", "message": EVIL}, before=page, after=page,
    )  # fmt: skip
    await recorder.record_evidence(url="javascript:alert(1)", title="bad link")
    await recorder.finish("SUCCESS", final_state=page)
    path = export_report(run_dir)
    assert path == run_dir / "report.html"
    text = path.read_text(encoding="utf-8")

    assert "<script" not in text.lower()  # no script at all: neither ours nor the page's
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
    assert "<img" not in text
    assert 'href="javascript:' not in text
    assert 'href="http://127.0.0.1/source"' in text  # evidence link
    # Nothing is loaded from anywhere: no src attributes, stylesheets, imports or remote url()s.
    assert not re.search(r"<[a-z][^>]*\ssrc\s*=", text, re.IGNORECASE)
    assert "<link" not in text.lower() and "@import" not in text
    assert not re.search(r"url\((?!data:image/png;base64,)", text)
    # Each distinct screenshot is embedded exactly once (reused shots are not duplicated).
    shots = {p.read_bytes() for p in (run_dir / "shots").iterdir()}
    assert text.count("data:image/png;base64,") == len(shots)
    assert "Receipts verified" in text and "SUCCESS" in text


async def test_report_flags_a_failed_verification(recorder: JsonlRecorder, run_dir: Path) -> None:
    await record_flow(recorder, actions=2)
    await recorder.aclose()
    (run_dir / "shots" / "000002-after.png").write_bytes(png((255, 0, 0)))
    text = render_report(run_dir)
    assert "Receipts not verified" in text and "altered_file" in text
    assert text.count('class="entry bad"') == 1 and "Verification fails here" in text
    assert "Receipts verified" not in text


async def test_report_of_a_run_without_screenshots_or_run_json(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    await recorder.record_action(
        action={"kind": "press", "key": "Enter"}, outcome={"status": "timeout"},
        before=cap("http://h/a", "a"), after=cap("http://h/a", "a"),
    )  # fmt: skip
    await recorder.aclose()
    text = render_report(run_dir)
    assert "no screenshot" in text and "IN PROGRESS" in text and "Enter" in text
