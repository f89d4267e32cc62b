"""Receipts: a tamper-evident record of every action a run takes (docs/architecture.md, "Receipts").

Public entry points: `JsonlRecorder` (writes a run folder), `verify` (checks one), `export_report`
(a self-contained HTML report), `Redactor` (what never reaches disk), `RunFolder` (the layout).
"""

from receipts.errors import ChainError, ReceiptsError, RecorderClosedError, RedactionError, RunFolderError
from receipts.interface import Capture, CaptureLike, OutcomeLike, Recorder
from receipts.layout import RunFolder
from receipts.models import ActionRecord, Receipt, Record, StateSnapshot
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from receipts.report import export_report, render_report
from receipts.runs import list_runs, resolve_run
from receipts.verify import Problem, VerifyReport, verify

__all__ = [
    "ActionRecord",
    "Capture",
    "CaptureLike",
    "ChainError",
    "JsonlRecorder",
    "OutcomeLike",
    "Problem",
    "Receipt",
    "ReceiptsError",
    "Record",
    "Recorder",
    "RecorderClosedError",
    "RedactionError",
    "Redactor",
    "RunFolder",
    "RunFolderError",
    "StateSnapshot",
    "VerifyReport",
    "export_report",
    "list_runs",
    "render_report",
    "resolve_run",
    "verify",
]
