"""The window's voice input from settings: the Qt microphone and the configured engine."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from app.settings import Settings
from app.voice_wiring import voice_config

if TYPE_CHECKING:
    from ui.voice_controller import VoiceController

VoiceFactory = Callable[[], "VoiceController"]


def voice_factory(settings: Settings) -> VoiceFactory:
    """Called once the QApplication exists (Qt Multimedia needs it) and the window has shown, on the
    running loop: the microphone and the engines load then, not before the first paint."""
    config = voice_config(settings)

    def make() -> VoiceController:
        from ui.voice_controller import VoiceController, VoiceOptions
        from ui.voice_recorder import QtMicRecorder
        from voice.config import choose_transcriber

        chosen = choose_transcriber(config)
        options = VoiceOptions(language=config.language, keep_audio=config.keep_audio, note=chosen.note)
        return VoiceController(QtMicRecorder(settings.voice_device), chosen.engine, options)

    return make
