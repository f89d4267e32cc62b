"""Owner-only files. Found: waypost.sqlite3, receipts.jsonl, waypost.log and config.toml were 0644
in 0755 folders, and another local user read the stored page data."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.settings import load_settings, save_settings


@pytest.fixture
def restore_umask() -> Iterator[None]:
    old = os.umask(0o022)  # what a login shell usually has: the test starts from the leaky default
    try:
        yield
    finally:
        os.umask(old)


def test_everything_a_run_writes_is_owner_only(
    waypost_home: Path, capsys: pytest.CaptureFixture[str], restore_umask: None
) -> None:
    config = waypost_home / "config"
    config.mkdir(mode=0o755)
    old_file = config / "config.toml"
    old_file.write_text("")  # left 0644 by an older version
    old_file.chmod(0o644)
    plan = waypost_home / "plan.json"
    plan.write_text(json.dumps({"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}))
    assert main(["run", "--plan", str(plan), "--json"]) == 3
    capsys.readouterr()
    save_settings(load_settings())
    written = [p for p in (waypost_home / "data").rglob("*")] + [p for p in config.rglob("*")]
    names = {p.name for p in written}
    assert {"waypost.sqlite3", "receipts.jsonl", "waypost.log", "config.toml"} <= names, names
    for path in [*written, config]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path} is {oct(mode)}"


def test_doctor_hides_a_password_in_the_model_url() -> None:
    from common.secrecy import redact_url_credentials

    shown = redact_url_credentials("http://ada:s3cr3t-pw@127.0.0.1:9/v1 did not answer")
    assert "s3cr3t-pw" not in shown and "ada" not in shown and "127.0.0.1:9/v1" in shown


@pytest.mark.browser  # the doctor's checks launch Chromium
async def test_doctor_says_when_no_keyring_keeps_the_api_key(
    waypost_home: Path, monkeypatch: pytest.MonkeyPatch, restore_umask: None
) -> None:
    from app import doctor

    monkeypatch.setenv("OPENAI_BASE_URL", "http://ada:s3cr3t-pw@127.0.0.1:9/v1")
    monkeypatch.setattr("app.settings.keyring_available", lambda: False)
    checks = await doctor.run_checks(load_settings())
    text = " ".join(c.detail + c.fix for c in checks)
    assert "s3cr3t-pw" not in text
    (keyring,) = [c for c in checks if c.name == "keyring"]
    assert "not kept" in keyring.detail


# Found: in a runs folder another local user could write, a planted symlink made waypost.log append
# into another file (one of the person's own, say). A shared runs or data folder is refused first.


@pytest.mark.parametrize("shared", ["runs", "data"])
def test_a_folder_other_users_can_write_is_refused(
    waypost_home: Path, capsys: pytest.CaptureFixture[str], shared: str
) -> None:
    victim = waypost_home / "victim.txt"
    victim.write_text("mine\n")
    runs = waypost_home / "runs"
    folder = runs if shared == "runs" else waypost_home / "data"  # the data folder keeps the receipt key
    runs.mkdir(mode=0o700)
    folder.mkdir(exist_ok=True)
    folder.chmod(0o777)  # as another user left it, or a group shares it
    if shared == "runs":
        (runs / "waypost.log").symlink_to(victim)  # what the other user planted
    code = main(["plan", "open the pricing page", "--runs-dir", str(runs), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"{shared} folder" in err and "can be written by other users" in err and "chmod go-w" in err
    assert victim.read_text() == "mine\n"


def test_the_log_never_follows_a_symlink(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Even in the person's own folder: a symlink where the log goes is not written through."""
    victim = waypost_home / "victim.txt"
    victim.write_text("mine\n")
    runs = waypost_home / "runs"
    runs.mkdir(mode=0o700)
    (runs / "waypost.log").symlink_to(victim)
    code = main(["plan", "open the pricing page", "--runs-dir", str(runs), "--json"])
    capsys.readouterr()
    assert code == 2 and victim.read_text() == "mine\n"
