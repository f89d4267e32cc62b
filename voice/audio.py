"""Audio clips as the engines want them: 16 kHz mono 16-bit PCM, checked before any decoding.

A file that is not a WAV, holds no sound, or runs longer than a spoken task should fails here with
a specific error, so the CLI and the window can say exactly what is wrong.
"""

from __future__ import annotations

import io
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from common.bounded_read import AUDIO_BYTES, FileTooLarge, read_bytes
from common.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # numpy is imported when a clip is decoded, not when the CLI or the window starts
    np = lazy_module("numpy")

SAMPLE_RATE = 16_000
#: A spoken task is a sentence or two; longer recordings are refused rather than decoded for minutes.
MAX_SECONDS = 60.0
#: Below this peak (of 32767) a clip is silence: a muted or unplugged microphone.
SILENCE_PEAK = 200


class AudioError(ValueError):
    """The audio cannot be transcribed; the message says why in words a person can act on."""


class NotAudio(AudioError):
    pass


class EmptyAudio(AudioError):
    pass


class TooLong(AudioError):
    pass


@dataclass(frozen=True, slots=True)
class AudioClip:
    """16 kHz mono signed 16-bit little-endian samples."""

    pcm: bytes

    @property
    def seconds(self) -> float:
        return len(self.pcm) / 2 / SAMPLE_RATE

    def to_wav(self) -> bytes:
        out = io.BytesIO()
        with wave.open(out, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(self.pcm)
        return out.getvalue()


def _low_pass(samples: np.ndarray, cutoff: float, taps: int = 63) -> np.ndarray:
    """Windowed-sinc filter before downsampling, so high frequencies do not fold into speech bands."""
    n = np.arange(taps) - (taps - 1) / 2
    kernel = 2 * cutoff * np.sinc(2 * cutoff * n) * np.hamming(taps)
    filtered: np.ndarray = np.convolve(samples, kernel / kernel.sum(), mode="same")
    return filtered


def _to_mono_16k(samples: np.ndarray, rate: int, channels: int) -> np.ndarray:
    if channels > 1:
        samples = samples.reshape(-1, channels).mean(axis=1)
    if rate > SAMPLE_RATE:
        samples = _low_pass(samples, SAMPLE_RATE / 2 / rate)
    if rate != SAMPLE_RATE and len(samples) > 1:
        count = max(1, int(len(samples) * SAMPLE_RATE / rate))
        positions = np.linspace(0, len(samples) - 1, count)
        samples = np.interp(positions, np.arange(len(samples)), samples)
    pcm: np.ndarray = np.clip(samples, -32768, 32767).astype("<i2")
    return pcm


def clip_from_pcm(
    pcm: bytes, *, rate: int = SAMPLE_RATE, channels: int = 1, name: str = "recording"
) -> AudioClip:
    """Checks raw 16-bit PCM (as a microphone delivers it) and converts it to 16 kHz mono."""
    samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % (2 * channels)], dtype="<i2").astype(np.float64)
    seconds = len(samples) / channels / rate if rate else 0.0
    if seconds > MAX_SECONDS:
        raise TooLong(f"{name} is {seconds:.0f} s long; a spoken task may be at most {MAX_SECONDS:.0f} s")
    if len(samples) == 0 or float(np.abs(samples).max()) < SILENCE_PEAK:
        raise EmptyAudio(f"{name} holds no speech (silence or no samples); check the microphone")
    return AudioClip(_to_mono_16k(samples, rate, channels).tobytes())


def clip_from_wav_bytes(data: bytes, *, name: str = "audio") -> AudioClip:
    if not data:
        raise EmptyAudio(f"{name} is empty (0 bytes)")
    try:
        with wave.open(io.BytesIO(data), "rb") as w:
            rate, channels, width, frames = (
                w.getframerate(),
                w.getnchannels(),
                w.getsampwidth(),
                w.getnframes(),
            )
            if width != 2:
                raise NotAudio(f"{name} is {8 * width}-bit audio; record 16-bit PCM WAV")
            if frames / max(rate, 1) > MAX_SECONDS:
                limit = f"{MAX_SECONDS:.0f} s"
                raise TooLong(f"{name} is {frames / rate:.0f} s long; a spoken task may be at most {limit}")
            pcm = w.readframes(frames)
    except (wave.Error, EOFError) as exc:
        raise NotAudio(f"{name} is not a PCM WAV file ({exc})") from exc
    return clip_from_pcm(pcm, rate=rate, channels=channels, name=name)


def load_wav(path: Path) -> AudioClip:
    """Reads and checks a WAV file; raises NotAudio, EmptyAudio or TooLong (all AudioError)."""
    try:
        data = read_bytes(path, AUDIO_BYTES, what="audio file")
    except FileTooLarge as exc:
        raise TooLong(str(exc)) from exc
    except OSError as exc:
        raise NotAudio(f"cannot read {path}: {exc.strerror or exc}") from exc
    return clip_from_wav_bytes(data, name=str(path))
