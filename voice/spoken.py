"""Marks a run's task as spoken in its receipts: run.json gets the transcript and how it was heard.

The audio itself is written only when the person opted in (keep_audio), with its sha256 beside it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from receipts.layout import RunFolder, write_atomic
from voice.audio import AudioClip
from voice.engine import Transcript

AUDIO_FILE = "spoken-task.wav"


class SpokenAudio(BaseModel):
    path: str
    sha256: str
    seconds: float


class SpokenInput(BaseModel):
    """`task_input` in run.json: what was heard, and whether the person edited it before Run."""

    model_config = ConfigDict(frozen=True)

    source: Literal["spoken"] = "spoken"
    transcript: str
    engine: str
    language: str | None
    edited: bool
    audio: SpokenAudio | None = None


def spoken_input(transcript: Transcript, task_text: str) -> SpokenInput:
    return SpokenInput(
        transcript=transcript.text,
        engine=transcript.engine,
        language=transcript.language,
        edited=" ".join(task_text.split()) != " ".join(transcript.text.split()),
    )


def record_spoken_input(run_dir: Path, spoken: SpokenInput, clip: AudioClip | None = None) -> SpokenInput:
    """Merges `task_input` into the run's run.json (after the run: the recorder is closed by then)."""
    folder = RunFolder(Path(run_dir))
    if clip is not None:
        wav = clip.to_wav()
        write_atomic(folder.root / AUDIO_FILE, wav)
        audio = SpokenAudio(path=AUDIO_FILE, sha256=hashlib.sha256(wav).hexdigest(), seconds=clip.seconds)
        spoken = spoken.model_copy(update={"audio": audio})
    current = folder.read_run_json()
    current["task_input"] = spoken.model_dump(mode="json")
    write_atomic(folder.run_json, json.dumps(current, indent=2, ensure_ascii=False).encode("utf-8"))
    return spoken
