"""The one small interface every speech engine implements, and what it returns."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from voice.audio import AudioClip


class TranscriptionError(RuntimeError):
    """The engine could not produce a transcript (endpoint down, model missing, nothing heard)."""


class Transcript(BaseModel):
    """What was heard. The text is only ever put in the task box, never run unseen."""

    model_config = ConfigDict(frozen=True)

    text: str
    engine: str
    language: str | None = None
    audio_seconds: float
    decode_seconds: float


@runtime_checkable
class Transcriber(Protocol):
    """Turns a checked clip into text. `language` is a code such as "en" or "vi"; None lets the
    engine decide (the offline engine only knows English)."""

    name: str

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript: ...
