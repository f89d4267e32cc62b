"""`waypost gui`: settings -> core -> window; saved settings are written back (the key to the keyring)."""

from __future__ import annotations

from typing import Any

from app.demo.flows import FLOWS
from app.demo.server import DemoSite
from app.gui import run_gui
from app.settings import Settings, save_settings, store_api_key
from app.voice_gui import voice_factory
from app.wiring import build_core
from ui.examples import ExampleTask


def _save(values: dict[str, Any]) -> None:
    key = values.pop("api_key", None)
    if key:
        store_api_key(str(key))
    save_settings(Settings.model_validate(values))


def open_gui(settings: Settings) -> int:
    """The bundled demo site runs beside the window, so the example tasks work offline; it is also the
    search engine unless one is configured."""
    with DemoSite() as site:
        if settings.search_url is None:
            settings = settings.model_copy(
                update={"search_url": site.search_template, "search_provider": "browser"}
            )
        core = build_core(settings)
        values = settings.model_dump(mode="json")
        examples = [ExampleTask(f.mode, f"{f.mode} · {f.title}", f.task(site.base_url)) for f in FLOWS]
        return run_gui(core, values, _save, examples, voice_factory(settings))
