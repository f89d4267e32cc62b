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
    engine decide among its `languages` (empty: whatever the endpoint decides)."""

    name: str
    languages: tuple[str, ...]

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript: ...


@runtime_checkable
class WarmsUp(Protocol):
    """An engine that can load its model ahead of the first clip (blocking: run it on a thread)."""

    def warm_up(self) -> None: ...


LANGUAGE_NAMES = {"en": "English", "vi": "Vietnamese"}


def language_name(code: str | None) -> str:
    if not code:
        return "language not reported"
    return LANGUAGE_NAMES.get(code.lower(), code)


def engine_label(engine: Transcriber, language: str | None) -> str:
    """Which engine listens and for which language, before anything is heard."""
    if language:
        return f"{engine.name} · {language_name(language)}"
    if not engine.languages:
        return f"{engine.name} · language chosen by the endpoint"
    return f"{engine.name} · " + " or ".join(language_name(code) for code in engine.languages)


def heard_label(transcript: Transcript) -> str:
    """Which engine heard this and in which language."""
    return f"{transcript.engine} · {language_name(transcript.language)}"
