"""A grid's key inside its endpoint (`?token=`, `user:password@`) is printed and written nowhere, and
batch.json keeps the endpoint without it: a resume is given the endpoint again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from batch.endpoint_secrets import credentials, kept, with_endpoints
from batch.suite import SuiteError
from tests.batch.test_grid_batch import batch, read_task, write_suite
from tests.support.playwright_server import PlaywrightServer
from tests.support.site import FixtureSite

TOKEN = "gridKey7731xq"


def test_credentials_are_the_password_and_the_key_like_query_values() -> None:
    url = f"wss://ada:pa%20ss@grid.example.test/chromium?token={TOKEN}&stealth&headless=false"
    assert credentials([url]) == ["pa%20ss", "pa ss", TOKEN]
    assert (
        kept(url) == "wss://ada:[REDACTED]@grid.example.test/chromium?token=[REDACTED]&stealth&headless=false"
    )
    assert (
        credentials(["ws://127.0.0.1:3000/"]) == [] and kept("ws://127.0.0.1:3000/") == "ws://127.0.0.1:3000/"
    )


def test_a_resume_takes_endpoints_with_credentials_only_when_given_again() -> None:
    real = f"wss://grid.example.test/?token={TOKEN}"
    stored = [kept(real)]
    assert with_endpoints(stored, [real], "batch_x") == [real]
    with pytest.raises(SuiteError, match="give the same --browser endpoints again"):
        with_endpoints(stored, [], "batch_x")
    with pytest.raises(SuiteError, match="give the same --browser endpoints again"):
        with_endpoints(stored, ["wss://elsewhere.example.test/?token=x"], "batch_x")
    plain = ["ws://127.0.0.1:3000/"]
    assert with_endpoints(plain, [], "batch_x") == plain  # nothing was cut: the stored ones serve


@pytest.mark.browser
@pytest.mark.slow
def test_a_batch_on_an_endpoint_with_a_token_shows_and_keeps_no_token(
    grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    endpoint = f"{grid[0].endpoint}?token={TOKEN}"
    suite = write_suite(waypost_home, [{"name": "read", "task": read_task(site, "/slow?delay=0&case=token")}])
    junit = waypost_home / "junit-token.xml"
    code, document, err = batch(capsys, str(suite), "--browser", endpoint, "--junit", str(junit))
    assert code == 0, document
    assert document["runs"][0]["endpoint"] == f"{grid[0].endpoint}?token=[REDACTED]"  # type: ignore[index]
    assert main(["batch", str(suite), "--browser", endpoint]) == 0  # the terminal lines too
    out, err2 = capsys.readouterr()
    assert "token=[REDACTED]" in err2
    for text in (json.dumps(document), err, out, err2):
        assert TOKEN not in text
    runs_dir = waypost_home / "data" / "runs"
    for path in [junit, *(runs_dir / "batches").rglob("*")]:
        assert path.is_dir() or TOKEN.encode() not in path.read_bytes(), path

    batch_id = str(document["batch_id"])
    code, _, err = batch(capsys, "--resume", batch_id)
    assert code == 2 and "give the same --browser endpoints again" in err
    code, again, _ = batch(capsys, "--resume", batch_id, "--browser", endpoint)
    assert code == 0 and again["runs"] == document["runs"]
