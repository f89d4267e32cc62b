"""index.html of a batch: one row per case, linking the run's own receipts report.

Every value shown came from a page or a suite written by someone else: all of it is escaped, and the
page runs no script."""

from __future__ import annotations

import html
import os
from pathlib import Path

from batch.results import BatchSummary
from common.secrecy import scrub
from receipts.layout import write_atomic

_CSP = "default-src 'none'; style-src 'unsafe-inline'"
_STYLE = (
    "body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}"
    "td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}"
    ".pass{color:#176317}.fail{color:#a11}"
)


ANSWER_CHARS = 300  # the whole answer is in the run's own report


def _short(answer: str | None) -> str:
    if not answer:
        return ""
    return answer if len(answer) <= ANSWER_CHARS else answer[: ANSWER_CHARS - 1] + "…"


def _row(summary_dir: Path, result_index: int, summary: BatchSummary) -> str:
    r = summary.runs[result_index]
    e = html.escape
    verdict = '<td class="pass">passed</td>' if r.passed else '<td class="fail">failed</td>'
    if r.report:
        href = os.path.relpath(r.report, summary_dir)
        link = f'<a href="{e(Path(href).as_posix())}">{e(r.run_id or "report")}</a>'
    else:
        link = e(r.run_id or "-")
    return (
        f"<tr><td>{e(r.name)}</td>{verdict}<td>{e(r.run_status)}</td><td>{e(r.expected)}</td>"
        f"<td>{r.seconds:.1f} s</td><td>{e(r.endpoint or 'local')}</td><td>{link}</td>"
        f"<td>{e(r.reason)}</td><td>{e(_short(r.answer))}</td></tr>"
    )


def index_html(summary: BatchSummary, where: Path) -> str:
    rows = "\n".join(_row(where, i, summary) for i in range(len(summary.runs)))
    title = html.escape(f"Batch {summary.batch_id}")
    return (
        "<!doctype html>\n<html><head><meta charset='utf-8'>"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{title}</h1><p>{summary.passed} passed, {summary.failed} failed, "
        f"{summary.seconds:.1f} s</p><table><tr><th>case</th><th>result</th><th>status</th>"
        "<th>expected</th><th>time</th><th>browser</th><th>receipts</th><th>why</th><th>answer</th></tr>\n"
        f"{rows}\n</table></body></html>\n"
    )


def write_index(summary: BatchSummary, folder: Path) -> Path:
    path = folder / "index.html"
    page = scrub(index_html(summary, folder))  # a page may echo a typed secret into an answer
    write_atomic(path, page.encode("utf-8"), fsync=False)
    return path
