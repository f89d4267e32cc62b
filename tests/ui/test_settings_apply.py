"""Saved settings apply between runs and the window names what changed; the demo's address is never
saved and stays the same across launches."""

from __future__ import annotations

import asyncio
import inspect
import socket
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.demo.server import DEFAULT_PORT, DemoSite
from app.gui_entry import _SettingsKeeper
from app.settings import Settings
from executor.run.service import AgentCore
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool
from tests.support.window import next_emit, open_window


async def test_save_applies_from_the_next_run_and_says_what_changed(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    search = FakeTool("web_search", evidence_per_call=1)
    first, second = make_core(), make_core(web_search=search)
    async with open_window(first) as window:
        window.settings_saved.connect(lambda _values: window.controller.replace_core(second))
        hanging = make_core(web_search=FakeTool("web_search", hang=True))
        window.controller.replace_core(hanging)
        started = next_emit(window.controller.step_begun)
        window.controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]))
        await asyncio.wait_for(started, 10)
        window._on_settings_saved({**window.settings, "planner": "llm", "headless": False})
        notice = window.task_panel.notice.text()
        assert (
            notice
            == "Settings saved: planner, headless browser changed; in effect when the current run ends."
        )
        assert window.controller.core is hanging  # never swapped under a running run
        window.controller.stop()
        await window.controller.wait_idle()
        assert window.controller.core is second
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]))
        await asyncio.wait_for(finished, 10)
        assert len(search.calls) == 1  # the run used the core built from the saved settings


def test_the_demo_sites_address_is_never_written_to_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path))
    transient = {"search_url": "http://127.0.0.1:41234/search?q={query}", "search_provider": "browser"}
    settings = Settings(runs_dir=tmp_path / "runs", planner="rules", **transient)
    keeper = _SettingsKeeper(settings, transient)
    core = keeper.save({**settings.model_dump(mode="json"), "headless": False})
    core.store.close()
    written = tomllib.loads((tmp_path / "config.toml").read_text())
    assert "search_url" not in written and written["headless"] is False
    assert keeper.settings.search_url == transient["search_url"]  # still used for this launch


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_demo_site_keeps_a_stable_address_and_falls_back_when_taken() -> None:
    assert inspect.signature(DemoSite).parameters["port"].default == DEFAULT_PORT  # a fixed default
    port = free_port()  # stands in for the default, which other test runs on this machine may hold
    with DemoSite(port=port) as one:
        address = one.base_url
        assert address == f"http://127.0.0.1:{port}"
        with DemoSite(port=port) as two:  # taken: another free port, still serving
            assert two.base_url != address
    with DemoSite(port=port) as again:
        assert again.base_url == address  # the same address on the next launch


def test_an_emptied_field_means_what_it_meant_at_launch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Clearing the search URL switched research to the public engine until a restart, while a
    relaunch with the same config used the bundled site; an emptied model name became ""."""
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path))
    monkeypatch.delenv("WAYPOST_MODEL", raising=False)
    transient = {"search_url": "http://127.0.0.1:41234/search?q={query}", "search_provider": "browser"}
    settings = Settings(runs_dir=tmp_path / "runs", planner="rules", **transient)
    keeper = _SettingsKeeper(settings, transient, {"runs_dir": tmp_path / "runs"})
    values = {**settings.model_dump(mode="json"), "search_url": None, "model": ""}
    core, in_effect = keeper.save_in_effect(values)
    core.store.close()
    assert keeper.settings.search_url == transient["search_url"]  # the bundled site, as at launch
    assert in_effect["search_url"] == transient["search_url"]
    assert keeper.settings.model == Settings().model  # the default model, not ""
    written = tomllib.loads((tmp_path / "config.toml").read_text())
    assert "search_url" not in written  # a relaunch reads the same file and gets the same default
