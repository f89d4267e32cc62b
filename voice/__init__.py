"""Voice task input: audio in, text out, shown to the person before anything runs.

No Qt here: recording lives in ui/, this package only reads audio and turns it into a transcript
through a `Transcriber` (offline pocketsphinx by default, or an OpenAI-compatible endpoint).
"""

from voice.audio import MAX_SECONDS, AudioClip, AudioError, EmptyAudio, NotAudio, TooLong, load_wav
from voice.engine import Transcriber, Transcript, TranscriptionError

__all__ = [
    "MAX_SECONDS",
    "AudioClip",
    "AudioError",
    "EmptyAudio",
    "NotAudio",
    "TooLong",
    "Transcriber",
    "Transcript",
    "TranscriptionError",
    "load_wav",
]
