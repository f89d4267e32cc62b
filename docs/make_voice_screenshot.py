"""Makes docs/screenshot-voice.png (recording), docs/screenshot-voice-heard.png (transcript in the
box) and docs/screenshot-voice-vi.png (a Vietnamese request heard, with the language shown).

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/make_voice_screenshot.py

A virtual display has no microphone, so the "microphone" here plays a sentence spoken by espeak-ng
in real time through the same recorder interface the window uses; the transcription is the engine
the settings choose (Whisper base when installed). Nothing is run: the pictures show the transcript
waiting for the person's Run.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import wave
from pathlib import Path

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.settings import Settings  # noqa: E402
from app.voice_wiring import voice_config  # noqa: E402
from app.wiring import build_core  # noqa: E402
from tests.support.speech import VI_FIXTURE  # noqa: E402
from ui.controller import RunController  # noqa: E402
from ui.main_window import MainWindow  # noqa: E402
from ui.voice_controller import VoiceController, VoiceOptions  # noqa: E402
from ui.voice_recorder import MicRecorder, _peak  # noqa: E402
from voice.config import choose_transcriber  # noqa: E402
from voice.engine import WarmsUp  # noqa: E402

DOCS = ROOT / "docs"
SENTENCE = "Research the datafeed packages and compare their prices"


class PlaybackMic(MicRecorder):
    """Delivers a WAV file's samples in 100 ms chunks at real-time pace, like a live microphone."""

    def __init__(self, wav: Path) -> None:
        super().__init__()
        with wave.open(str(wav), "rb") as w:
            self.rate, self._pcm = w.getframerate(), w.readframes(w.getnframes())
        self._pos, self._got = 0, bytearray()
        self.played = asyncio.Event()
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)

    @property
    def available(self) -> bool:
        return True

    def start(self) -> None:
        self._pos, self._got = 0, bytearray()
        self._timer.start()

    def _tick(self) -> None:
        step = self.rate // 10 * 2
        chunk = self._pcm[self._pos : self._pos + step]
        self._pos += step
        self._got += chunk
        if self._pos >= len(self._pcm):
            self.played.set()
        self.level_changed.emit(_peak(chunk))

    def stop(self) -> bytes:
        self._timer.stop()
        return bytes(self._got)


def speak(wav: Path) -> Path:
    subprocess.run(["espeak-ng", "-v", "en-us+f2", "-s", "150", "-w", str(wav), SENTENCE], check=True)
    return wav


async def shoot(tmp: Path, wav: Path, recording: str | None, heard_shot: str) -> None:
    settings = Settings(runs_dir=tmp / "runs", planner="rules")
    core = build_core(settings)
    chosen = choose_transcriber(voice_config(settings))
    mic = PlaybackMic(wav)
    voice = VoiceController(mic, chosen.engine, VoiceOptions(note=chosen.note))
    if isinstance(chosen.engine, WarmsUp):
        await asyncio.to_thread(chosen.engine.warm_up)
    window = MainWindow(RunController(core), settings.model_dump(mode="json"), voice=voice)
    window.resize(1280, 800)
    window.show()
    heard: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    voice.transcript_ready.connect(lambda text: heard.done() or heard.set_result(text))
    voice.start()
    await asyncio.sleep(2.2)  # mid-sentence: meter and elapsed time showing (a picture, not a test)
    if recording:
        window.grab().save(str(DOCS / recording))
    await mic.played.wait()  # the whole sentence (a loaded machine fires the timer late)
    voice.stop()
    print("heard:", await asyncio.wait_for(heard, 120), f"({voice.engine_label})")
    await asyncio.sleep(0.3)
    window.grab().save(str(DOCS / heard_shot))
    window.close()
    await window.aclose()
    core.store.close()


async def main(tmp: Path) -> None:
    await shoot(tmp, speak(tmp / "task.wav"), "screenshot-voice.png", "screenshot-voice-heard.png")
    await shoot(tmp, VI_FIXTURE.path, None, "screenshot-voice-vi.png")


if __name__ == "__main__":
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with tempfile.TemporaryDirectory() as folder, loop:
        loop.run_until_complete(main(Path(folder)))
