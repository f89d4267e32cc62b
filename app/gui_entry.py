"""`waypost gui`: settings -> core -> window; saved settings are written back (the key to the keyring)."""

from __future__ import annotations

from typing import Any

from app.gui import run_gui
from app.settings import Settings, save_settings, store_api_key
from app.wiring import build_core


def _save(values: dict[str, Any]) -> None:
    key = values.pop("api_key", None)
    if key:
        store_api_key(str(key))
    save_settings(Settings.model_validate(values))


def open_gui(settings: Settings) -> int:
    core = build_core(settings)
    values = settings.model_dump(mode="json")
    return run_gui(core, values, _save)
