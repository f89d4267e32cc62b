"""`waypost doctor` on the window's platform plugin: the library table matches the plugin, and a missing
library is named with its package (the window aborted on a bare Debian while doctor said "ok qt")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.doctor_qt import linked_libraries, pyside_dir, read_table, xcb_plugin

ROOT = Path(__file__).resolve().parents[2]


def _plugin() -> Path:
    plugin = xcb_plugin()
    assert plugin is not None, "PySide6's xcb platform plugin is not installed"
    return plugin


def test_the_table_names_every_library_the_plugin_links_to() -> None:
    pyside = pyside_dir()
    assert pyside is not None
    libraries = linked_libraries(_plugin())
    assert libraries, "ldd listed nothing for the plugin"
    outside = {name for name, path in libraries.items() if path is None or not path.startswith(str(pyside))}
    table = read_table()
    assert outside - set(table) == set(), "add these to app/qt_xcb_libraries.txt with their package"
    assert "libxcb-icccm.so.4" in outside and "libxcb-keysyms.so.1" in outside


def test_the_bootstrap_installs_every_package_of_the_table() -> None:
    listed = subprocess.run(
        ["bash", "-c", "source scripts/bootstrap.sh && _xcb_packages"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    wanted = {"|".join(names) for names in read_table().values()}
    assert set(listed) == wanted


def _doctor(env: dict[str, str], prefix: list[str] | None = None) -> dict[str, dict[str, object]]:
    done = subprocess.run(
        [*(prefix or []), sys.executable, "-m", "app", "doctor", "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout, done.stderr
    return {check["name"]: check for check in json.loads(done.stdout)}


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}}
    env.update(WAYPOST_RUNS_DIR=str(tmp_path / "runs"), XDG_CONFIG_HOME=str(tmp_path / "config"), **extra)
    return env


def _hiding(soname: str, folder: Path, scratch: Path) -> list[str]:
    """A command prefix that runs the rest in a mount namespace where `folder` lacks `soname`: the
    folder is swapped for one of links to everything else in it, as on a machine without that package."""
    script = (
        'set -e; orig="$2/orig"; farm="$2/farm"; mkdir "$orig" "$farm"; mount --bind "$0" "$orig"; '
        'ln -s "$orig"/* "$farm"/; rm -f "$farm/$1" "$farm/$1".*; mount --bind "$farm" "$0"; '
        'shift 2; exec "$@"'
    )
    return ["unshare", "--mount", "--map-root-user", "sh", "-c", script, str(folder), soname, str(scratch)]


@pytest.mark.slow
def test_doctor_names_a_missing_library_and_its_package(tmp_path: Path) -> None:
    soname = "libxcb-icccm.so.4"
    where = linked_libraries(_plugin()).get(soname)
    if where is None:  # missing on this machine already: doctor must say so as it is
        prefix: list[str] = []
    else:
        if subprocess.run(["unshare", "--mount", "--map-root-user", "true"], capture_output=True).returncode:
            pytest.skip("cannot make a mount namespace here to hide a library")
        prefix = _hiding(soname, Path(os.path.realpath(Path(where).parent)), tmp_path)
    qt = _doctor(_env(tmp_path, QT_QPA_PLATFORM="offscreen"), prefix)["qt"]
    assert qt["ok"] is False
    assert soname in str(qt["detail"]) and "window cannot open" in str(qt["detail"])
    assert "apt-get install -y libxcb-icccm4" in str(qt["fix"])


def test_doctor_says_the_window_cannot_open_without_a_display(tmp_path: Path) -> None:
    qt = _doctor(_env(tmp_path))["qt"]
    assert qt["ok"] is False and "no display" in str(qt["detail"]) and "xvfb-run" in str(qt["fix"])
    qt = _doctor(_env(tmp_path, DISPLAY=":73"))["qt"]  # a display no server answers
    assert qt["ok"] is False and "could not connect to display :73" in str(qt["detail"])
