"""Microphone recording for voice input: an abstract recorder and its Qt Multimedia implementation.

The recorder only delivers 16-bit PCM and a level; checking and transcribing the audio is the voice
core's job (voice/). Tests use a fake subclass that feeds synthesised speech.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QIODevice, QObject, Signal, Slot
from PySide6.QtMultimedia import QAudioDevice, QAudioFormat, QAudioSource, QMediaDevices, QtAudio

from common.lazy import lazy_module

if TYPE_CHECKING:
    import numpy as np
else:  # numpy loads when a level is first measured, not with the window
    np = lazy_module("numpy")


@dataclass(frozen=True, slots=True)
class InputDevice:
    id: str
    description: str


def input_devices() -> list[InputDevice]:
    """The microphones Qt sees now (empty on a machine without one)."""
    return [InputDevice(_device_id(d), d.description()) for d in QMediaDevices.audioInputs()]


def _device_id(device: QAudioDevice) -> str:
    return bytes(device.id().data()).decode(errors="replace")


class MicRecorder(QObject):
    """Start, stop (returns the PCM), cancel; `available` is False when there is no microphone."""

    #: Peak level of the latest chunk, 0.0 to 1.0.
    level_changed = Signal(float)
    #: Whether a microphone is present changed (bool).
    availability_changed = Signal(bool)
    #: Recording failed (the device vanished, access refused); the message says which.
    failed = Signal(str)

    rate = 16_000
    channels = 1

    @property
    def available(self) -> bool:
        raise NotImplementedError

    @property
    def unavailable_reason(self) -> str:
        return "No microphone found. Connect one, or choose another in Settings."

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> bytes:
        raise NotImplementedError

    def cancel(self) -> None:
        self.stop()

    def set_device(self, device_id: str | None) -> None:
        """Which microphone to use next time (None: the system default)."""


def _peak(pcm: bytes) -> float:
    samples = np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], dtype="<i2")
    return float(np.abs(samples.astype(np.int32)).max()) / 32768 if len(samples) else 0.0


class QtMicRecorder(MicRecorder):
    """Records with QAudioSource in 16 kHz mono Int16 when the device supports it, else in the
    device's preferred Int16 format (the voice core resamples)."""

    def __init__(self, device_id: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._device_id = device_id
        self._source: QAudioSource | None = None
        self._io: QIODevice | None = None
        self._chunks: list[bytes] = []
        self._devices = QMediaDevices(self)
        self._devices.audioInputsChanged.connect(self._on_inputs_changed)

    @property
    def available(self) -> bool:
        return self._device() is not None

    def set_device(self, device_id: str | None) -> None:
        self._device_id = device_id or None

    def _device(self) -> QAudioDevice | None:
        inputs = QMediaDevices.audioInputs()
        if not inputs:
            return None
        for device in inputs:
            if self._device_id and _device_id(device) == self._device_id:
                return device
        default = QMediaDevices.defaultAudioInput()
        return default if not default.isNull() else inputs[0]

    def _format(self, device: QAudioDevice) -> QAudioFormat:
        fmt = QAudioFormat()
        fmt.setSampleRate(16_000)
        fmt.setChannelCount(1)
        fmt.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        if not device.isFormatSupported(fmt):
            preferred = device.preferredFormat()
            fmt.setSampleRate(preferred.sampleRate())
            fmt.setChannelCount(preferred.channelCount())
        return fmt

    def start(self) -> None:
        device = self._device()
        if device is None:
            self.failed.emit(self.unavailable_reason)
            return
        fmt = self._format(device)
        self.rate, self.channels = fmt.sampleRate(), fmt.channelCount()
        self._chunks = []
        self._source = QAudioSource(device, fmt, self)
        self._io = self._source.start()
        if self._source.error() != QtAudio.Error.NoError:
            self.failed.emit(f"Could not open the microphone {device.description()!r}.")
            self.stop()
            return
        self._io.readyRead.connect(self._on_ready_read)

    def stop(self) -> bytes:
        if self._io is not None:
            self._on_ready_read()
            with contextlib.suppress(RuntimeError):  # not connected when start() failed
                self._io.readyRead.disconnect(self._on_ready_read)
        if self._source is not None:
            self._source.stop()
            self._source.deleteLater()
        self._source, self._io = None, None
        data, self._chunks = b"".join(self._chunks), []
        return data

    @Slot()
    def _on_ready_read(self) -> None:
        if self._io is None:
            return
        chunk = self._io.readAll()
        data = bytes(chunk.data()) if isinstance(chunk, QByteArray) else bytes(chunk)
        if data:
            self._chunks.append(data)
            self.level_changed.emit(_peak(data))

    @Slot()
    def _on_inputs_changed(self) -> None:
        self.availability_changed.emit(self.available)
