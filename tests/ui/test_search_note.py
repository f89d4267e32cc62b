"""The window says which search engine research uses and how to change it, from the first run."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from app.demo.sites import DemoSites
from executor.run.service import AgentCore
from tests.support.window import DEFAULT_SETTINGS
from ui.controller import RunController
from ui.main_window import MainWindow


def test_the_first_window_names_the_demo_search_then_a_public_engine_after_settings(
    qtbot: QtBot, core: AgentCore
) -> None:
    with DemoSite(None) as site:
        settings = {**DEFAULT_SETTINGS, "search_url": site.search_template, "search_provider": "browser"}
        window = MainWindow(RunController(core, site=DemoSites(site)), settings)
        qtbot.addWidget(window)
        window.show()
        note = window.task_panel.search_note
        assert note.isVisible()
        assert "bundled demo site" in note.text() and "nothing leaves this computer" in note.text()
        assert "To change: File › Settings › Search." in note.text()
        window._on_settings_saved({**settings, "search_url": "https://search.example.org/?q={query}"})
        assert "search.example.org, a public search engine" in note.text()
        assert "queries are sent there" in note.text()


def test_without_a_configured_search_the_window_names_the_default_public_engine(
    qtbot: QtBot, core: AgentCore
) -> None:
    window = MainWindow(RunController(core), {**DEFAULT_SETTINGS, "search_url": None})
    qtbot.addWidget(window)
    window.show()
    assert window.task_panel.search_note.text().startswith("Research searches html.duckduckgo.com")
