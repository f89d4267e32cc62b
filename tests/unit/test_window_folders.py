"""The window's folder check reads the runs folder as the settings do, without loading them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.settings import load_settings
from app.window_folders import runs_dir


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("WAYPOST_RUNS_DIR", raising=False)
    (tmp_path / "config").mkdir()
    return tmp_path / "config" / "config.toml"


def test_the_same_runs_folder_as_the_settings(config: Path, tmp_path: Path) -> None:
    assert runs_dir(None) == load_settings(read_keyring=False).runs_dir == tmp_path / "data" / "runs"
    config.write_text(f'runs_dir = "{tmp_path / "toml"}"\n', encoding="utf-8")
    assert runs_dir(None) == load_settings(read_keyring=False).runs_dir == tmp_path / "toml"
    env = {"WAYPOST_RUNS_DIR": str(tmp_path / "env")}
    assert runs_dir(None, env) == load_settings(env=env, read_keyring=False).runs_dir
    flag = tmp_path / "flag"
    assert (
        runs_dir(flag, env)
        == load_settings(env=env, overrides={"runs_dir": flag}, read_keyring=False).runs_dir
    )


def test_a_config_file_it_cannot_read_is_left_to_the_settings(config: Path) -> None:
    config.write_text("runs_dir = [not toml", encoding="utf-8")
    assert runs_dir(None) is None
