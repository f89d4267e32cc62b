"""One owner per run-wide concern, enforced the way test_layers enforces imports (docs/architecture.md).

Gate decisions are made and asked only at the gate desk; run state (step runs, approvals,
checkpoints, plan versions, the run's start and end), the receipts (actions, dialogs, reads, gate
answers, notes) and the live events are written only by the run journal's subscribers
(executor/journal/views.py), with the few exceptions listed in OWNERS, each saying why.
Also the size limits that keep the executor readable: no function over 60 lines, no module over 450.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "ui", "batch", "voice", "executor", "planner", "browser", "receipts", "common")
VIEWS = "executor/journal/views.py"

#: A call or construction by name -> the only modules that may make it.
OWNERS: dict[str, frozenset[str]] = {
    # run state: the journal's store subscriber, and the journal itself for checkpoints
    "save_step": frozenset({VIEWS}),
    "record_approval": frozenset({VIEWS}),
    "start_run": frozenset({VIEWS}),
    "finish_run": frozenset({VIEWS}),
    "replace_plan": frozenset({VIEWS}),
    "save_checkpoint": frozenset({"executor/journal/run_journal.py"}),
    # receipts: the journal's receipts subscriber. Besides it, the run's resources write run.json and
    # the trace's notes when the run closes, a replay writes its report into its own run.json, and
    # the recorder notes a chain it repaired on opening.
    "record_action": frozenset({VIEWS}),
    "record_dialog": frozenset({VIEWS}),
    "record_evidence": frozenset({VIEWS}),
    "record_snapshot": frozenset({VIEWS}),
    "record_note": frozenset({VIEWS, "executor/run/resources.py", "receipts/recorder.py"}),
    "write_run_meta": frozenset({VIEWS, "executor/run/resources.py", "executor/run/replay.py"}),
    # live events: the journal's bus subscriber; the tool engine's per-call event (the call itself is
    # stored with its step run); the window's bus passes events on to its parent.
    "publish": frozenset({VIEWS, "executor/tools/engine.py", "ui/run_bus.py"}),
    # gates: decided by the gatekeeper, asked and recorded at the desk
    "record_gate_decision": frozenset({VIEWS}),
    "GateDecisionV1": frozenset({"executor/gates/gatekeeper.py", "executor/gates/desk.py"}),
    "ConfirmRequest": frozenset({"executor/gates/desk.py"}),
}
#: Secrets: the placeholder grammar and the redaction marker are spelled once, in the secrets owner.
SECRETS_OWNER = "common/secrecy.py"
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 450


def _called_name(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def owner_violations(root: Path = ROOT) -> list[str]:
    problems: list[str] = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
                if not isinstance(node, ast.Call):
                    continue
                name = _called_name(node)
                if name in OWNERS and rel not in OWNERS[name]:
                    problems.append(
                        f"{rel}:{node.lineno} calls {name} (only {', '.join(sorted(OWNERS[name]))})"
                    )
    return problems


def secret_spellings(root: Path = ROOT) -> list[str]:
    """String constants that re-spell the placeholder pattern or the redaction marker."""
    problems: list[str] = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel == SECRETS_OWNER:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
                if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                    continue
                if "\\{\\{secret" in node.value or node.value == "[REDACTED]":
                    problems.append(f"{rel}:{node.lineno} spells {node.value[:30]!r}")
    return problems


def size_violations(root: Path = ROOT) -> list[str]:
    """Modules of every package stay under MAX_MODULE_LINES; executor functions under MAX_FUNCTION_LINES."""
    problems: list[str] = []
    for path in sorted(
        p for package in (*PACKAGES, "voice", "evals") for p in (root / package).rglob("*.py")
    ):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            problems.append(f"{rel} has {len(text.splitlines())} lines")
        if not rel.startswith("executor/"):
            continue
        for node in ast.walk(ast.parse(text, filename=rel)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    problems.append(f"{rel}:{node.lineno} {node.name} has {length} lines")
    return problems


def test_gates_and_run_state_have_one_owner() -> None:
    assert owner_violations() == []


def test_secrets_grammar_and_marker_are_spelled_once() -> None:
    assert secret_spellings() == []


def test_the_checker_catches_a_second_placeholder_pattern(tmp_path: Path) -> None:
    for name in PACKAGES:
        (tmp_path / name).mkdir()
    (tmp_path / "planner" / "p.py").write_text('import re\nP = re.compile(r"\\{\\{secret:([a-z]+)\\}\\}")\n')
    (problem,) = secret_spellings(tmp_path)
    assert "planner/p.py:2" in problem


def test_modules_and_executor_functions_stay_short() -> None:
    assert size_violations() == []


@pytest.mark.parametrize(
    ("rel", "source", "expected"),
    [
        ("executor/act/loop.py", "store.save_step(r, s)\n", "calls save_step"),
        ("executor/run/conductor.py", "self.store.save_checkpoint(r, None)\n", "calls save_checkpoint"),
        ("executor/act/loop.py", "GateDecisionV1(gate_id='g')\n", "calls GateDecisionV1"),
        ("app/core.py", "await rec.record_gate_decision(gate_id='g')\n", "calls record_gate_decision"),
        ("executor/act/perform.py", "await env.recorder.record_action(action=a)\n", "calls record_action"),
        ("executor/act/loop.py", "await env.recorder.record_note('x')\n", "calls record_note"),
        ("executor/run/revision.py", "store.replace_plan(r, p)\n", "calls replace_plan"),
        ("executor/run/revision.py", "await rec.write_run_meta({})\n", "calls write_run_meta"),
        ("executor/run/revision.py", "events.publish(e)\n", "calls publish"),
        ("batch/runner.py", "sink.publish(e)\n", "calls publish"),
    ],
)
def test_the_checker_catches_a_stray_writer(tmp_path: Path, rel: str, source: str, expected: str) -> None:
    for name in PACKAGES:
        (tmp_path / name).mkdir()
    target = tmp_path / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(source)
    (problem,) = owner_violations(tmp_path)
    assert expected in problem


def test_the_checker_catches_a_long_function(tmp_path: Path) -> None:
    for name in PACKAGES:
        (tmp_path / name).mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (tmp_path / "executor" / "long.py").write_text(f"def long() -> None:\n{body}")
    (problem,) = size_violations(tmp_path)
    assert "long has 61 lines" in problem


#: Documents a reader of this repository does not have; the code points at docs/architecture.md.
OUTSIDE_DOCS = re.compile(r"DESIGN\.md|ENVIRONMENT\.md|STYLE\.md|\b[Ss]eed 00\d|\bStage [1-4]\b|run_stage4")
SECTION_REF = re.compile(r'docs/architecture\.md,\s+"([^"]+)"')


def _texts(root: Path) -> list[Path]:
    found = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    for package in (*PACKAGES, "tests", "benchmarks", "scripts"):
        found.extend(sorted((root / package).rglob("*.py")))
    return [p for p in found if p.is_file()]


def test_the_repository_cites_only_itself() -> None:
    this = Path(__file__).resolve()
    hits = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in _texts(ROOT)
        if p.resolve() != this
        for m in OUTSIDE_DOCS.finditer(p.read_text(encoding="utf-8"))
    ]
    assert hits == []


def test_every_cited_section_of_the_architecture_exists() -> None:
    headings = {
        line.lstrip("#").strip()
        for line in (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    cited = {
        (p.relative_to(ROOT).as_posix(), " ".join(m.group(1).split()))
        for p in _texts(ROOT)
        for m in SECTION_REF.finditer(p.read_text(encoding="utf-8"))
    }
    assert cited and {(where, section) for where, section in cited if section not in headings} == set()
