"""The Live view follows research reads on a real Chromium (it stayed empty through a research run)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from executor.journal.events import SourceRead
from executor.run.service import AgentCore
from tests.support.window import next_emit, open_window

pytestmark = pytest.mark.browser


async def test_a_research_run_shows_each_page_it_reads(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite
) -> None:
    from app.demo.flows import FLOWS

    (flow,) = [f for f in FLOWS if f.mode == "A"]
    async with open_window(demo_core) as window:
        reads: list[SourceRead] = []
        shown: list[tuple[bool, str, str]] = []

        def seen(event: SourceRead) -> None:  # what the Live view shows right after each read
            reads.append(event)
            live = window.live_view
            shown.append((live.screenshot.has_image, live.url_label.text(), live.action_label.text()))

        window.controller.source_read.connect(seen)
        finished = next_emit(window.controller.run_finished)
        window.controller.plan_and_run(flow.task(demo_site.base_url), planner="rules")
        await asyncio.wait_for(finished, 120)
        await window.controller.wait_idle()
    assert reads, "research read no page"
    assert all(e.url.startswith(demo_site.base_url) for e in reads)
    pictures_in_run_folder(reads, demo_core)
    for event, (has_image, url, action) in zip(reads, shown, strict=True):
        assert url == event.url and action.startswith("Reading: ")
        assert has_image or not event.screenshot_path


def pictures_in_run_folder(reads: list[SourceRead], core: AgentCore) -> None:
    pictured = [Path(e.screenshot_path) for e in reads if e.screenshot_path]
    assert pictured and all(p.is_file() for p in pictured)
    assert all(p.is_relative_to(core.run_dir(reads[0].run_id)) for p in pictured)
