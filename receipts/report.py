"""Export of a run as one self-contained HTML file a QA person can attach to a ticket.

Everything is inline: CSS from report.css, screenshots as data: URIs (each image once, as a CSS
class, so a reused before/after shot costs nothing twice), click-to-enlarge with CSS :target. Every
string from the run is escaped; only http(s) evidence URLs become links.
"""

from __future__ import annotations

import base64
import html
import json
import struct
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from common.bounded_read import FILE_BYTES, RECEIPTS_BYTES, FileTooLarge, read_bytes, read_text
from receipts.attest import RunCheck, TrustedKey, check_run
from receipts.layout import RunFolder, write_atomic
from receipts.models import (
    RECORD_ADAPTER,
    ActionRecord,
    DialogRecord,
    EvidenceReadRecord,
    FileRef,
    GateDecisionRecord,
    NoteRecord,
    PageState,
    Record,
    RunEndRecord,
    SnapshotRecord,
)
from receipts.signing import SIGNATURE_FILE
from receipts.verify import BadRecord

_OK = {"ok", "allow", "success", "approved"}
_WARN = {"partial", "need_confirm", "needs_confirmation", "needs_clarification", "warning", "aborted_budget"}
_BAD = {"error", "failed", "deny", "denied", "blocked", "blocked_policy", "not_found", "timeout"}


#: The exported report runs nothing and loads nothing: page text inside it stays text.
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _pill(text: str, *, big: bool = False) -> str:
    low = text.lower()
    tone = "ok" if low in _OK else "bad" if low in _BAD else "warn" if low in _WARN else ""
    return f'<span class="pill {tone}{" big" if big else ""}">{_e(text)}</span>'


def _hash(value: str | None) -> str:
    if not value:
        return '<span class="same">none</span>'
    return f'<span class="hash" title="{_e(value)}">{_e(value[:10])}…</span>'


def _link(url: str) -> str:
    if url.lower().startswith(("http://", "https://")):
        return f'<a href="{_e(url)}" rel="noopener noreferrer">{_e(url)}</a>'
    return f"<code>{_e(url)}</code>" if url else '<span class="same">none</span>'


