"""Fixtures for voice tests: synthesised speech (cached per session) and the transcription server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.speech import DATAFEED_TASK, synthesize
from tests.support.transcription_server import TranscriptionServer


@pytest.fixture(scope="session")
def speech_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("speech")


@pytest.fixture(scope="session")
def datafeed_wav(speech_dir: Path) -> Path:
    """The issue's acceptance sentence, spoken by espeak-ng."""
    return synthesize(DATAFEED_TASK, speech_dir / "datafeed.wav")


@pytest.fixture
def stt_server() -> Iterator[TranscriptionServer]:
    server = TranscriptionServer().start()
    try:
        yield server
    finally:
        server.stop()
