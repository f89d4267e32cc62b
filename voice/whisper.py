"""The offline engine for open speech: Whisper base (multilingual) through faster-whisper/CTranslate2.

The model comes from the two model packages the lock installs, checked by voice.whisper_files before
it is loaded from memory (no model folder on disk, no download: faster-whisper is only ever given the
verified bytes). Without a language it decides between English and Vietnamese, the two languages
Waypost's tasks come in; a language code forces that language. One clip at a time per process.

Whisper's encoder always reads a 30 s window. A spoken task lasts a few seconds, so the quick path
encodes the clip plus PAD_SECONDS of silence and decodes from that (beam search); a result that is
degenerate (empty, repeating itself, or running to the token limit) is decoded again the standard
way, over the full window with faster-whisper's temperature fallback. A merely unlikely result is
kept: on the benchmark's Vietnamese the standard pass made those slower and no better
(docs/architecture.md, "Voice input", has the measurements behind these choices).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import TYPE_CHECKING

from common.lazy import lazy_module
from voice.audio import AudioClip
from voice.engine import Transcript, TranscriptionError
from voice.whisper_files import PACKAGES, load_model_files, package_folders

if TYPE_CHECKING:
    import faster_whisper
    import faster_whisper.audio as fw_audio
    import faster_whisper.tokenizer as fw_tokenizer
    import faster_whisper.transcribe as fw_transcribe
    import numpy as np
else:  # the runtime (CTranslate2, about a second to import) loads with the model
    faster_whisper = lazy_module("faster_whisper")
    fw_audio = lazy_module("faster_whisper.audio")
    fw_tokenizer = lazy_module("faster_whisper.tokenizer")
    fw_transcribe = lazy_module("faster_whisper.transcribe")
    np = lazy_module("numpy")

#: The languages chosen between when none is given.
LANGUAGES = ("en", "vi")
#: Threads for the CTranslate2 encoder and decoder.
THREADS = 2
#: Silence after the speech in the quick path's encoder window (as Whisper pads its 30 s window with
#: silence; on the benchmark's Vietnamese this told the language apart better than padding features).
PAD_SECONDS = 5.0
_FRAMES_PER_SECOND = 100
_FULL_WINDOW = 3000
#: faster-whisper's default. The encoder dominates the cost, so beam search adds little: on the
#: benchmark's noisy English it cut the word error rate from 0.53 to 0.42 for 14% more CPU time.
BEAM_SIZE = 5
#: Above this (faster-whisper's default) a decode is repeating itself.
MAX_COMPRESSION_RATIO = 2.4
#: Tokens allowed per second of audio: fluent Vietnamese needs about ten; more is a decode in a loop.
TOKENS_PER_SECOND = 16

_models: dict[tuple[tuple[str, ...], int], faster_whisper.WhisperModel] = {}
_models_lock = threading.Lock()


def _shared_model(packages: tuple[str, ...], threads: int) -> faster_whisper.WhisperModel:
    """One loaded model per process and package set: verifying and loading take a few seconds."""
    key = (package_folders(packages), threads)
    with _models_lock:
        model = _models.get(key)
        if model is None:
            verified = load_model_files(packages)
            try:
                model = faster_whisper.WhisperModel(
                    "whisper-base", device="cpu", compute_type="int8", cpu_threads=threads, files=verified
                )
            except (RuntimeError, ValueError) as exc:
                raise TranscriptionError(f"the Whisper model could not start: {exc}") from exc
            _models[key] = model
        return model


def _token_limit(seconds: float) -> int:
    return min(440, 8 + round(TOKENS_PER_SECOND * seconds))


def _likelier(probabilities: list[tuple[str, float]]) -> str:
    """Of LANGUAGES, the one the model finds likelier ("<|vi|>" style tokens from CTranslate2)."""
    found = {token.strip("<|>"): p for token, p in probabilities}
    return max(LANGUAGES, key=lambda code: found.get(code, 0.0))


def _quick(
    model: faster_whisper.WhisperModel, samples: np.ndarray, language: str | None
) -> tuple[str, str, bool]:
    """(text, language, trusted) from the clip's own length of encoder window."""
    rate = model.feature_extractor.sampling_rate
    padded = np.concatenate([samples, np.zeros(round(PAD_SECONDS * rate), dtype=np.float32)])
    features = model.feature_extractor(padded[: _FULL_WINDOW * rate // _FRAMES_PER_SECOND])
    encoded = model.encode(fw_audio.pad_or_trim(features, min(_FULL_WINDOW, features.shape[-1])))
    code = language or _likelier(model.model.detect_language(encoded)[0])
    tokenizer = fw_tokenizer.Tokenizer(
        model.hf_tokenizer, multilingual=True, task="transcribe", language=code
    )
    prompt = [*tokenizer.sot_sequence, tokenizer.no_timestamps]
    limit = _token_limit(len(samples) / rate)
    [result] = model.model.generate(
        encoded,
        [prompt],
        beam_size=BEAM_SIZE,
        max_length=len(prompt) + limit,
        suppress_blank=True,
        suppress_tokens=list(fw_transcribe.get_suppressed_tokens(tokenizer, (-1,)) or []),
    )
    tokens = [t for t in result.sequences_ids[0] if t < tokenizer.eot]
    text = tokenizer.decode(tokens).strip()
    trusted = (
        bool(text)
        and len(tokens) < limit
        and fw_transcribe.get_compression_ratio(text) <= MAX_COMPRESSION_RATIO
    )
    return text, code, trusted


def _once(text: str) -> str:
    """The text without a whole-utterance echo: Whisper sometimes says a short clip twice ("Search
    for the winner in Berlin Search for the winner in Berlin"), too short to look repetitive by
    compression. Only repeats of three words or more are folded, so "bye bye" stays."""
    words = text.split()
    bare = [w.strip(".,!?;:").lower() for w in words]
    for period in range(3, len(words) // 2 + 1):
        if len(words) % period == 0 and bare == bare[:period] * (len(words) // period):
            return " ".join(words[:period]).rstrip(",;:")
    return text


def _standard(model: faster_whisper.WhisperModel, samples: np.ndarray, language: str) -> str:
    """The full 30 s window, with faster-whisper's temperature fallback."""
    segments, _ = model.transcribe(
        samples,
        language=language,
        beam_size=BEAM_SIZE,
        without_timestamps=True,
        condition_on_previous_text=False,
        vad_filter=False,
        max_new_tokens=_token_limit(len(samples) / model.feature_extractor.sampling_rate),
    )
    return " ".join(segment.text.strip() for segment in segments).strip()


class WhisperEngine:
    """English and Vietnamese (and the other languages Whisper knows, when asked by code)."""

    languages: tuple[str, ...] = LANGUAGES

    def __init__(self, *, packages: tuple[str, ...] = PACKAGES, threads: int = THREADS) -> None:
        self.name = "whisper-base"
        self.packages = packages
        self.threads = threads
        #: How many clips needed the standard decode after the quick one (for the benchmark).
        self.standard_decodes = 0
        self._lock = threading.Lock()

    def warm_up(self) -> None:
        """Verifies and loads the model now (a few seconds) so the first recording is not slower."""
        _shared_model(self.packages, self.threads)

    def _language(self, model: faster_whisper.WhisperModel, language: str | None) -> str | None:
        if not language:
            return None
        code = language.lower().split("-")[0]
        if code not in model.supported_languages:
            raise TranscriptionError(f"the Whisper model does not know the language {language!r}")
        return code

    def transcribe_sync(self, clip: AudioClip, language: str | None = None) -> Transcript:
        model = _shared_model(self.packages, self.threads)
        samples = np.frombuffer(clip.pcm, dtype="<i2").astype(np.float32) / 32768.0
        forced = self._language(model, language)
        with self._lock:
            started = time.perf_counter()
            text, heard, trusted = _quick(model, samples, forced)
            if not trusted:
                self.standard_decodes += 1
                text = _standard(model, samples, heard)
            text = _once(text)
            elapsed = time.perf_counter() - started
        if not text:
            raise TranscriptionError("no words were recognised; speak closer to the microphone and try again")
        return Transcript(
            text=text, engine=self.name, language=heard, audio_seconds=clip.seconds, decode_seconds=elapsed
        )

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript:
        return await asyncio.to_thread(self.transcribe_sync, clip, language)
