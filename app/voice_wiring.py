"""Settings -> the voice engine's configuration (the one place that reads the voice_* settings)."""

from __future__ import annotations

from app.settings import Settings
from voice.config import VoiceConfig


def voice_config(settings: Settings) -> VoiceConfig:
    """The transcription endpoint shares the model endpoint's API key (both are OpenAI-compatible)."""
    return VoiceConfig(
        engine=settings.voice_engine,
        base_url=settings.voice_base_url,
        model=settings.voice_model,
        api_key=settings.api_key,
        language=settings.voice_language or None,
        keep_audio=settings.voice_keep_audio,
    )
