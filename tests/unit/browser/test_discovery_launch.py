"""Chromium discovery order and launch flags, without starting a browser."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from browser.discovery import ENV_VAR, ChromiumNotFound, find_chromium
from browser.launch import BASE_ARGS, chromium_args


def _exe(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def _which(found: dict[str, str]):
    return lambda name: found.get(name)


def test_env_var_wins(tmp_path: Path) -> None:
    exe = _exe(tmp_path / "my-chrome")
    bundled = _exe(tmp_path / "bundled")
    assert find_chromium(str(bundled), {ENV_VAR: str(exe)}, _which({"chromium": "/usr/bin/chromium"})) == exe


def test_env_var_naming_a_missing_file_is_an_error_not_a_fallback(tmp_path: Path) -> None:
    with pytest.raises(ChromiumNotFound, match=ENV_VAR):
        find_chromium(None, {ENV_VAR: str(tmp_path / "nope")}, _which({"chromium": "/usr/bin/chromium"}))


def test_bundled_before_system(tmp_path: Path) -> None:
    bundled = _exe(tmp_path / "chrome")
    assert find_chromium(str(bundled), {}, _which({"chromium": "/usr/bin/chromium"})) == bundled


def test_missing_bundled_falls_back_to_path_in_order(tmp_path: Path) -> None:
    found = {"chromium-browser": "/usr/bin/chromium-browser", "google-chrome": "/usr/bin/google-chrome"}
    assert find_chromium(str(tmp_path / "absent"), {}, _which(found)) == Path("/usr/bin/chromium-browser")


def test_nothing_found_says_how_to_install() -> None:
    with pytest.raises(ChromiumNotFound) as info:
        find_chromium(None, {}, _which({}))
    message = str(info.value)
    assert "apt-get install chromium" in message
    assert "playwright install chromium" in message


def test_no_sandbox_only_as_root() -> None:
    assert chromium_args(is_root=True)[0] == "--no-sandbox"
    assert "--no-sandbox" not in chromium_args(is_root=False)
    assert set(BASE_ARGS) <= set(chromium_args(is_root=False))
    assert chromium_args(["--mute-audio", "--disable-gpu"], is_root=False).count("--disable-gpu") == 1
