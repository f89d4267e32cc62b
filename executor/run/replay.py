"""Replay for QA: re-run a recorded run's actions with no model and report where the site drifted.

Each action that succeeded in the original run is performed again: its target as recorded first
(an observation index means nothing on a new page, so then the resolved selector), then the resolved
selector if the recorded target no longer matches. Before and after each action the URL and the DOM
hash are compared with the recorded ones. The replay writes its own receipts in its own run folder.

Skipped: actions that failed or were refused originally, `done`, values that were redacted (a typed
secret is replayed only as its `{{secret:NAME}}` placeholder, given the secrets), and, unless
`include_risky`, actions that would submit, pay, delete, log in or send.

CLI: `replay_to_folder(source_run_dir, runs_dir, launch_options=...)` -> ReplayReport.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from browser.driver import BrowserDriver, PlaywrightDriver
from browser.models import Action, OutcomeStatus, parse_action
from browser.options import BrowserPolicy, LaunchOptions
from common.contracts import new_id
from common.secrecy import REDACTED, SecretVault
from common.words import plural
from executor.act.perform import ActEnv, capture_before, perform
from executor.act.risk import classify
from executor.gates.confirm import ConfirmHandler
from executor.gates.look import look_and_note
from executor.journal.run_journal import Noted
from executor.journal.views import receipts_journal
from executor.models import EXIT_CODES, RunStatus
from executor.run.replay_gates import DECLINED_HERE, ReplayGates
from executor.run.replay_heal import Heal
from executor.run.replay_heal import heal as heal_step
from receipts.interface import Recorder
from receipts.layout import RunFolder
from receipts.models import ActionRecord, PageState
from receipts.recorder import JsonlRecorder
from receipts.report import read_records
from receipts.signing import KeySource
from receipts.verify import verify


class ReplayError(Exception):
    """The source run cannot be replayed (its receipts do not verify, or it recorded no action)."""


@dataclass
class ReplayStep:
    seq: int  # the original record's seq
    kind: str
    status: str = "pending"  # the replayed outcome (ok, not_found, ...) or "skipped"
    target_used: str = ""  # "recorded" | "selector" | ""
    url_expected: str = ""
    url_actual: str = ""
    dom_expected: str | None = None
    dom_actual: str | None = None
    note: str = ""
    heal: Heal | None = None  # how a target not found as recorded was found again (--heal)

    @property
    def url_match(self) -> bool:
        return self.url_expected == self.url_actual

    @property
    def dom_match(self) -> bool:
        return self.dom_expected is None or self.dom_expected == self.dom_actual

    @property
    def drifted(self) -> bool:
        if self.heal is not None:  # acted, but not on the element as recorded: the site drifted
            return True
        return self.status != "skipped" and not (self.status == "ok" and self.url_match and self.dom_match)


#: A replay's outcomes (its run_end status): actions replayed without drift, with drift, or none at
#: all, which checks nothing and so is never a pass (docs/architecture.md, "Replay that heals").
REPLAY_OK, REPLAY_DRIFT, REPLAY_NOTHING = "REPLAY_OK", "REPLAY_DRIFT", "REPLAY_NOTHING"


@dataclass
class ReplayReport:
    source_run: str
    replay_run: str
    steps: list[ReplayStep] = field(default_factory=list)
    #: Steps the person declined in the original run: they recorded no action, so none replays.
    declined: list[str] = field(default_factory=list)

    @property
    def replayed(self) -> int:
        return sum(1 for s in self.steps if s.status != "skipped")

    @property
    def ok(self) -> bool:
        """Something was replayed and nothing drifted."""
        return self.replayed > 0 and not any(s.drifted for s in self.steps)

    @property
    def outcome(self) -> str:
        if not self.replayed:
            return REPLAY_NOTHING
        return REPLAY_OK if self.ok else REPLAY_DRIFT

    @property
    def all_declined(self) -> bool:
        """Nothing replayed because the person declined every step (in the original run or here)."""
        declined_here = bool(self.steps) and all(s.note == DECLINED_HERE for s in self.steps)
        return not self.replayed and (declined_here or (bool(self.declined) and not self.steps))

    @property
    def exit_code(self) -> int:
        """The CLI's exit code (docs/architecture.md): 0 no drift; 1 drift, or nothing replayed to
        compare; 6 (BLOCKED_POLICY, as the declined run itself ended) when every step was declined."""
        if self.all_declined:
            return EXIT_CODES[RunStatus.BLOCKED_POLICY]
        return EXIT_CODES[RunStatus.SUCCESS] if self.ok else EXIT_CODES[RunStatus.FAILED]

    @property
    def first_drift(self) -> ReplayStep | None:
        return next((s for s in self.steps if s.drifted), None)

    def summary(self) -> str:
        replayed = f"replayed {plural(self.replayed, 'action')} of {self.source_run}"
        if not self.replayed:
            return f"nothing was replayed from {self.source_run}: {self._why_nothing()}"
        drift = self.first_drift
        if drift is None:
            return f"{replayed}: no drift"
        healed = [s for s in self.steps if s.heal is not None]
        if healed:
            stages = ", ".join(f"seq {s.seq} by {s.heal.stage}" for s in healed if s.heal is not None)
            return f"{replayed}: healed {len(healed)} ({stages})"
        what = "outcome" if drift.status != "ok" else ("URL" if not drift.url_match else "DOM")
        return (
            f"{replayed}: drift at seq {drift.seq} ({drift.kind}): "
            f"{what} differs ({drift.status}; url {drift.url_expected!r} -> {drift.url_actual!r})"
        )

    def _why_nothing(self) -> str:
        if self.all_declined and self.steps:
            return "you declined every step at this replay's gates, so no action was performed"
        if self.all_declined:
            return "every step was declined in the original run, so it recorded no action to replay"
        if not self.steps:
            return "the run recorded no action to replay"
        notes = list(dict.fromkeys(s.note for s in self.steps if s.note))
        return f"every recorded action was skipped ({'; '.join(notes)})"

    def to_dict(self) -> dict[str, Any]:
        steps = [{**asdict(s), "url_match": s.url_match, "dom_match": s.dom_match, "drifted": s.drifted}
                 for s in self.steps]  # fmt: skip
        return {"source_run": self.source_run, "replay_run": self.replay_run, "ok": self.ok,
                "outcome": self.outcome, "replayed": self.replayed, "declined": self.declined,
                "summary": self.summary(), "steps": steps}  # fmt: skip


def recorded_actions(run_dir: Path) -> list[ActionRecord]:
    report = verify(run_dir)
    if not report.ok:
        raise ReplayError(f"receipts of {run_dir} do not verify: {report.summary()}")
    return [r for _, r in read_records(RunFolder(run_dir)) if isinstance(r, ActionRecord)]


def _why_skip(record: ActionRecord) -> str | None:
    if record.outcome.status != "ok":
        return f"not replayed: {record.outcome.status} in the original run"
    if record.action.get("kind") == "done":
        return "end marker"
    value = record.action.get("value")
    if value == REDACTED or (isinstance(value, list) and REDACTED in value):
        return "value was redacted in the receipts"
    return None


def _candidates(record: ActionRecord) -> list[tuple[str, dict[str, Any]]]:
    """(how, action dict) to try in order: the recorded target, then the resolved selector."""
    action = dict(record.action)
    target = action.get("target")
    if not isinstance(target, dict):
        return [("recorded", action)]
    selector = (record.target_resolved or {}).get("selector")
    tries = [] if "index" in target else [("recorded", action)]
    if selector:
        tries.append(("selector", {**action, "target": {"selector": selector}}))
    return tries


def _parse(data: dict[str, Any]) -> Action | None:
    try:
        return parse_action(data)
    except ValidationError:
        return None


async def replay_run(
    run_dir: Path | str,
    driver: BrowserDriver,
    recorder: Recorder,
    *,
    include_risky: bool = False,
    confirm: ConfirmHandler | None = None,
    signer: KeySource | None = None,
    heal: bool = False,
) -> ReplayReport:
    """Replays every recorded action of `run_dir` on `driver`, recording into `recorder`; with
    `heal`, a target found neither as recorded nor by its selector is looked for again
    (executor/run/replay_heal.py)."""
    source = Path(run_dir)
    records = recorded_actions(source)
    gates = ReplayGates(source, confirm)  # the same gates as the original run
    declined = [step for step, gate in gates.gates.items() if gate.decision == "declined"]
    report = ReplayReport(source_run=source.name, replay_run=recorder.run_id, declined=declined)
    journal = receipts_journal(recorder.run_id, recorder)
    env = ActEnv(
        driver=driver, recorder=recorder, journal=journal, run_id=recorder.run_id, step_id="replay",
        run_dir=_root(recorder),
    )  # fmt: skip
    for record in records:
        env.step_id = record.step_id or "replay"
        step = ReplayStep(seq=record.seq, kind=str(record.action.get("kind")))
        report.steps.append(step)
        skip = _why_skip(record)
        tries = [(how, a) for how, a in _candidates(record) if _parse(a) is not None]
        if skip is None and not tries:
            skip = "no target usable outside the original page (index without a selector)"
        if skip is None:
            step_records = [r for r in records if r.step_id == record.step_id]
            skip = await gates.skip_reason(
                env.step_id, recorder.run_id, show=partial(_show, env, step_records)
            )
        if skip is None and not include_risky:
            risk = classify(parse_action(tries[0][1]), await driver.observe())
            skip = f"would {risk}; replay with include_risky to perform it" if risk is not None else None
        if skip is not None:
            step.status, step.note = "skipped", skip
            continue
        await _reach(env, record.before)
        for how, data in tries:
            done = await perform(env, parse_action(data), None, await capture_before(env))
            step.status, step.target_used = str(done.outcome.status), how
            if done.outcome.ok:
                break
        if heal and step.status == OutcomeStatus.NOT_FOUND:
            healed, step.heal = await heal_step(env, record)
            if healed is not None:
                step.status = str(healed.outcome.status)
        _compare(step, record.after, driver.url, env.last_after.dom_hash if env.last_after else None)
    level: Literal["info", "warning"] = "info" if report.ok else "warning"
    await journal.append(Noted(text=report.summary(), level=level, step_id="replay"))
    return report


async def _show(env: ActEnv, step_records: list[ActionRecord]) -> str | None:
    """A replay gate's picture: the step's replayable actions marked on the page they started from."""
    actions = [
        parse_action(tries[0][1])
        for r in step_records
        if _why_skip(r) is None and (tries := [t for t in _candidates(r) if _parse(t[1]) is not None])
    ]
    pages = (u for r in step_records for u in (r.before.url, str(r.action.get("url") or "")))
    start = next((u for u in pages if u.startswith(("http://", "https://"))), None)
    url = start if start != env.driver.url else None
    name = f"replay-{env.step_id}"
    return await look_and_note(env.driver, env.run_id, env.run_dir, name, url, lambda _: actions)


async def _reach(env: ActEnv, before: PageState) -> None:
    """A replay that starts mid-site first opens the page the original action started from."""
    if env.driver.url in ("", "about:blank") and before.url.startswith(("http://", "https://")):
        await perform(
            env, parse_action({"kind": "navigate", "url": before.url}), None, await capture_before(env)
        )


def _compare(step: ReplayStep, expected: PageState, url: str, dom_hash: str | None) -> None:
    step.url_expected, step.url_actual = expected.url, url
    step.dom_expected, step.dom_actual = expected.dom_hash, dom_hash


def _root(recorder: Recorder) -> Path:
    folder = getattr(recorder, "folder", None)
    return folder.root if isinstance(folder, RunFolder) else Path(".")


async def replay_to_folder(
    source_run_dir: Path | str,
    runs_dir: Path | str,
    *,
    launch_options: LaunchOptions | None = None,
    policy: BrowserPolicy | None = None,
    secrets: Mapping[str, str] | None = None,
    include_risky: bool = False,
    confirm: ConfirmHandler | None = None,
    signer: KeySource | None = None,
    heal: bool = False,
) -> ReplayReport:
    """`waypost replay RUN`: a fresh browser, a new run folder `replay_<run>_<id>`, the report in its
    run.json and a run_end record whose status is REPLAY_OK, REPLAY_DRIFT or REPLAY_NOTHING."""
    source = Path(source_run_dir)
    recorded_actions(source)  # refuse early, before a browser starts
    run_id = f"replay_{source.name}_{new_id('r').split('_', 1)[1]}"[:120]
    folder = RunFolder(Path(runs_dir) / run_id)
    recorder = await JsonlRecorder.open(folder, signer=signer)
    driver = await PlaywrightDriver.launch(
        launch_options,
        policy=policy,
        secrets=SecretVault(dict(secrets or {})),
        downloads_dir=folder.root / "downloads",
    )
    try:
        report = await replay_run(
            source, driver, recorder, include_risky=include_risky, confirm=confirm, heal=heal
        )
        await recorder.write_run_meta({"replay": report.to_dict(), "source_run": source.name})
        final = await driver.capture(screenshot=True)
        await recorder.finish(report.outcome, reason=report.summary(), final_state=final)
        return report
    finally:
        await driver.close()
        await recorder.aclose()
