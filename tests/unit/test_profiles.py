"""A persistent profile is a named folder in the data dir, owner-only, outside every run folder; a
name that is not plain is refused (exit 2 on the CLI)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from app.cli import main
from app.profiles import ProfileError, profile_dir
from app.settings import load_settings
from app.wiring import launch_options


def test_a_profile_is_an_owner_only_folder_in_the_data_dir(waypost_home: Path) -> None:
    options = launch_options(load_settings(overrides={"profile": "shop"}))
    folder = Path(str(options.user_data_dir))
    assert folder == profile_dir("shop") and folder.is_relative_to(waypost_home / "data")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert not folder.is_relative_to(load_settings().runs_dir)  # never inside a run folder
    assert launch_options(load_settings()).user_data_dir is None  # fresh profile by default


@pytest.mark.parametrize("name", ["../x", "Shop", "a/b", ""])
def test_a_profile_name_is_a_plain_name(waypost_home: Path, name: str) -> None:
    with pytest.raises(ProfileError):
        profile_dir(name)


def test_a_bad_profile_name_is_exit_2(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "Open http://127.0.0.1:9/ and read it", "--profile", "../etc"]) == 2
    assert "profile" in capsys.readouterr().err
