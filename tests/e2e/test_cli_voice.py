"""`waypost transcribe` and `waypost run --audio` with speech synthesised by espeak-ng, through the
default offline engine (Whisper base) unless a test configures another."""

from __future__ import annotations

import json
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.demo.server import DemoSite
from receipts.layout import RunFolder
from tests.support.speech import DATAFEED_TASK, spoken_words
from tests.support.transcription_server import TranscriptionServer
from voice.spoken import AUDIO_FILE


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def demo_search(monkeypatch: pytest.MonkeyPatch) -> Iterator[DemoSite]:
    with DemoSite() as site:
        monkeypatch.setenv("WAYPOST_SEARCH_URL", site.search_template)
        yield site


def same_letters(heard: str, said: str) -> bool:
    """The same words, however they are split ("data feed" for "datafeed") or punctuated."""
    return "".join(spoken_words(heard)) == "".join(spoken_words(said))


def test_transcribe_prints_the_text(
    waypost_home: Path, datafeed_wav: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "transcribe", str(datafeed_wav), "--json")
    heard = json.loads(out)
    assert (code, err) == (0, "")
    assert (heard["engine"], heard["language"]) == ("whisper-base", "en")
    assert same_letters(heard["text"], DATAFEED_TASK), heard["text"]
    assert run_cli(capsys, "transcribe", str(datafeed_wav)) == (0, heard["text"] + "\n", "")


def test_transcribe_through_a_configured_endpoint(
    waypost_home: Path,
    datafeed_wav: Path,
    stt_server: TranscriptionServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("WAYPOST_VOICE_URL", stt_server.url)
    code, out, _ = run_cli(capsys, "transcribe", str(datafeed_wav), "--language", "vi", "--json")
    assert code == 0
    assert json.loads(out)["engine"] == "endpoint:whisper-1"
    assert [(r.model, r.language) for r in stt_server.requests] == [("whisper-1", "vi")]


def _silence(path: Path, seconds: float) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\0\0" * int(8000 * seconds))
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("Research the datafeed packages") and p, "is not a PCM WAV file"),
        (lambda p: p.write_bytes(b"") is not None and p, "is empty"),
        (lambda p: _silence(p, 2), "holds no speech"),
        (lambda p: _silence(p, 61), "at most 60 s"),
        (lambda p: p.with_name("missing.wav"), "cannot read"),
    ],
    ids=["not-audio", "empty", "silence", "too-long", "missing"],
)
def test_bad_audio_is_exit_2_with_a_clear_message(
    waypost_home: Path, capsys: pytest.CaptureFixture[str], make: object, message: str
) -> None:
    path = make(waypost_home / "task.wav")  # type: ignore[operator]
    for command in (["transcribe", str(path)], ["run", "--audio", str(path), "--yes"]):
        code, out, err = run_cli(capsys, *command)
        assert (code, out) == (2, "")
        assert message in err and err.startswith("waypost: ")


def test_run_audio_needs_consent_without_a_terminal(
    waypost_home: Path, datafeed_wav: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "run", "--audio", str(datafeed_wav))
    assert (code, out) == (2, "")
    assert "heard (whisper-base · English): Research the" in err
    assert "pass --yes" in err
    assert run_cli(capsys, "run", "task", "--audio", str(datafeed_wav))[0] == 2


@pytest.mark.browser
@pytest.mark.parametrize("keep_audio", [False, True], ids=["transcript-only", "audio-opt-in"])
def test_spoken_datafeed_task_runs_and_receipts_say_spoken(
    waypost_home: Path,
    datafeed_wav: Path,
    demo_search: DemoSite,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    keep_audio: bool,
) -> None:
    if keep_audio:
        (waypost_home / "config").mkdir()
        (waypost_home / "config" / "config.toml").write_text("voice_keep_audio = true\n")
    code, out, err = run_cli(
        capsys, "run", "--audio", str(datafeed_wav), "--yes", "--planner", "rules", "--json"
    )
    bundle = json.loads(out)
    assert code == 0, err
    assert bundle["run_status"] == "SUCCESS"
    assert "datafeed" in (bundle["final_answer"] or "").lower() and bundle["citations"]
    folder = RunFolder.for_run(waypost_home / "data" / "runs", bundle["run_id"])
    meta = folder.read_run_json()
    assert meta["task_input"]["source"] == "spoken"
    assert meta["task_input"]["engine"] == "whisper-base" and meta["task_input"]["language"] == "en"
    assert same_letters(meta["task_input"]["transcript"], DATAFEED_TASK)
    assert (meta["task_input"]["audio"] is not None) is keep_audio
    assert (folder.root / AUDIO_FILE).exists() is keep_audio
    code, out, _ = run_cli(capsys, "receipts", "verify", bundle["run_id"], "--json")
    assert code == 0 and json.loads(out)["ok"] is True
