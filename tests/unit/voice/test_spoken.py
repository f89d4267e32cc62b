"""The transcript lands in run.json marked as spoken; the audio only when the person opted in."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from voice.audio import AudioClip
from voice.engine import Transcript
from voice.spoken import AUDIO_FILE, record_spoken_input, spoken_input

HEARD = Transcript(
    text="Research the datafeed packages",
    engine="pocketsphinx",
    language="en",
    audio_seconds=2.0,
    decode_seconds=0.1,
)


def _run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run_1"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"run_id": "run_1", "task": "x"}))
    return run


def test_transcript_only_by_default(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    record_spoken_input(run, spoken_input(HEARD, "Research the datafeed  packages"))
    meta = json.loads((run / "run.json").read_text())
    assert meta["task"] == "x"  # other keys kept
    assert meta["task_input"] == {
        "source": "spoken",
        "transcript": "Research the datafeed packages",
        "engine": "pocketsphinx",
        "language": "en",
        "edited": False,
        "audio": None,
    }
    assert not (run / AUDIO_FILE).exists()


def test_audio_kept_on_opt_in_with_its_hash(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    clip = AudioClip((np.ones(1600, dtype="<i2") * 500).tobytes())
    record_spoken_input(run, spoken_input(HEARD, "Research the datafeed packages and prices"), clip)
    meta = json.loads((run / "run.json").read_text())["task_input"]
    assert meta["edited"] is True
    data = (run / AUDIO_FILE).read_bytes()
    assert meta["audio"]["sha256"] == hashlib.sha256(data).hexdigest()
