"""VoiceController: the bridge between the voice bar and the voice core (recorder in, transcript out).

It owns the asyncio task of a transcription (cancelled by Cancel or on close) and the elapsed-time
ticks. A transcript is only ever handed to the task box: running it stays the person's click. When
that run ends, its run.json gets the transcript marked as spoken (the audio only on opt-in).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QElapsedTimer, QObject, QTimer, Signal, Slot

from executor.models import RunBundleV1
from voice.audio import MAX_SECONDS, AudioClip, AudioError, clip_from_pcm
from voice.engine import Transcriber, Transcript, TranscriptionError, WarmsUp, engine_label, heard_label
from voice.spoken import SpokenInput, record_spoken_input, spoken_input

if TYPE_CHECKING:  # Qt Multimedia loads with the real microphone, after the window shows
    from ui.voice_recorder import MicRecorder

IDLE, RECORDING, TRANSCRIBING = "idle", "recording", "transcribing"


@dataclass(frozen=True, slots=True)
class VoiceOptions:
    language: str | None = None
    keep_audio: bool = False
    #: Why this engine and not the usual one (the Whisper model is not installed), or None.
    note: str | None = None


class VoiceController(QObject):
    #: idle, recording or transcribing (str).
    state_changed = Signal(str)
    #: Microphone level while recording, 0.0 to 1.0.
    level_changed = Signal(float)
    #: Seconds recorded so far.
    elapsed_changed = Signal(float)
    #: What was heard, for the task box (str). Never run from here.
    transcript_ready = Signal(str)
    #: Recording or transcribing failed; the message says what to do.
    failed = Signal(str)
    #: The microphone appeared or vanished (bool).
    availability_changed = Signal(bool)
    #: Which engine listens and in which language, e.g. "whisper-base · Vietnamese" once heard (str).
    engine_changed = Signal(str)

    def __init__(
        self,
        recorder: MicRecorder,
        transcriber: Transcriber,
        options: VoiceOptions = VoiceOptions(),
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.recorder = recorder
        self.transcriber = transcriber
        self.options = options
        self.state = IDLE
        self.last: tuple[Transcript, AudioClip] | None = None
        self.pending: tuple[SpokenInput, AudioClip] | None = None
        self.engine_label = engine_label(transcriber, options.language)
        self._task: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self._clock = QElapsedTimer()
        self._ticker = QTimer(self)
        self._ticker.setInterval(100)
        self._ticker.timeout.connect(self._on_tick)
        recorder.level_changed.connect(self.level_changed)
        recorder.failed.connect(self._on_recorder_failed)
        recorder.availability_changed.connect(self.availability_changed)

    @property
    def available(self) -> bool:
        return self.recorder.available

    @property
    def task(self) -> asyncio.Task[None] | None:
        return self._task

    def _set_state(self, state: str) -> None:
        self.state = state
        self.state_changed.emit(state)

    # --- intents from the bar ------------------------------------------------------------------

    @Slot()
    def start(self) -> None:
        if self.state != IDLE:
            return
        if not self.recorder.available:
            self.failed.emit(self.recorder.unavailable_reason)
            return
        self.start_warm_up()  # the model loads while the person speaks, not with the window
        self.recorder.start()
        self._clock.start()
        self._ticker.start()
        self._set_state(RECORDING)
        self.elapsed_changed.emit(0.0)

    @Slot()
    def stop(self) -> None:
        """Ends the recording and starts transcribing it."""
        if self.state != RECORDING:
            return
        self._ticker.stop()
        pcm = self.recorder.stop()
        self.level_changed.emit(0.0)
        try:
            clip = clip_from_pcm(pcm, rate=self.recorder.rate, channels=self.recorder.channels)
        except AudioError as exc:
            self._set_state(IDLE)
            self.failed.emit(str(exc))
            return
        self._set_state(TRANSCRIBING)
        self._task = asyncio.get_running_loop().create_task(self._transcribe(clip))

    @Slot()
    def toggle(self) -> None:
        if self.state == IDLE:
            self.start()
        elif self.state == RECORDING:
            self.stop()

    @Slot()
    def cancel(self) -> None:
        """Drops the recording or the transcription in progress; nothing reaches the task box."""
        if self.state == RECORDING:
            self._ticker.stop()
            self.recorder.cancel()
            self.level_changed.emit(0.0)
        elif self._task is not None:
            self._task.cancel()
        self._set_state(IDLE)

    def set_device(self, device_id: str | None) -> None:
        self.recorder.set_device(device_id)
        self.availability_changed.emit(self.recorder.available)

    def start_warm_up(self) -> None:
        """Loads the engine's model off the loop's thread (once), so that by the end of the first
        recording it is ready; a model that fails its check is reported at once."""
        if isinstance(self.transcriber, WarmsUp) and self._warming is None:
            self._warming = asyncio.get_running_loop().create_task(self._warm_up(self.transcriber))

    async def aclose(self) -> None:
        self.cancel()
        for task in (self._task, self._warming):
            if task is not None and not task.done():
                task.cancel()  # a model still loading finishes on its thread; nobody waits for it
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    # --- work ------------------------------------------------------------------------------------

    async def _warm_up(self, engine: WarmsUp) -> None:
        try:
            await asyncio.to_thread(engine.warm_up)
        except TranscriptionError as exc:
            self.failed.emit(str(exc))

    async def _transcribe(self, clip: AudioClip) -> None:
        try:
            transcript = await self.transcriber.transcribe(clip, language=self.options.language)
        except TranscriptionError as exc:
            self._set_state(IDLE)
            self.failed.emit(str(exc))
            return
        self.last = (transcript, clip)
        self.engine_label = heard_label(transcript)
        self.engine_changed.emit(self.engine_label)
        self._set_state(IDLE)
        self.transcript_ready.emit(transcript.text)

    @Slot()
    def _on_tick(self) -> None:
        seconds = self._clock.elapsed() / 1000
        self.elapsed_changed.emit(seconds)
        if seconds >= MAX_SECONDS - 0.5:  # stop inside the limit, so the clip is not refused as too long
            self.stop()

    @Slot(str)
    def _on_recorder_failed(self, message: str) -> None:
        if self.state == RECORDING:
            self._ticker.stop()
            self._set_state(IDLE)
        self.failed.emit(message)

    # --- receipts ------------------------------------------------------------------------------

    def note_run_requested(self, task_text: str) -> None:
        """Run was pressed: if the task came from speech, remember it for the run's receipts."""
        if self.last is None:
            self.pending = None
            return
        transcript, clip = self.last
        self.pending = (spoken_input(transcript, task_text), clip)
        self.last = None  # one transcript marks one run

    def note_run_finished(self, bundle: RunBundleV1, run_dir: Path) -> None:
        if self.pending is None:
            return
        spoken, clip = self.pending
        self.pending = None
        keep = clip if self.options.keep_audio else None
        from receipts.attest import amend_signed  # signing loads with the first spoken run
        from receipts.keys import install_key

        amend_signed(run_dir, install_key(), lambda: record_spoken_input(run_dir, spoken, keep))
