"""`waypost gui` refuses a runs or data folder another user can write before any window is built,
with the sentence every other command prints (app/cli.py `_dispatch`, `refuse_shared`), as ssh
refuses a shared ~/.ssh (docs/architecture.md, "Security model").

It runs before the window's first paint, so it loads no settings model (docs/architecture.md, "Cold
start"): the runs folder is read as the settings read it (the --runs-dir flag, WAYPOST_RUNS_DIR,
`runs_dir` in the config file, the default), with the standard library alone. A config file this
cannot read is left to the settings, which say why in the window; the session checks the folders
again once the settings are loaded (app/gui_entry.py).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

from app.cli_errors import refuse_shared
from common.bounded_read import SETTINGS_BYTES, read_text
from common.paths import data_dir, default_runs_dir, settings_path

RUNS_DIR_ENV = "WAYPOST_RUNS_DIR"


def _configured(path: Path) -> Path | None:
    """`runs_dir` from the config file, the default when it sets none, None when it cannot be read."""
    if not path.exists():
        return default_runs_dir()
    try:
        value = tomllib.loads(read_text(path, SETTINGS_BYTES, what="settings file")).get("runs_dir")
    except (OSError, UnicodeDecodeError, ValueError):  # FileTooLarge and TOMLDecodeError are ValueErrors
        return None
    if value is None:
        return default_runs_dir()
    return Path(value) if isinstance(value, str) and value else None


def runs_dir(flag: Path | None, env: Mapping[str, str] | None = None) -> Path | None:
    """The runs folder the settings will name: flag < environment < config file < default."""
    env = os.environ if env is None else env
    if flag is not None:
        return flag.expanduser()
    if env.get(RUNS_DIR_ENV):
        return Path(env[RUNS_DIR_ENV]).expanduser()
    found = _configured(settings_path())
    return found.expanduser() if found is not None else None


def refuse_shared_folders(flag: Path | None) -> None:
    """EnvironmentProblem (app/cli_errors.py) naming the first shared folder, as the CLI raises it."""
    runs = runs_dir(flag)
    folders = [("runs folder", runs)] if runs is not None else []
    refuse_shared([*folders, ("data folder", data_dir())])
