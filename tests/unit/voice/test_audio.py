"""Audio checks: every unhappy file gets its own error and a message a person can act on."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from voice.audio import (
    MAX_SECONDS,
    SAMPLE_RATE,
    EmptyAudio,
    NotAudio,
    TooLong,
    clip_from_pcm,
    load_wav,
)


def _wav(path: Path, samples: np.ndarray, rate: int = 16_000, channels: int = 1, width: int = 2) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(samples.astype("<i2" if width == 2 else "u1").tobytes())
    return path


def _tone(seconds: float, rate: int = 16_000) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    return (8000 * np.sin(2 * np.pi * 440 * t)).astype(np.int16)


def test_a_text_file_is_not_audio(tmp_path: Path) -> None:
    path = tmp_path / "task.wav"
    path.write_text("Research the datafeed packages")
    with pytest.raises(NotAudio, match="not a PCM WAV"):
        load_wav(path)


def test_an_empty_file_says_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.wav"
    path.write_bytes(b"")
    with pytest.raises(EmptyAudio, match="empty"):
        load_wav(path)


def test_silence_is_empty(tmp_path: Path) -> None:
    with pytest.raises(EmptyAudio, match="no speech"):
        load_wav(_wav(tmp_path / "quiet.wav", np.zeros(16_000, dtype=np.int16)))


def test_a_wav_with_no_frames_is_empty(tmp_path: Path) -> None:
    with pytest.raises(EmptyAudio):
        load_wav(_wav(tmp_path / "none.wav", np.zeros(0, dtype=np.int16)))


def test_too_long_is_refused_before_decoding(tmp_path: Path) -> None:
    path = _wav(tmp_path / "long.wav", _tone(MAX_SECONDS + 1, rate=8_000), rate=8_000)
    with pytest.raises(TooLong, match="at most 60 s"):
        load_wav(path)


def test_8_bit_audio_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NotAudio, match="8-bit"):
        load_wav(_wav(tmp_path / "u8.wav", np.full(800, 200), width=1))


def test_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(NotAudio, match="cannot read"):
        load_wav(tmp_path / "nope.wav")


def test_stereo_44k_becomes_16k_mono(tmp_path: Path) -> None:
    mono = _tone(1.0, rate=44_100)
    stereo = np.repeat(mono, 2)
    clip = load_wav(_wav(tmp_path / "stereo.wav", stereo, rate=44_100, channels=2))
    assert clip.seconds == pytest.approx(1.0, abs=0.01)
    assert len(clip.pcm) == pytest.approx(2 * SAMPLE_RATE, abs=4)
    assert load_wav(_wav(tmp_path / "again.wav", np.frombuffer(clip.pcm, "<i2"))).pcm == clip.pcm


def test_raw_pcm_too_long_from_a_microphone() -> None:
    with pytest.raises(TooLong):
        clip_from_pcm(_tone(MAX_SECONDS + 1).tobytes())
