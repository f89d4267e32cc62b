"""Any OpenAI-compatible `/v1/audio/transcriptions` endpoint (OpenAI, a local whisper server).

Chosen when a transcription endpoint is configured. The language is passed through as given
("en", "vi", ...), so the server does not have to guess it. The openai client stays in this module.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from common.lazy import lazy_module
from voice.audio import AudioClip
from voice.engine import Transcript, TranscriptionError

if TYPE_CHECKING:
    import openai
else:  # imported when a transcriber is built, not with the package
    openai = lazy_module("openai")


class EndpointSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    base_url: str
    model: str = "whisper-1"
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=60.0, gt=0)


class EndpointEngine:
    """Sends the clip as a WAV upload; one client per engine, closed with `aclose`."""

    #: The server decides (or is told by the language setting).
    languages: tuple[str, ...] = ()

    def __init__(self, settings: EndpointSettings) -> None:
        self.settings = settings
        self.name = f"endpoint:{settings.model}"
        key = settings.api_key.get_secret_value() if settings.api_key else "not-needed"
        self._client = openai.AsyncOpenAI(
            base_url=settings.base_url, api_key=key, timeout=settings.timeout_s, max_retries=1
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript:
        started = time.perf_counter()
        try:
            result = await self._client.audio.transcriptions.create(
                model=self.settings.model,
                file=("speech.wav", clip.to_wav(), "audio/wav"),
                language=language or openai.omit,
            )
        except openai.APIStatusError as exc:
            raise TranscriptionError(f"the transcription endpoint refused the audio: {exc.message}") from exc
        except openai.APIError as exc:  # connection errors and timeouts
            raise TranscriptionError(f"the transcription endpoint did not answer: {exc}") from exc
        text = (result.text or "").strip()
        if not text:
            raise TranscriptionError("the transcription endpoint heard no words")
        return Transcript(
            text=text,
            engine=self.name,
            language=language,
            audio_seconds=clip.seconds,
            decode_seconds=time.perf_counter() - started,
        )
