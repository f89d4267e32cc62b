"""The layer graph of docs/architecture.md, enforced: which package may import which, and where Qt,
Playwright and openai live."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("app", "ui", "batch", "executor", "planner", "browser", "receipts", "voice", "common")

#: Imports allowed across packages (a package may always import itself). `common` is the bottom of the
#: graph: everyone may import it and it imports no package of ours. A dotted entry allows only that
#: module. The one sideways entry: planner's cognition decides from a page Observation, a plain data
#: model of browser/ that drives nothing.
BOTTOM = "common"
ALLOWED: dict[str, set[str]] = {
    "app": {"ui", "batch", "executor", "planner", "browser", "receipts", "voice"},
    "batch": {"executor", "planner", "browser", "receipts"},
    "ui": {"executor", "planner", "receipts", "browser.models", "voice"},
    "executor": {"planner", "browser", "receipts"},
    "planner": {"browser.models"},
    "receipts": set(),
    "browser": set(),
    "common": set(),
    "voice": {"receipts.layout"},
}
#: Entries of ALLOWED that are neither downward nor the bottom package: kept short on purpose.
SIDEWAYS = {("planner", "browser.models")}
#: Third-party modules confined to some packages (or, for openai, to one module).
CONFINED: dict[str, tuple[str, ...]] = {
    "PySide6": ("app", "ui"),
    "qasync": ("app", "ui"),
    "playwright": ("browser",),
    "openai": ("planner/llm.py", "voice/endpoint.py"),
    "pocketsphinx": ("voice/offline.py",),
    "faster_whisper": ("voice/whisper.py",),
    "ctranslate2": (),
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # "from browser.models import X" names browser.models; "from browser import models" names
            # browser.models too, so both spellings meet the same rule.
            top_level = node.module.count(".") == 0
            found.extend(
                (node.lineno, f"{node.module}.{a.name}" if top_level else node.module) for a in node.names
            )
    return list(dict.fromkeys(found))


def violations() -> list[str]:
    problems: list[str] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, name in imports_of(path):
                top = name.split(".")[0]
                if top in PACKAGES and top != package:
                    allowed = ALLOWED[package] | ({BOTTOM} if package != BOTTOM else set())
                    permitted = top in allowed or any(
                        name == a or name.startswith(a + ".") or a.startswith(name + ".") for a in allowed
                    )
                    if not permitted:
                        problems.append(f"{rel}:{line} imports {name} ({package} may not use {top})")
                if top in CONFINED and not any(rel == c or rel.startswith(c + "/") for c in CONFINED[top]):
                    problems.append(f"{rel}:{line} imports {top}, allowed only in {', '.join(CONFINED[top])}")
    return problems


def test_layers_hold() -> None:
    assert violations() == []


def test_only_justified_sideways_imports_are_allowed() -> None:
    """receipts/ and browser/ import no sibling package; planner reads only browser's data models."""
    sideways = {
        (package, allowed)
        for package, targets in ALLOWED.items()
        for allowed in targets
        if package in {"planner", "browser", "receipts"}
    }
    assert sideways == SIDEWAYS


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("planner", "import playwright.async_api\n", "allowed only in browser"),
        ("executor", "from PySide6.QtCore import QObject\n", "allowed only in app, ui"),
        ("browser", "from executor.models import RunStatus\n", "browser may not use executor"),
        ("planner", "from browser.session import BrowserSession\n", "planner may not use browser"),
        ("receipts", "from planner.models import Step\n", "receipts may not use planner"),
        ("browser", "from planner.models import Step\n", "browser may not use planner"),
        ("common", "from planner.models import Step\n", "common may not use planner"),
    ],
)
def test_the_checker_catches_a_violation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str, source: str, expected: str
) -> None:
    for name in PACKAGES:
        (tmp_path / name).mkdir()
    (tmp_path / package / "bad.py").write_text(source)
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    (problem,) = violations()
    assert expected in problem
