"""What a gate shows a person: the page the step or action will act on, with those elements marked.

- Step gates (the gate desk, before a step): the step runner's own look when it has one
  (`executor.tools.registry.Previewing`: an ACT-family step opens its start page in a tab of its own and
  marks its actions' elements), else the run's page as it is now.
- Action gates (inside a step): the action's own element on the page as it is.
- Replay gates (executor/run/replay.py): the recorded actions of the step, on the page they started from.
- No page to look at (a run resumed in a new process, asked before its browser started): the run's
  last recorded page, copied into the gates folder with the time it was recorded, so the window says
  how old it is.

Each picture gets a GatePreview note (executor/gates/preview.py) with the marks: numbered boxes in the
picture's pixels and the values to be typed, secrets as their placeholders.
"""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from browser.driver import BrowserDriver, LookAware
from browser.look_ahead import Chooser, Look, LookRefused
from browser.models import Action, Observation, PageCapture
from executor.gates.preview import GateMark, fresh_path, read_gate_preview, take_gate_preview, write_preview
from executor.run.resources import RunResources
from executor.tools.registry import Previewing, RunnerRegistry
from planner.models import Step
from receipts.errors import RunFolderError
from receipts.layout import RunFolder, link_file
from receipts.models import ActionRecord
from receipts.report import read_records

#: The run folder's subfolder holding gate pictures and their notes.
GATES = "gates"


def value_of(action: Action) -> str | None:
    """What the action types or chooses, as the plan holds it (a secret stays a placeholder)."""
    value = getattr(action, "value", None)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, str):
        return value
    if action.kind == "check":
        return "tick" if getattr(action, "checked", True) else "untick"
    if action.kind == "press":
        return str(getattr(action, "key", ""))
    return None


def marks_of(look: Look) -> list[GateMark]:
    marks = []
    for n, mark in enumerate(look.marks, start=1):
        action = look.actions[mark.position]
        box = [mark.box.x, mark.box.y, mark.box.width, mark.box.height] if mark.box is not None else None
        mark_of = GateMark(n=n, kind=action.kind, label=mark.label, value=value_of(action), box=box)
        marks.append(mark_of.model_copy(update={"found": mark.found}))
    return marks


#: The file of a receipt's picture that shows exactly this state, if there is one
#: (receipts.recorder.JsonlRecorder.recorded_shot).
Recorded = Callable[[PageCapture], Path | None]


async def look_and_note(
    driver: BrowserDriver,
    run_id: str,
    run_dir: Path,
    name: str,
    url: str | None,
    choose: Chooser,
    note: str = "",
    recorded: Recorded | None = None,
) -> str | None:
    """The picture of `url` (the active tab when None) with the chosen actions' elements marked, and
    its note; the page as it is when the driver cannot look (or the page would not open), saying why.
    On the active tab, `recorded` may name a receipt's picture of the very same state: the gate's
    picture is then that file (a link to it), not a second screenshot."""
    folder = run_dir / GATES
    if not isinstance(driver, LookAware):
        return await take_gate_preview(driver, run_id, folder, name)
    reuse = url is None and recorded is not None
    try:
        look = await driver.look(url, choose, None if reuse else fresh_path(folder, name))
    except LookRefused as exc:
        capture = await driver.capture(screenshot=True, path=fresh_path(folder, name))
        return write_preview(capture, run_id, note=f"The step's page could not be opened for a look: {exc}")
    capture = look.capture
    if reuse:
        capture = await _picture(driver, capture, recorded, fresh_path(folder, name))
    return write_preview(capture, run_id, marks=marks_of(look), viewport_width=look.viewport_width, note=note)


async def _picture(
    driver: BrowserDriver, state: PageCapture, recorded: Recorded | None, path: Path
) -> PageCapture:
    """`state` pictured at `path`: a link to the receipt's file of the same state, else a new shot."""
    shot = recorded(state) if recorded is not None else None
    if shot is not None and shot.is_file():
        link_file(shot, path)  # one file on disk; receipts' files are never rewritten
        return state.model_copy(update={"screenshot_path": str(path)})
    return await driver.capture(screenshot=True, path=path)


async def look_at_action(
    driver: BrowserDriver,
    run_id: str,
    run_dir: Path,
    name: str,
    action: Action,
    recorded: Recorded | None = None,
) -> str | None:
    """An action gate's picture: the page as it is, the action's element marked."""

    def choose(_: Observation) -> Sequence[Action]:
        return [action]

    return await look_and_note(driver, run_id, run_dir, name, None, choose, recorded=recorded)


def last_recorded(run_dir: Path, run_id: str, name: str) -> str | None:
    """The run's newest recorded page (an action's after-picture, or an earlier gate's picture),
    copied for this question with its own time; None when the run recorded no page."""
    newest: tuple[datetime, Path, str, str] | None = None
    folder = RunFolder(run_dir)
    for _, record in read_records(folder) if folder.receipts.exists() else ():
        if isinstance(record, ActionRecord) and record.after.shot is not None:
            try:
                picture = folder.resolve(record.after.shot.path)
            except RunFolderError:
                continue  # a ref outside the folder is never opened
            if newest is None or record.time >= newest[0]:
                newest = (record.time, picture, record.after.url, record.after.title)
    for note in sorted((run_dir / GATES).glob("*.json")) if (run_dir / GATES).is_dir() else ():
        preview = read_gate_preview(str(note.with_suffix(".png")), run_id)
        if preview is not None and (newest is None or preview.taken_at >= newest[0]):
            newest = (preview.taken_at, Path(preview.screenshot_path), preview.url, preview.title)
    if newest is None or not newest[1].is_file():
        return None
    taken_at, picture, url, title = newest
    copy = fresh_path(run_dir / GATES, name)
    shutil.copyfile(picture, copy)
    capture = PageCapture(url=url, title=title, dom_hash="0" * 64, screenshot_path=str(copy))
    return write_preview(capture, run_id, taken_at=taken_at, recorded=True)


async def page_now(resources: RunResources | None, name: str) -> str | None:
    """The run's page as it is now; its last recorded page when no browser is open."""
    if resources is None:
        return None
    if not resources.browser_started:
        return last_recorded(resources.run_dir, resources.run_id, name)
    driver = await resources.driver()
    return await take_gate_preview(driver, resources.run_id, resources.run_dir / GATES, name)


#: The outputs of the steps finished so far, as the conductor holds them.
Outputs = Callable[[], Mapping[str, Mapping[str, Any]]]


class StepPictures:
    """What a step's gate question shows: the step runner's look, else the page now, else the run's
    last recorded page."""

    def __init__(self, registry: RunnerRegistry, resources: RunResources | None, outputs: Outputs) -> None:
        self.registry = registry
        self.resources = resources
        self.outputs = outputs

    async def __call__(self, step: Step) -> str | None:
        runner: object = self.registry.get(step.type_name)  # a runner may also be Previewing
        if self.resources is not None and isinstance(runner, Previewing):
            shot = await runner.preview(step, self.resources, self.outputs())
            if shot is not None:
                return shot
        return await page_now(self.resources, step.step_id)


#: A step gate's picture maker, as the gate desk calls it.
ShowStep = Callable[[Step], Awaitable[str | None]]
