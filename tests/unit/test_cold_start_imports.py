"""Cold start is structural: the CLI's plan path and the window's first paint must not import the
heavy libraries they do not use (docs/architecture.md, "Cold start"). Timings live in
benchmarks/cold_start.py; these tests check which modules a fresh interpreter has loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HEAVY = (
    "openai",
    "playwright",
    "PySide6",
    "numpy",
    "pocketsphinx",
    "faster_whisper",
    "ctranslate2",
    "trafilatura",
    "bm25s",
    "pypdf",
)


def _modules_after(code: str, tmp_path: Path) -> set[str]:
    """Every module in sys.modules after running `code` in a new interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = {
        **os.environ,
        "WAYPOST_CONFIG_DIR": str(tmp_path / "config"),
        "WAYPOST_DATA_DIR": str(tmp_path / "data"),
        "OPENAI_API_KEY": "",
        "OPENAI_BASE_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _loaded_after(code: str, tmp_path: Path) -> list[str]:
    """Top-level heavy packages in sys.modules after running `code` in a new interpreter."""
    return sorted({m.split(".")[0] for m in _modules_after(code, tmp_path)} & set(HEAVY))


def test_help_loads_the_parser_and_nothing_of_the_commands(tmp_path: Path) -> None:
    """`waypost --help` needs argparse: no pydantic schema, no contract, no settings."""
    code = (
        "import contextlib, io, sys\nfrom app.entry import main\nsys.argv = ['waypost', '--help']\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main()"
    )
    loaded = _modules_after(code, tmp_path)
    ours = {
        m
        for m in loaded
        if m.split(".")[0] in {"app", "executor", "planner", "browser", "receipts", "common"}
    }
    assert ours == {
        "app",
        "app.entry",
        "app.stopped",  # a signal during start-up is answered (standard library only)
        "common",
        "common.moments",  # start-up moments for the fault tests (standard library only)
        "app.cli_parser",
        "app.cli_batch_args",
        "executor",
        "executor.gates",  # the subpackage's __init__.py: a docstring, nothing imported
        "executor.gates.approval",
    }
    assert "pydantic" not in loaded


def test_importing_the_cli_loads_no_heavy_library(tmp_path: Path) -> None:
    assert _loaded_after("import app.cli", tmp_path) == []


def test_plan_with_the_rules_loads_no_heavy_library(tmp_path: Path) -> None:
    code = (
        "import contextlib, io\nfrom app.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['plan', 'open 127.0.0.1:9/a and read the title', '--planner', 'rules', "
        f"'--runs-dir', {str(tmp_path / 'runs')!r}, '--json']) == 0"
    )
    assert _loaded_after(code, tmp_path) == []
    loaded = _modules_after(code, tmp_path)
    assert "executor.models" not in loaded  # the run contracts: for runs
    # The rules plan runs in plain Python: no event loop (asyncio with ssl, sockets, threads) and no
    # model client module are started for it.
    assert not {"asyncio", "planner.llm", "planner.architect", "app.wiring"} & loaded


def test_a_core_without_a_model_loads_neither_the_model_client_nor_qt(tmp_path: Path) -> None:
    """`waypost run` needs Playwright; without a model it needs no model client, no numpy, no Qt."""
    code = (
        "from app.settings import load_settings\nfrom app.wiring import build_core\n"
        f"build_core(load_settings(overrides={{'runs_dir': {str(tmp_path / 'runs')!r}}}, read_keyring=False))"
    )
    assert _loaded_after(code, tmp_path) == ["playwright"]
