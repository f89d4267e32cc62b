"""`waypost doctor`'s Qt check: can the window's platform plugin load here, and if not, what to install.

Why a subprocess: the window loads Qt's xcb platform plugin with dlopen when it starts, and Qt aborts
the whole process when that fails ("could not load the Qt platform plugin"). Finding PySide6 says
nothing about it: the plugin links to system libraries (libxcb-icccm, libxcb-keysyms, ...) that a bare
Debian/Ubuntu lacks. So the check loads the plugin in a child Python, as the window would (QLibrary,
Qt's own loader), and with a display also starts a QApplication there; `ldd` then lists every library
the loader cannot find, and app/qt_xcb_libraries.txt (the table scripts/bootstrap.sh installs from)
names each one's Debian/Ubuntu package.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from app.doctor import Check

#: The table of libraries and their packages, shared with scripts/bootstrap.sh.
TABLE = Path(__file__).with_name("qt_xcb_libraries.txt")
#: A child that hangs (a display that never answers) is given up after this long.
CHILD_TIMEOUT_S = 30.0

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)
_DLOPEN_MISSING = re.compile(r"([\w.+-]+\.so[\w.]*): cannot open shared object file")

#: Run in the child: load the plugin as Qt does, then (with a display) start the app as the window does.
_CHILD = r"""
import json, sys
from PySide6.QtCore import QLibrary
lib = QLibrary(sys.argv[1])
loaded = lib.load()
print(json.dumps({"loaded": loaded, "error": "" if loaded else lib.errorString()}), flush=True)
if loaded and sys.argv[2] == "start":
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    print(json.dumps({"platform": app.platformName()}), flush=True)
"""


@dataclass(frozen=True)
class PluginLoad:
    """What the child saw: whether the plugin loaded, the loader's error, the platform that started."""

    loaded: bool
    error: str = ""
    platform: str = ""
    #: The child's last stderr lines when it ended badly (Qt's own "could not load" message).
    stderr: str = ""


def read_table(path: Path = TABLE) -> dict[str, tuple[str, ...]]:
    """soname -> the package names that provide it (alternatives, newest first)."""
    table: dict[str, tuple[str, ...]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) >= 2 and not fields[0].startswith("#"):
            table[fields[0]] = tuple(fields[1].split("|"))
    return table


def pyside_dir() -> Path | None:
    """PySide6's folder, found without importing it (doctor must work where Qt cannot load)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def xcb_plugin(pyside: Path | None = None) -> Path | None:
    folder = pyside or pyside_dir()
    plugin = folder / "Qt" / "plugins" / "platforms" / "libqxcb.so" if folder else None
    return plugin if plugin is not None and plugin.is_file() else None


def linked_libraries(plugin: Path) -> dict[str, str | None]:
    """Every library `ldd` lists for the plugin: soname -> path, None where the loader finds none."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return {}
    done = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    libraries: dict[str, str | None] = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("linux-vdso"):
            continue
        if "=>" in parts:
            target = parts[parts.index("=>") + 1]
            libraries[parts[0]] = None if target == "not" else target
        else:
            libraries[Path(parts[0]).name] = parts[0]
    return libraries


def missing_libraries(plugin: Path, load: PluginLoad) -> list[str]:
    """The libraries the loader cannot find: all of them from `ldd`, else the one dlopen named."""
    missing = [name for name, path in linked_libraries(plugin).items() if path is None]
    if not missing:
        missing = _DLOPEN_MISSING.findall(load.error)
    return list(dict.fromkeys(missing))


def load_plugin(plugin: Path, *, start: bool) -> PluginLoad:
    """Loads the plugin in a child Python; with `start`, the child also opens a QApplication."""
    env = dict(os.environ)
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(plugin), "start" if start else "load"],
            capture_output=True,
            text=True,
            env=env,
            timeout=CHILD_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        return PluginLoad(False, f"the check did not finish in {CHILD_TIMEOUT_S:.0f} s")
    facts: dict[str, object] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            facts.update(json.loads(line))
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    # Qt's first qt.qpa line is the cause ("could not connect to display :1"); later ones guess at fixes.
    tail = next((line for line in lines if line.startswith("qt.qpa.")), lines[-1] if lines else "")
    loaded = bool(facts.get("loaded"))
    error = str(facts.get("error") or "")
    if not facts:
        error = tail or f"the check ended with code {done.returncode}"
    return PluginLoad(
        loaded=loaded,
        error=error,
        platform=str(facts.get("platform") or ""),
        stderr=tail if done.returncode != 0 else "",
    )


def package_for(names: tuple[str, ...]) -> str:
    """Of a library's package names (newest first), the first one apt knows here, else the last
    (the name older releases use)."""
    apt_cache = shutil.which("apt-cache")
    if len(names) > 1 and apt_cache is not None:
        for name in names:
            known = subprocess.run(
                [apt_cache, "show", "--no-all-versions", name], capture_output=True, timeout=CHILD_TIMEOUT_S
            )
            if known.returncode == 0 and known.stdout:
                return name
    return names[-1]


def install_fix(missing: list[str], table: dict[str, tuple[str, ...]]) -> str:
    """The command that installs what is missing, and the libraries no package is known for."""
    packages = dict.fromkeys(package_for(table[name]) for name in missing if name in table)
    unknown = [name for name in missing if name not in table]
    parts = [f"apt-get install -y {' '.join(packages)} (Debian/Ubuntu)"] if packages else []
    if unknown:
        parts.append(f"find the package providing {', '.join(unknown)} (apt-file search NAME)")
    return "; ".join(parts)


def check_qt() -> Check:
    """ok only when the xcb plugin loads here (and, with a display, a QApplication starts on it)."""
    pyside = pyside_dir()
    plugin = xcb_plugin(pyside)
    if pyside is None or plugin is None:
        absent = "PySide6 or its xcb platform plugin is missing"
        return Check("qt", False, absent, "reinstall with ./waypost.sh")
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    display = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    start = bool(display) and platform != "offscreen"
    load = load_plugin(plugin, start=start)
    if not load.loaded:
        missing = missing_libraries(plugin, load)
        named = f"missing {', '.join(missing)}" if missing else load.error
        return Check(
            "qt",
            False,
            f"Qt's xcb platform plugin cannot load, so the window cannot open: {named}",
            install_fix(missing, read_table()) or "reinstall with ./waypost.sh",
        )
    if platform == "offscreen":
        return Check("qt", True, "xcb plugin loads; QT_QPA_PLATFORM=offscreen (no window will show)")
    if not display:
        return Check(
            "qt",
            False,
            "the xcb plugin loads, but there is no display: the window cannot open",
            "run under Xvfb (xvfb-run -a waypost gui) or use the CLI commands",
        )
    if not load.platform:
        return Check(
            "qt",
            False,
            f"the window could not start on display {display}: {load.stderr or load.error}",
            "check DISPLAY (or WAYLAND_DISPLAY) names a display this user may use",
        )
    return Check("qt", True, f"a window starts on display {display} ({load.platform} platform)")
