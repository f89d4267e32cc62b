"""scripts/bootstrap.sh picks the Python the locks are resolved for when it is present, so the pinned,
hashed packages are installed rather than pyproject.toml's ranges (docs/install.md, "Dependencies")."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash") or "/bin/bash"


def _fake_pythons(folder: Path, versions: dict[str, tuple[int, int]]) -> None:
    """Interpreters named as on PATH, each this Python claiming another version to the code it runs."""
    folder.mkdir()
    for name, version in versions.items():
        script = folder / name
        script.write_text(
            f'#!/bin/sh\n[ "$1" = "-c" ] || exit 1\n'
            f'exec "{sys.executable}" -c "import sys; sys.version_info = {version}; $2"\n',
            encoding="utf-8",
        )
        script.chmod(0o755)
    for tool in ("dirname",):  # what sourcing bootstrap.sh runs, with PATH holding only the fakes
        (folder / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")


def _picked(folder: Path, **env: str) -> str:
    done = subprocess.run(
        [BASH, "-c", "source scripts/bootstrap.sh && _pick_python"],
        cwd=ROOT,
        env={"PATH": str(folder), "HOME": os.environ.get("HOME", "/"), **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip()).name


@pytest.mark.parametrize(
    ("versions", "expected"),
    [
        ({"python3.13": (3, 13), "python3.12": (3, 12), "python3.11": (3, 11)}, "python3.11"),
        ({"python3.13": (3, 13), "python3": (3, 11)}, "python3"),
        ({"python3.13": (3, 13), "python3.12": (3, 12), "python3": (3, 12)}, "python3.13"),
    ],
    ids=["locked-by-name", "locked-as-python3", "newest-without-the-locked"],
)
def test_the_locked_python_comes_first_when_present(
    tmp_path: Path, versions: dict[str, tuple[int, int]], expected: str
) -> None:
    _fake_pythons(tmp_path / "bin", versions)
    assert _picked(tmp_path / "bin") == expected


def test_waypost_python_is_the_persons_choice(tmp_path: Path) -> None:
    _fake_pythons(tmp_path / "bin", {"python3.13": (3, 13), "python3.11": (3, 11)})
    assert _picked(tmp_path / "bin", WAYPOST_PYTHON="python3.13") == "python3.13"


def test_the_bootstrap_names_the_python_the_locks_are_resolved_for() -> None:
    lock_script = (ROOT / "scripts" / "lock.sh").read_text(encoding="utf-8")
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    (resolved,) = re.findall(r"--python-version ([0-9.]+)", lock_script)
    assert f'WAYPOST_LOCKED_PYTHON="{resolved}"' in bootstrap
