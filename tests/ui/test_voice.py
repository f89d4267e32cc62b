"""The voice bar in the real window: Speak, level meter, elapsed time, Cancel, push-to-talk, no
microphone, and the acceptance path: spoken task -> task box -> the person's Run -> a normal run."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtMultimedia import QMediaDevices
from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from app.settings import Settings
from app.wiring import build_core
from executor.models import RunStatus
from executor.run.service import AgentCore
from receipts.layout import RunFolder
from receipts.verify import verify
from tests.support.fake_mic import FakeMicRecorder, wav_pcm
from tests.support.speech import DATAFEED_TASK, VI_FIXTURE
from tests.support.window import next_emit, open_window
from ui.controller import RunController
from ui.main_window import MainWindow
from ui.voice_controller import IDLE, RECORDING, TRANSCRIBING, VoiceController, VoiceOptions
from ui.voice_recorder import QtMicRecorder
from voice.audio import AudioClip
from voice.engine import Transcript, TranscriptionError
from voice.offline import PocketsphinxEngine
from voice.whisper import WhisperEngine

SETTINGS = {"safe_mode": True, "planner": "rules", "runs_dir": "/tmp/runs"}


@pytest.fixture(scope="module")
def offline() -> PocketsphinxEngine:
    engine = PocketsphinxEngine()
    engine.warm_up()
    return engine


class HeldTranscriber:
    """Answers only when the test releases it, so Cancel can land mid-transcription."""

    name = "held"
    languages: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started = asyncio.Event()
        self.calls = 0
        self.cancelled = False

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript:
        self.calls += 1
        self.started.set()
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return Transcript(text="late words", engine=self.name, audio_seconds=clip.seconds, decode_seconds=0)


def voice_window(core: AgentCore, mic: FakeMicRecorder, engine: object) -> MainWindow:
    controller = RunController(core)
    voice = VoiceController(mic, engine)  # type: ignore[arg-type]
    return MainWindow(controller, SETTINGS, voice=voice)


async def _closed(window: MainWindow) -> None:
    window.close()
    await asyncio.wait_for(window.aclose(), 10)
    window.deleteLater()


async def test_speak_shows_meter_and_time_then_puts_the_transcript_in_the_box(
    core: AgentCore, offline: PocketsphinxEngine, datafeed_wav: Path, qtbot: QtBot
) -> None:
    mic = FakeMicRecorder(rate=22_050)
    window = voice_window(core, mic, offline)
    window.show()
    bar = window.voice_bar
    assert bar is not None and bar.speak_button.isEnabled()
    assert not bar.level_meter.isVisible() and not bar.cancel_button.isVisible()
    ticked = next_emit(bar.voice.elapsed_changed)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    assert bar.voice.state == RECORDING and mic.recording
    assert bar.level_meter.isVisible() and bar.elapsed_label.isVisible() and bar.cancel_button.isVisible()
    assert bar.speak_button.text() == "■ Stop"
    await ticked
    assert bar.elapsed_label.text().strip().endswith("s")
    peaks: list[float] = []
    bar.voice.level_changed.connect(peaks.append)
    mic.feed(wav_pcm(datafeed_wav)[0])
    assert len(peaks) > 10 and max(peaks) > 0.05
    assert bar.level_meter.value() == round(100 * peaks[-1])  # the meter shows the latest chunk
    heard = next_emit(bar.voice.transcript_ready)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    assert bar.voice.state == TRANSCRIBING and not bar.speak_button.isEnabled()
    (text,) = await asyncio.wait_for(heard, 30)
    assert text == DATAFEED_TASK
    edit = window.task_panel.task_edit
    assert edit.toPlainText() == DATAFEED_TASK and not edit.isReadOnly()
    assert bar.voice.state == IDLE and "press Run" in bar.status_label.text()
    assert not window.controller.busy  # never run unseen: nothing started
    await _closed(window)


@pytest.mark.slow
async def test_the_bar_names_the_engine_and_the_language_it_heard(core: AgentCore, qtbot: QtBot) -> None:
    mic = FakeMicRecorder(rate=16_000)
    window = voice_window(core, mic, WhisperEngine())
    window.show()
    bar = window.voice_bar
    assert bar is not None
    assert bar.engine_label.text() == "whisper-base · English or Vietnamese"
    assert bar.engine_label.isVisible() and bar.engine_label.accessibleName() == "Voice engine and language"
    heard = next_emit(bar.voice.transcript_ready)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    mic.feed(wav_pcm(VI_FIXTURE.path)[0])
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    (text,) = await asyncio.wait_for(heard, 120)
    assert bar.engine_label.text() == "whisper-base · Vietnamese"
    assert window.task_panel.task_edit.toPlainText() == text and not window.controller.busy
    await _closed(window)


async def test_a_fallback_engine_says_why_in_its_tooltip(
    core: AgentCore, offline: PocketsphinxEngine
) -> None:
    note = "the Whisper speech model is not installed: using pocketsphinx"
    voice = VoiceController(FakeMicRecorder(), offline, VoiceOptions(note=note))
    window = MainWindow(RunController(core), SETTINGS, voice=voice)
    bar = window.voice_bar
    assert bar is not None
    assert bar.engine_label.text() == "pocketsphinx · English" and bar.engine_label.toolTip() == note
    await _closed(window)


async def test_cancel_while_recording_discards_the_audio(core: AgentCore, qtbot: QtBot) -> None:
    mic, engine = FakeMicRecorder(), HeldTranscriber()
    window = voice_window(core, mic, engine)
    window.show()
    bar = window.voice_bar
    assert bar is not None
    window.task_panel.task_edit.setPlainText("typed before")
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    mic.feed(b"\x00\x40" * 16_000)
    qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    assert (bar.voice.state, mic.cancelled, engine.calls) == (IDLE, 1, 0)
    assert bar.level_meter.value() == 0 and not bar.cancel_button.isVisible()
    assert window.task_panel.task_edit.toPlainText() == "typed before"
    await _closed(window)


async def test_cancel_while_transcribing_drops_the_result(core: AgentCore, qtbot: QtBot) -> None:
    mic, engine = FakeMicRecorder(), HeldTranscriber()
    window = voice_window(core, mic, engine)
    window.show()
    bar = window.voice_bar
    assert bar is not None
    heard: list[str] = []
    bar.voice.transcript_ready.connect(heard.append)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    mic.feed(b"\x00\x40" * 16_000)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    assert bar.voice.state == TRANSCRIBING and bar.cancel_button.isVisible()
    task = bar.voice.task
    assert task is not None
    await asyncio.wait_for(engine.started.wait(), 10)
    qtbot.mouseClick(bar.cancel_button, Qt.MouseButton.LeftButton)
    with pytest.raises(asyncio.CancelledError):
        await task
    assert engine.cancelled and heard == [] and bar.voice.state == IDLE
    assert window.task_panel.task_edit.toPlainText() == ""
    await _closed(window)


async def test_silence_and_engine_errors_are_shown_not_typed(core: AgentCore, qtbot: QtBot) -> None:
    class Failing(HeldTranscriber):
        async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript:
            raise TranscriptionError("the transcription endpoint did not answer")

    mic = FakeMicRecorder()
    window = voice_window(core, mic, Failing())
    window.show()
    bar = window.voice_bar
    assert bar is not None
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    mic.feed(b"\x00\x00" * 16_000)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    assert "no speech" in bar.status_label.text() and bar.voice.state == IDLE
    failed = next_emit(bar.voice.failed)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    mic.feed(b"\x00\x40" * 16_000)
    qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
    await asyncio.wait_for(failed, 10)
    assert "did not answer" in bar.status_label.text()
    assert window.task_panel.task_edit.toPlainText() == ""
    await _closed(window)


async def test_push_to_talk_records_while_ctrl_space_is_held(
    core: AgentCore, offline: PocketsphinxEngine, datafeed_wav: Path, qtbot: QtBot
) -> None:
    mic = FakeMicRecorder(rate=22_050)
    window = voice_window(core, mic, offline)
    window.show()
    bar = window.voice_bar
    assert bar is not None
    edit = window.task_panel.task_edit
    qtbot.keyPress(edit, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
    assert bar.voice.state == RECORDING and edit.toPlainText() == ""  # the key typed nothing
    mic.feed(wav_pcm(datafeed_wav)[0])
    heard = next_emit(bar.voice.transcript_ready)
    qtbot.keyRelease(edit, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
    assert bar.voice.state == TRANSCRIBING
    await asyncio.wait_for(heard, 30)
    assert edit.toPlainText() == DATAFEED_TASK
    qtbot.keyClick(edit, Qt.Key.Key_Space)  # a plain space still types
    assert edit.toPlainText() == DATAFEED_TASK + " "
    await _closed(window)


async def test_no_microphone_disables_the_button_with_a_reason(core: AgentCore, qtbot: QtBot) -> None:
    assert QMediaDevices.audioInputs() == []  # this offscreen test machine has no microphone
    controller = RunController(core)
    voice = VoiceController(QtMicRecorder(), HeldTranscriber())
    window = MainWindow(controller, SETTINGS, voice=voice)
    window.show()
    bar = window.voice_bar
    assert bar is not None
    assert not bar.speak_button.isEnabled()
    assert "No microphone found" in bar.speak_button.toolTip()
    assert "No microphone found" in bar.status_label.text()
    failed: list[str] = []
    voice.failed.connect(failed.append)
    qtbot.keyPress(window.task_panel.task_edit, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
    assert voice.state == IDLE and failed and "No microphone" in failed[0]
    await _closed(window)


async def test_a_microphone_plugged_in_later_enables_the_button(core: AgentCore) -> None:
    mic = FakeMicRecorder(available=False)
    window = voice_window(core, mic, HeldTranscriber())
    bar = window.voice_bar
    assert bar is not None and not bar.speak_button.isEnabled()
    mic.set_available(True)
    assert bar.speak_button.isEnabled() and bar.status_label.text() == ""
    assert bar.speak_button.toolTip().startswith("Speak a task")
    window.settings_saved.emit({"voice_device": "usb-mic"})
    assert mic.device_id == "usb-mic"
    await _closed(window)


async def test_window_without_voice_has_no_bar(core: AgentCore) -> None:
    async with open_window(core) as window:
        assert window.voice_bar is None


@pytest.mark.browser
async def test_spoken_datafeed_task_runs_only_after_run_is_pressed(
    offline: PocketsphinxEngine, datafeed_wav: Path, tmp_path: Path, qtbot: QtBot
) -> None:
    with DemoSite() as site:
        core = build_core(
            Settings(runs_dir=tmp_path / "runs", search_url=site.search_template, planner="rules")
        )
        mic = FakeMicRecorder(rate=22_050)
        window = voice_window(core, mic, offline)
        window.show()
        bar = window.voice_bar
        assert bar is not None
        heard = next_emit(bar.voice.transcript_ready)
        qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
        mic.feed(wav_pcm(datafeed_wav)[0])
        qtbot.mouseClick(bar.speak_button, Qt.MouseButton.LeftButton)
        await asyncio.wait_for(heard, 30)
        assert window.task_panel.task_edit.toPlainText() == DATAFEED_TASK
        assert core.history() == []  # heard, shown, not run
        finished = next_emit(window.controller.run_finished)
        qtbot.mouseClick(window.task_panel.run_button, Qt.MouseButton.LeftButton)
        (bundle,) = await asyncio.wait_for(finished, 120)
        await window.controller.wait_idle()
        assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
        assert "datafeed" in (bundle.final_answer or "").lower() and bundle.citations
        meta = RunFolder(core.run_dir(bundle.run_id)).read_run_json()
        assert meta["task_input"]["source"] == "spoken"
        assert meta["task_input"]["transcript"] == DATAFEED_TASK
        assert meta["task_input"]["edited"] is False and meta["task_input"]["audio"] is None
        assert verify(core.run_dir(bundle.run_id)).ok
        # The next run, typed, is not marked as spoken.
        window.task_panel.task_edit.setPlainText(DATAFEED_TASK + " on the demo site")
        finished = next_emit(window.controller.run_finished)
        qtbot.mouseClick(window.task_panel.run_button, Qt.MouseButton.LeftButton)
        (typed,) = await asyncio.wait_for(finished, 120)
        await window.controller.wait_idle()
        assert "task_input" not in RunFolder(core.run_dir(typed.run_id)).read_run_json()
        await _closed(window)
        core.store.close()


def test_settings_dialog_offers_microphones_and_the_endpoint(qtbot: QtBot) -> None:
    from ui.voice_recorder import InputDevice
    from ui.voice_settings import VoiceSettingsGroup

    group = VoiceSettingsGroup(lambda: [InputDevice("usb-1", "USB microphone")])
    qtbot.addWidget(group)
    group.set_values({"voice_device": "usb-1", "voice_engine": "endpoint", "voice_language": "vi"})
    assert group.device_combo.currentText() == "USB microphone"
    group.url_edit.setText("http://127.0.0.1:8000/v1")
    values = group.values({})
    assert values["voice_device"] == "usb-1" and values["voice_engine"] == "endpoint"
    assert values["voice_base_url"] == "http://127.0.0.1:8000/v1" and values["voice_language"] == "vi"
    group.set_values({"voice_device": "gone-mic"})
    assert group.device_combo.currentData() == "gone-mic"
    assert "not connected" in group.device_combo.currentText()