def _time(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S UTC") if value else "n/a"


def describe_target(target: dict[str, Any] | None) -> str:
    """Short human form of a target dict, e.g. `button "Next"` or `label "Email"`."""
    if not target:
        return ""
    if "role" in target:
        name = target.get("name")
        return f"{target['role']}" + (f' "{name}"' if name is not None else "")
    for key in ("label", "text", "placeholder", "selector"):
        if key in target:
            return f'{key} "{target[key]}"'
    if "index" in target:
        return f"element #{target['index']}"
    return json.dumps(target, ensure_ascii=False)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return (width, height) if width and height else None


class _Images:
    """Each screenshot embedded once as a CSS class; thumbnails and lightboxes refer to it."""

    def __init__(self, folder: RunFolder) -> None:
        self.folder = folder
        self._css: dict[str, str] = {}
        self._boxes: dict[str, str] = {}

    def thumb(self, ref: FileRef | None, caption: str) -> str:
        if ref is None:
            return f'<div class="shot"><div class="thumb none">no screenshot</div>{_e(caption)}</div>'
        key = ref.sha256[:16]
        if key not in self._css:
            try:
                data = read_bytes(self.folder.resolve(ref.path), FILE_BYTES, what="screenshot")
            except (OSError, FileTooLarge):
                missing = f'<div class="thumb none">missing: {_e(ref.path)}</div>'
                return f'<div class="shot">{missing}{_e(caption)}</div>'
            size = _png_size(data) or (16, 10)
            uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
            self._css[key] = f".s{key}{{background-image:url({uri});aspect-ratio:{size[0]}/{size[1]}}}"
            self._boxes[key] = (
                f'<div class="lightbox" id="z{key}"><a class="big s{key}" href="#_" title="close"></a>'
                f'<a class="close" href="#_">{_e(ref.path)} · click here or press Back to close</a></div>'
            )
        return (
            f'<div class="shot"><a class="thumb s{key}" href="#z{key}" title="{_e(ref.path)} '
            f'sha256 {_e(ref.sha256)}"></a>{_e(caption)}</div>'
        )

    def css(self) -> str:
        return "\n".join(self._css.values())

    def lightboxes(self) -> str:
        return "\n".join(self._boxes.values())


def read_records(folder: RunFolder) -> list[tuple[int, Record]]:
    """(line number, record) for every line that parses; lenient so a broken run still renders."""
    records: list[tuple[int, Record]] = []
    try:
        lines = read_bytes(folder.receipts, RECEIPTS_BYTES, what="receipts file").splitlines()
    except (FileNotFoundError, FileTooLarge):
        return records
    for number, line in enumerate(lines, start=1):
        try:
            records.append((number, RECORD_ADAPTER.validate_json(line)))
        except ValidationError:
            continue
    return records


def _state_kv(state: PageState, label: str) -> list[tuple[str, str]]:
    return [(f"URL {label}", _link(state.url)), (f"Title {label}", _e(state.title) or "—")]


def _kv(rows: Iterable[tuple[str, str]]) -> str:
    return '<dl class="kv">' + "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def _action(record: ActionRecord, images: _Images) -> str:
    act = record.action
    kind = str(act.get("kind", "action"))
    target = describe_target(record.target_requested)
    what = {"navigate": str(act.get("url", "")), "press": str(act.get("key", ""))}.get(kind, target)
    rows: list[tuple[str, str]] = []
    if record.value is not None:
        value = record.value if isinstance(record.value, str) else ", ".join(record.value)
        rows.append(("Value", f"<code>{_e(value)}</code>"))
    if record.target_resolved:
        resolved = record.target_resolved.get("description") or describe_target(record.target_resolved)
        rows.append(("Resolved to", _e(resolved)))
    if record.outcome.message:
        rows.append(("Outcome", _e(record.outcome.message)))
    if record.outcome.candidates:
        rows.append(("Candidates", _e(", ".join(record.outcome.candidates))))
    rows += _state_kv(record.before, "before")
    if record.after.url != record.before.url or record.after.title != record.before.title:
        rows += _state_kv(record.after, "after")
    same = record.before.dom_hash == record.after.dom_hash and record.before.dom_hash is not None
    dom = f"{_hash(record.before.dom_hash)} → {_hash(record.after.dom_hash)}"
    rows.append(("DOM hash", dom + (' <span class="same">(unchanged)</span>' if same else "")))
    if record.gate is not None:
        g = record.gate
        rows.append(
            ("Allowed by", f"gate <code>{_e(g.gate_id)}</code> · {_e(g.scope)} scope · {_e(g.decided_by)}")
        )
    before_caption = "before (same as previous after)" if record.before_shot_reused else "before"
    after_caption = "after (same as before: nothing visible changed)" if record.after_shot_reused else "after"
    shots = (
        f'<div class="shots">{images.thumb(record.before.shot, before_caption)}<span class="arrow">→</span>'
        f"{images.thumb(record.after.shot, after_caption)}</div>"
    )
    raw = json.dumps(act, indent=2, ensure_ascii=False)
    title = (
        f'<div class="title-line"><span class="pill">{_e(kind)}</span><span class="what">{_e(what)}</span>'
        f'{_pill(record.outcome.status)}<span class="dur">{record.duration_ms:.0f} ms · '
        f"step {_e(record.step_id or '—')}</span></div>"
    )
    details = f"<details><summary>action JSON</summary><pre>{_e(raw)}</pre></details>"
    return f'{title}<div class="action-body"><div>{_kv(rows)}{details}</div>{shots}</div>'


def _entry(record: Record, images: _Images, bad: BadRecord | None = None) -> str:
    compact = ""
    if isinstance(record, ActionRecord):
        body = _action(record, images)
    elif isinstance(record, GateDecisionRecord):
        compact = " compact"
        blocked = (
            f" · still blocked: {_e(', '.join(record.blocked_actions))}" if record.blocked_actions else ""
        )
        body = (
            f'<div class="title-line"><span class="pill">gate</span><span class="what">'
            f'{_e(record.gate_id)}</span>{_pill(record.decision)}</div><div class="detail">'
            f"{_e(record.gate_kind)} gate · {_e(record.scope)} scope · decided by {_e(record.decided_by)}"
            f"{f' in leg {record.leg}' if record.leg else ''}"
            f"{' · ' + _e(record.reason) if record.reason else ''}{blocked}</div>"
        )
    elif isinstance(record, EvidenceReadRecord):
        compact = " compact"
        body = (
            f'<div class="title-line"><span class="pill">evidence</span><span class="what">'
            f'{_e(record.title or "source")}</span></div><div class="detail">{_link(record.url)}'
            f" · content {_hash(record.content_sha256)}</div>"
            + (f'<div class="detail">“{_e(record.snippet)}”</div>' if record.snippet else "")
        )
    elif isinstance(record, DialogRecord):
        compact = " compact"
        answer = "accepted" if record.accepted else "dismissed"
        body = (
            f'<div class="title-line"><span class="pill warn">{_e(record.dialog_type)}</span>'
            f'<span class="what">{_e(record.message)}</span>{_pill(answer)}</div>'
            f'<div class="detail">{_link(record.url)}</div>'
        )
    elif isinstance(record, NoteRecord):
        compact = " compact"
        body = f'<div class="title-line">{_pill(record.level)}<span>{_e(record.text)}</span></div>'
    elif isinstance(record, SnapshotRecord):
        compact = " compact"
        body = _snapshot(record, images)
    else:
        compact = " compact"
        body = (
            f'<div class="title-line"><span class="pill">run end</span>{_pill(record.status)}'
            f"<span>{_e(record.reason)}</span></div>"
        )
    flag = ""
    if bad is not None:
        compact += " bad"
        flag = f'<div class="flag">✘ Verification fails here: {_e(bad.problem.value)}: {_e(bad.detail)}</div>'
    return (
        f'<li class="entry{compact}"><div class="seq"><b>#{record.seq}</b>'
        f"{_e(record.time.strftime('%H:%M:%S'))}</div><div>{flag}{body}</div></li>"
    )


def _snapshot(record: SnapshotRecord, images: _Images) -> str:
    try:
        data = json.loads(read_text(images.folder.resolve(record.file.path), FILE_BYTES, what="snapshot"))
    except (OSError, ValueError):
        data = {}
    text = str(data.get("text_excerpt", "")) if isinstance(data, dict) else ""
    url = str(data.get("url", "")) if isinstance(data, dict) else ""
    return (
        f'<div class="title-line"><span class="pill">snapshot</span><span class="what">'
        f'{_e(record.label or "state")}</span></div><div class="detail">{_link(url)} · '
        f"<code>{_e(record.file.path)}</code></div>"
        + (f"<details><summary>page text</summary><pre>{_e(text)}</pre></details>" if text else "")
    )


def _meta(folder: RunFolder, records: list[Record]) -> dict[str, str]:
    meta = folder.read_run_json()
    task = meta.get("task")
    plan = meta.get("plan") if isinstance(meta.get("plan"), dict) else {}
    if isinstance(task, dict):
        task = task.get("user_query") or task.get("text")
    if not isinstance(task, str) and isinstance(plan, dict) and isinstance(plan.get("task"), dict):
        task = plan["task"].get("user_query")
    ends = [r for r in records if isinstance(r, RunEndRecord)]
    receipt = meta.get("receipt") if isinstance(meta.get("receipt"), dict) else {}
    status = ends[-1].status if ends else (receipt or {}).get("status") or "IN PROGRESS"
    return {
        "task": task if isinstance(task, str) else "",
        "status": str(status),
        "started": _time(records[0].time if records else None),
        "finished": _time(ends[-1].time if ends else None),
        "duration": f"{(records[-1].time - records[0].time).total_seconds():.1f} s" if records else "n/a",
    }


def _signature(check: RunCheck) -> tuple[str, str]:
    """(the "Signed by" fact, the envelope block): the report carries the signature itself."""
    if check.envelope is None:
        return '<span class="same">not signed</span>', ""
    trusted = f" · {_e(check.key_label)}" if check.key_label else " · not trusted here"
    body = json.dumps(check.envelope.model_dump(mode="json"), indent=2)
    block = (
        f"<h2>Signature</h2><details><summary>{_e(SIGNATURE_FILE)}: DSSE envelope, Ed25519 key "
        f'{_e(check.keyid or "")}</summary><pre id="dsse-envelope">{_e(body)}</pre></details>'
    )
    return f"Ed25519 key <code>{_e(check.keyid or '')}</code>{trusted}", block


def render_report(
    run_dir: Path | str, *, check: RunCheck | None = None, trusted: Sequence[TrustedKey] | None = None
) -> str:
    """The report as an HTML string; checks the run (trusting `trusted`) unless a RunCheck is given."""
    folder = RunFolder(Path(run_dir))
    check = check or check_run(folder.root, trusted)
    report = check.chain
    numbered = read_records(folder)
    records = [r for _, r in numbered]
    meta = _meta(folder, records)
    images = _Images(folder)
    bad = report.first_bad
    entries = "\n".join(
        _entry(r, images, bad if bad is not None and bad.line == n else None) for n, r in numbered
    )
    actions = sum(isinstance(r, ActionRecord) for r in records)
    if check.ok:
        verdict = f'<div class="verify ok">✔ Receipts verified · {_e(check.summary())}</div>'
    else:
        verdict = f'<div class="verify bad">✘ Receipts not verified · {_e(check.summary())}</div>'
    signed_by, envelope = _signature(check)
    end = next((r for r in reversed(records) if isinstance(r, RunEndRecord)), None)
    last_action = next((r for r in reversed(records) if isinstance(r, ActionRecord)), None)
    final_state = end.final_state if end and end.final_state else last_action.after if last_action else None
    final = ""
    if final_state is not None:
        rows = [*_state_kv(final_state, ""), ("DOM hash", _hash(final_state.dom_hash))]
        thumb = images.thumb(final_state.shot, "final")
        final = f'<h2>Final state</h2><div class="final">{thumb}{_kv(rows)}</div>'
    facts = [
        ("Run id", f"<code>{_e(folder.run_id)}</code>"),
        ("Started", _e(meta["started"])),
        ("Finished", _e(meta["finished"])),
        ("Duration", _e(meta["duration"])),
        ("Actions / records", f"{actions} / {len(records)}"),
        ("Chain head", _hash(report.head_hash)),
        ("Signed by", signed_by),
    ]
    facts_html = "".join(f"<div><dt>{_e(k)}</dt><dd>{v}</dd></div>" for k, v in facts)
    css = resources.files("receipts").joinpath("report.css").read_text(encoding="utf-8")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waypost run {_e(folder.run_id)}</title>
<style>{css}
{images.css()}</style></head>
<body><main>
<section class="header"><h1>Waypost run receipt</h1>
<div class="badges">{_pill(meta["status"], big=True)}</div>
<div class="task">{_e(meta["task"]) or '<span class="same">(no task text recorded)</span>'}</div>
<dl class="facts">{facts_html}</dl>{verdict}</section>
<h2>Timeline</h2><ol class="timeline">{entries or '<li class="entry">No records.</li>'}</ol>
{final}
{envelope}
<footer>Exported by Waypost at {_e(_time(datetime.now(UTC)))}. Check the files with
<code>waypost receipts verify {_e(folder.run_id)}</code>.</footer>
</main>{images.lightboxes()}</body></html>
"""


def export_report(
    run_dir: Path | str, out: Path | str | None = None, *, trusted: Sequence[TrustedKey] | None = None
) -> Path:
    """Writes report.html (or `out`) and returns its path."""
    folder = RunFolder(Path(run_dir))
    target = Path(out) if out is not None else folder.report
    write_atomic(target, render_report(folder.root, trusted=trusted).encode("utf-8"), fsync=False)
    return target
