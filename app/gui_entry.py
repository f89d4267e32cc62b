"""`waypost gui`: settings -> window -> core; saved settings are written back (the key to the keyring).

The window is imported and shown before the core is built (app/gui.py), so nothing here imports the
run machinery at module level (docs/architecture.md, "Cold start")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from app.demo.flows import FLOWS
from app.demo.server import DemoSite
from app.demo.sites import DemoSites
from app.gui import run_gui
from app.settings import Settings, persistent_values, save_settings, store_api_key
from app.voice_gui import voice_factory
from app.wiring import build_core
from ui.examples import ExampleTask
from ui.words import mode_words

if TYPE_CHECKING:
    from executor.service import AgentCore


class _SettingsKeeper:
    """Saves what the person chose (never this launch's demo address) and builds the core it feeds."""

    def __init__(self, settings: Settings, transient: dict[str, Any]) -> None:
        self.settings = settings
        self.transient = transient

    def save(self, values: dict[str, Any]) -> AgentCore:
        values = dict(values)
        key = values.pop("api_key", None)
        if key:
            store_api_key(str(key))
        save_settings(Settings.model_validate(persistent_values(values, self.transient)))
        update = {**values, "api_key": SecretStr(str(key)) if key else self.settings.api_key}
        self.settings = Settings.model_validate({**self.transient, **update})
        return build_core(self.settings)


def open_gui(settings: Settings) -> int:
    """The bundled demo site runs beside the window, so the example tasks work offline; it is also the
    search engine unless one is configured (for this launch only: its address is never saved)."""
    with DemoSite() as site:
        transient: dict[str, Any] = {}
        if settings.search_url is None:
            transient = {"search_url": site.search_template, "search_provider": "browser"}
            settings = settings.model_copy(update=transient)
        keeper = _SettingsKeeper(settings, transient)
        values = settings.model_dump(mode="json")
        examples = [
            ExampleTask(f.mode, f"{mode_words(f.mode)} · {f.title}", f.task(site.base_url)) for f in FLOWS
        ]
        sites = DemoSites(site)
        try:
            return run_gui(
                lambda: build_core(settings), values, keeper.save, examples, voice_factory(settings), sites
            )
        finally:
            sites.close()
