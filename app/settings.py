"""Settings: a TOML file in the user config dir, overridden by environment, overridden by flags.

The API key is never written to the TOML file: it goes to the OS keyring when one exists, else it
lives only in the environment (OPENAI_API_KEY) or the running process.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from app import setting_values
from common.bounded_read import SETTINGS_BYTES, read_text_or
from common.paths import default_runs_dir, settings_path
from executor.gates.approval import ApprovalPolicy

KEYRING_SERVICE = "waypost"
KEYRING_USER = "openai_api_key"


class SettingsError(ValueError):
    """The settings file or an environment value cannot be read; the message names which."""


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    model: str = "gpt-4o-mini"
    base_url: str | None = None
    api_key: SecretStr | None = Field(default=None, exclude=True)
    #: One model call's timeout, and the deadline of a planning phase (all its calls): sized to the
    #: endpoint's speed, which `waypost doctor` measures (docs/architecture.md, "Slow models").
    llm_timeout_s: float = Field(default=60.0, gt=0)
    planning_deadline_s: float = Field(default=45.0, gt=0)
    #: Opt-in: send the model a downscaled picture of the page beside the text (costs tokens).
    model_images: bool = False
    planner: Literal["rules", "llm", "auto"] = "auto"
    safe_mode: bool = True
    headless: bool = True
    #: A persistent browser profile by name (app/profiles.py); None: a fresh profile per run.
    profile: str | None = None
    #: Record a Playwright trace of each run into its folder (trace.zip, covered by the signature).
    trace: bool = False
    approve: ApprovalPolicy = ApprovalPolicy.ASK
    browser_path: str | None = None
    cdp_url: str | None = None
    #: Endpoints `waypost batch` uses without --browser (ws:// Playwright servers, http:// CDP).
    browser_endpoints: list[str] = Field(default_factory=list)
    runs_dir: Path = Field(default_factory=default_runs_dir)
    search_url: str | None = None
    search_provider: Literal["browser", "searxng", "local"] = "browser"
    max_time_ms: int = Field(default=300_000, ge=0)
    max_tool_calls: int = Field(default=100, ge=0)
    max_tokens: int = Field(default=200_000, ge=0)
    # Voice input: offline (Whisper, else pocketsphinx) unless a transcription endpoint is set; an
    # empty language lets the engine decide (Whisper: English or Vietnamese); audio is kept on opt-in.
    voice_engine: Literal["auto", "offline", "pocketsphinx", "endpoint"] = "auto"
    voice_base_url: str | None = None
    voice_model: str = "whisper-1"
    voice_language: str = ""
    voice_device: str | None = None
    voice_keep_audio: bool = False

    @field_validator("base_url", "voice_base_url")
    @classmethod
    def _web(cls, value: str | None) -> str | None:
        return None if value is None else setting_values.web_address(value)

    @field_validator("cdp_url")
    @classmethod
    def _browser_address(cls, value: str | None) -> str | None:
        return None if value is None else setting_values.web_address(value, setting_values.BROWSER_ENDPOINT)

    @field_validator("browser_endpoints")
    @classmethod
    def _endpoints(cls, value: list[str]) -> list[str]:
        return [setting_values.web_address(v, setting_values.BROWSER_ENDPOINT) for v in value]

    @model_validator(mode="after")
    def _search(self) -> Settings:
        if self.search_url is not None:
            setting_values.search_template(self.search_url, self.search_provider)
        return self

    @property
    def llm_configured(self) -> bool:
        return bool(self.base_url or self.api_key)


_BOOL = {
    "1": True,
    "true": True,
    "yes": True,
    "on": True,
    "0": False,
    "false": False,
    "no": False,
    "off": False,
}
_ENV: dict[str, str] = {
    "OPENAI_BASE_URL": "base_url",
    "OPENAI_API_KEY": "api_key",
    "WAYPOST_MODEL": "model",
    "WAYPOST_SEARCH_URL": "search_url",
    "WAYPOST_RUNS_DIR": "runs_dir",
    "WAYPOST_BROWSER": "browser_path",
    "WAYPOST_CDP_URL": "cdp_url",
    "WAYPOST_HEADLESS": "headless",
    "WAYPOST_SAFE_MODE": "safe_mode",
    "WAYPOST_VOICE_URL": "voice_base_url",
    "WAYPOST_MODEL_IMAGES": "model_images",
    "WAYPOST_TRACE": "trace",
    "WAYPOST_MODEL_TIMEOUT_S": "llm_timeout_s",
    "WAYPOST_PLANNING_DEADLINE_S": "planning_deadline_s",
    "WAYPOST_PLANNER": "planner",
}


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for var, key in _ENV.items():
        raw = env.get(var)
        if raw is None or raw == "":
            continue
        if key in {"headless", "safe_mode", "model_images", "trace"}:
            if raw.lower() not in _BOOL:
                raise SettingsError(f"{var}={raw!r}: expected one of {', '.join(sorted(_BOOL))}")
            values[key] = _BOOL[raw.lower()]
        else:
            values[key] = raw
    return values


def keyring_available() -> bool:
    """A real OS keyring backend exists (not keyring's "fail" or "null" stand-ins)."""
    try:
        import keyring
    except ImportError:
        return False
    backend = keyring.get_keyring()
    return float(getattr(backend, "priority", 0) or 0) > 0 and "fail" not in type(backend).__module__


def _keyring_key() -> SecretStr | None:
    """The stored key, or None where no usable keyring backend exists (headless CI, bare servers)."""
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return None
    try:
        value = keyring.get_password(KEYRING_SERVICE, KEYRING_USER)
    except KeyringError:
        return None
    return SecretStr(value) if value else None


def load_settings(
    path: Path | None = None,
    *,
    env: Mapping[str, str] | None = None,
    overrides: Mapping[str, Any] | None = None,
    read_keyring: bool = True,
) -> Settings:
    """File < keyring (api key only) < environment < explicit overrides (CLI flags, UI).

    `read_keyring=False` when no model will be called (`waypost plan --planner rules`): asking the
    OS keyring loads its backends, which costs more than the whole plan."""
    path = path or settings_path()
    env = os.environ if env is None else env
    values: dict[str, Any] = {}
    if path.exists():
        text = read_text_or(SettingsError, path, SETTINGS_BYTES, what="settings file")
        try:
            values.update(tomllib.loads(text))
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"cannot read settings {path}: {exc}") from exc
        values.pop("api_key", None)  # never honoured from plain config
    key = _keyring_key() if read_keyring else None
    if key is not None:
        values["api_key"] = key
    values.update(_from_env(env))
    flags = {k: v for k, v in (overrides or {}).items() if v is not None}
    values.update(flags)
    try:
        return Settings.model_validate(values)
    except ValidationError as exc:
        where = setting_values.Sources(env=env, env_names=_ENV, flags=flags, file=path)
        raise SettingsError(where.first_problem(exc, values)) from exc


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Writes everything but the API key; returns the file written."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {k: v for k, v in settings.model_dump(mode="json").items() if v is not None}
    tmp = path.with_suffix(".toml.tmp")
    tmp.write_text(tomli_w.dumps(data), encoding="utf-8")
    tmp.replace(path)
    return path


def store_api_key(key: str) -> bool:
    """Puts the key in the OS keyring; False when no keyring is available (the key is then not kept)."""
    try:
        import keyring
        from keyring.errors import KeyringError
    except ImportError:
        return False
    try:
        keyring.set_password(KEYRING_SERVICE, KEYRING_USER, key)
    except KeyringError:
        return False
    return True


def persistent_values(values: Mapping[str, Any], transient: Mapping[str, Any]) -> dict[str, Any]:
    """Settings values to write to the config: a value that only this launch supplied (the bundled
    demo site's search URL, whose port may differ next time) is dropped, never saved."""
    return {k: v for k, v in values.items() if k not in transient or v != transient[k]}
