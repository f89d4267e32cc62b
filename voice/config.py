"""Which engine transcribes: an endpoint when one is configured, else the best offline engine.

Offline, Whisper base (English and Vietnamese, open speech) is chosen when its model packages are
installed; without them pocketsphinx (English task phrasings) serves, and the choice carries a note
saying why, for the CLI and the window to show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, SecretStr

from voice.endpoint import EndpointEngine, EndpointSettings
from voice.engine import Transcriber
from voice.whisper_files import DISTRIBUTIONS, PACKAGES, missing_packages

#: auto: the endpoint when set, else offline; offline: Whisper when installed, else pocketsphinx.
EngineChoice = Literal["auto", "offline", "pocketsphinx", "endpoint"]


class VoiceConfigError(ValueError):
    """The endpoint engine was asked for but no endpoint is configured."""


class VoiceConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    engine: EngineChoice = "auto"
    base_url: str | None = None
    model: str = "whisper-1"
    api_key: SecretStr | None = None
    #: "en", "vi", ...; None lets the engine decide (Whisper: English or Vietnamese).
    language: str | None = None
    #: Keep the recorded audio in the run folder (off: only the transcript is kept).
    keep_audio: bool = False

    @property
    def uses_endpoint(self) -> bool:
        return self.engine == "endpoint" or (self.engine == "auto" and bool(self.base_url))


@dataclass(frozen=True, slots=True)
class EngineChoiceMade:
    engine: Transcriber
    #: Why a fallback was chosen (the Whisper model is not installed), or None.
    note: str | None = None


def choose_transcriber(config: VoiceConfig, packages: tuple[str, ...] = PACKAGES) -> EngineChoiceMade:
    if config.uses_endpoint:
        if not config.base_url:
            raise VoiceConfigError("voice engine 'endpoint' needs a transcription URL (voice_base_url)")
        settings = EndpointSettings(base_url=config.base_url, model=config.model, api_key=config.api_key)
        return EngineChoiceMade(EndpointEngine(settings))
    from voice.offline import PocketsphinxEngine  # the engines' libraries load only when chosen

    if config.engine == "pocketsphinx":
        return EngineChoiceMade(PocketsphinxEngine())
    missing = missing_packages(packages)
    if missing:
        names = ", ".join(DISTRIBUTIONS.get(package, package) for package in missing)
        return EngineChoiceMade(
            PocketsphinxEngine(),
            f"the Whisper speech model is not installed ({names}; ./waypost.sh installs it): "
            "using pocketsphinx, which hears English task phrasings only",
        )
    from voice.whisper import WhisperEngine

    return EngineChoiceMade(WhisperEngine(packages=packages))


def make_transcriber(config: VoiceConfig) -> Transcriber:
    return choose_transcriber(config).engine


async def close_transcriber(engine: Transcriber) -> None:
    if isinstance(engine, EndpointEngine):
        await engine.aclose()
