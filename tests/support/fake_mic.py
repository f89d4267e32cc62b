"""A microphone for UI tests: `feed()` delivers PCM (e.g. espeak-ng speech) as a real device would."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from ui.voice_recorder import MicRecorder


def wav_pcm(path: Path) -> tuple[bytes, int]:
    """A 16-bit mono WAV's samples and rate."""
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes()), w.getframerate()


class FakeMicRecorder(MicRecorder):
    def __init__(self, *, available: bool = True, rate: int = 16_000) -> None:
        super().__init__()
        self._available = available
        self.rate = rate
        self.recording = False
        self.started = 0
        self.cancelled = 0
        self.device_id: str | None = None
        self._chunks: list[bytes] = []

    @property
    def available(self) -> bool:
        return self._available

    def set_available(self, available: bool) -> None:
        self._available = available
        self.availability_changed.emit(available)

    def set_device(self, device_id: str | None) -> None:
        self.device_id = device_id

    def start(self) -> None:
        self.recording, self._chunks = True, []
        self.started += 1

    def feed(self, pcm: bytes, chunk_ms: int = 100) -> None:
        """Delivers `pcm` in chunks, emitting a level per chunk like QtMicRecorder."""
        assert self.recording, "feed() while not recording"
        step = self.rate * chunk_ms // 1000 * 2
        for start in range(0, len(pcm), step):
            chunk = pcm[start : start + step]
            self._chunks.append(chunk)
            samples = np.frombuffer(chunk[: len(chunk) // 2 * 2], dtype="<i2").astype(np.int32)
            self.level_changed.emit(float(np.abs(samples).max()) / 32768 if len(samples) else 0.0)

    def stop(self) -> bytes:
        self.recording = False
        data, self._chunks = b"".join(self._chunks), []
        return data

    def cancel(self) -> None:
        self.cancelled += 1
        self.stop()
