"""The Whisper engine's own rules: one verified model per process, languages by code, what it says
when a language is unknown. Recognition itself is tested on recordings in tests/e2e/test_cli_whisper.py."""

from __future__ import annotations

import pytest

from tests.support.speech import EN_FIXTURE
from voice.audio import load_wav
from voice.engine import TranscriptionError
from voice.whisper import WhisperEngine, _once, _shared_model
from voice.whisper_files import PACKAGES

pytestmark = pytest.mark.slow


async def test_engines_share_one_loaded_model_and_force_a_language_by_code() -> None:
    first, second = WhisperEngine(), WhisperEngine()
    first.warm_up()
    second.warm_up()
    assert _shared_model(PACKAGES, first.threads) is _shared_model(PACKAGES, second.threads)
    heard = await second.transcribe(load_wav(EN_FIXTURE.path), language="en-US")
    assert heard.language == "en" and heard.engine == "whisper-base"


async def test_an_unknown_language_code_is_a_clear_error() -> None:
    with pytest.raises(TranscriptionError, match="does not know the language 'xx'"):
        await WhisperEngine().transcribe(load_wav(EN_FIXTURE.path), language="xx")


@pytest.mark.parametrize(
    ("heard", "kept"),
    [
        (
            "Search for the winner in Berlin Search for the winner in Berlin",
            "Search for the winner in Berlin",
        ),
        ("Open the page. Open the page.", "Open the page."),
        ("bye bye", "bye bye"),
        (
            "Find a cheap flight to Singapore for next weekend.",
            "Find a cheap flight to Singapore for next weekend.",
        ),
    ],
)
def test_a_whole_utterance_said_twice_is_kept_once(heard: str, kept: str) -> None:
    assert _once(heard) == kept
