"""`waypost gui`, after the window has painted: settings -> demo site -> the session the window runs.

app/gui_boot.py shows the window first and imports this module on a worker thread afterwards, so
nothing here is loaded before the first paint (docs/architecture.md, "Cold start"). Saved settings
are written back (the key to the keyring), and an empty field means what it meant at launch.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from app.cli_errors import EnvironmentProblem, refuse_shared, usable_runs_dir
from app.demo.flows import FLOWS
from app.demo.server import DemoSite
from app.demo.sites import DemoSites
from app.gui import Session, StartupFailed
from app.hardening import tighten
from app.secret_keyring import KeyringSecrets
from app.settings import (
    Settings,
    SettingsError,
    load_settings,
    persistent_values,
    save_settings,
    store_api_key,
)
from app.voice_gui import voice_factory
from app.wiring import build_core
from common.paths import config_dir, data_dir
from executor.journal.observability import configure_json_logging
from ui.examples import ExampleTask
from ui.words import mode_words

if TYPE_CHECKING:
    from executor.run.service import AgentCore

#: Fields whose empty value means "the default", not "empty": dropped before saving, so the value
#: in effect is the one a launch with the same config file and environment would use.
DEFAULTED = frozenset({"model", "base_url", "search_url", "voice_base_url", "browser_path", "cdp_url"})


class _SettingsKeeper:
    """Saves what the person chose (never this launch's demo address) and builds the core it feeds.

    What takes effect is what a relaunch would read (the file just written, the keyring, the
    environment, this launch's flags) with this launch's demo search where no search is chosen."""

    def __init__(
        self, settings: Settings, transient: dict[str, Any], overrides: Mapping[str, Any] | None = None
    ) -> None:
        self.settings = settings
        self.transient = transient
        self.overrides = dict(overrides or {})

    def save(self, values: dict[str, Any]) -> AgentCore:
        return self.save_in_effect(values)[0]

    def save_in_effect(self, values: dict[str, Any]) -> tuple[AgentCore, dict[str, Any]]:
        values = dict(values)
        key = values.pop("api_key", None)
        if key:
            store_api_key(str(key))
        chosen = {k: v for k, v in values.items() if not (k in DEFAULTED and v in (None, ""))}
        save_settings(Settings.model_validate(persistent_values(chosen, self.transient)))
        fresh = load_settings(overrides=self.overrides)
        if fresh.search_url is None:  # as at launch: the bundled site, for this launch only
            fresh = fresh.model_copy(update=self.transient)
        if key:
            fresh = fresh.model_copy(update={"api_key": SecretStr(str(key))})  # kept even with no keyring
        elif fresh.api_key is None and self.settings.api_key is not None:
            fresh = fresh.model_copy(update={"api_key": self.settings.api_key})  # this session's key
        self.settings = fresh
        return build_core(fresh), window_values(fresh)


def window_values(settings: Settings) -> dict[str, Any]:
    """The settings as the window holds them: plain values, and whether a key is set (never the key)."""
    return {**settings.model_dump(mode="json"), "api_key_set": settings.api_key is not None}


def session(overrides: Mapping[str, Any]) -> Session:
    """Everything `waypost gui` needs beyond the window. The bundled demo site runs beside it, so the
    example tasks work offline; it is also the search engine unless one is configured (for this
    launch only: its address is never saved)."""
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        settings = load_settings(overrides=given)
        runs_dir = usable_runs_dir(Path(settings.runs_dir).expanduser())
        refuse_shared([("runs folder", runs_dir), ("data folder", data_dir())])  # as the settings say
    except (SettingsError, EnvironmentProblem) as exc:
        raise StartupFailed(str(exc)) from exc
    tighten([runs_dir, config_dir()])
    configure_json_logging(path=str(runs_dir / "waypost.log"))
    site = DemoSite().start()
    transient: dict[str, Any] = {}
    if settings.search_url is None:
        transient = {"search_url": site.search_template, "search_provider": "browser"}
        settings = settings.model_copy(update=transient)
    keeper = _SettingsKeeper(settings, transient, given)
    examples = [
        ExampleTask(f.mode, f"{mode_words(f.mode)} · {f.title}", f.task(site.base_url)) for f in FLOWS
    ]
    sites = DemoSites(site)

    def close() -> None:
        sites.close()
        site.stop()

    return Session(
        values=window_values(settings),
        build_core=lambda: build_core(keeper.settings),
        save=keeper.save_in_effect,
        examples=examples,
        voice=voice_factory(settings),
        site=sites,
        kept_secrets=KeyringSecrets(),
        close=close,
    )
