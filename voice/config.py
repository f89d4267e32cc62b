"""Which engine transcribes: the offline one unless a transcription endpoint is configured."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, SecretStr

from voice.endpoint import EndpointEngine, EndpointSettings
from voice.engine import Transcriber

EngineChoice = Literal["auto", "offline", "endpoint"]


class VoiceConfigError(ValueError):
    """The endpoint engine was asked for but no endpoint is configured."""


class VoiceConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    engine: EngineChoice = "auto"
    base_url: str | None = None
    model: str = "whisper-1"
    api_key: SecretStr | None = None
    #: Passed to the endpoint as is ("en", "vi"); the offline engine is English only.
    language: str | None = "en"
    #: Keep the recorded audio in the run folder (off: only the transcript is kept).
    keep_audio: bool = False

    @property
    def uses_endpoint(self) -> bool:
        return self.engine == "endpoint" or (self.engine == "auto" and bool(self.base_url))


def make_transcriber(config: VoiceConfig) -> Transcriber:
    if not config.uses_endpoint:
        from voice.offline import PocketsphinxEngine  # pocketsphinx loads only for the offline engine

        return PocketsphinxEngine()
    if not config.base_url:
        raise VoiceConfigError("voice engine 'endpoint' needs a transcription URL (voice_base_url)")
    return EndpointEngine(
        EndpointSettings(base_url=config.base_url, model=config.model, api_key=config.api_key)
    )


async def close_transcriber(engine: Transcriber) -> None:
    if isinstance(engine, EndpointEngine):
        await engine.aclose()
