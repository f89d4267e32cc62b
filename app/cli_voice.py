"""`waypost transcribe FILE.wav` and the `--audio` half of `waypost run`.

What was heard is always printed before anything runs; a run from audio asks on a terminal and needs
--yes without one, so a transcript is never run unseen. Bad audio exits with code 2 and says why.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.settings import Settings
from common.secrecy import scrub

if TYPE_CHECKING:  # the voice engines load only when audio is given (docs/architecture.md, "Cold start")
    from voice.audio import AudioClip
    from voice.engine import Transcript
    from voice.spoken import SpokenInput


class VoiceInputError(Exception):
    """The audio could not become a task; printed as one line, exit code 2."""


def add_transcribe_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("transcribe", help="print what a WAV recording says (offline unless configured)")
    p.add_argument("audio", type=Path, help="a 16-bit PCM WAV file, at most 60 s")
    p.add_argument("--language", help="language code (en, vi, ...); default: the engine decides")
    p.add_argument("--runs-dir", type=Path)
    p.add_argument("--json", action="store_true")


def add_run_audio_arguments(run: argparse.ArgumentParser) -> None:
    run.add_argument("--audio", type=Path, help="a WAV recording of the task: transcribed, shown, then run")
    run.add_argument("--language", help="--audio: language code (en, vi, ...); default: the engine decides")
    run.add_argument("--yes", action="store_true", help="--audio: run the transcript without asking")


async def transcribe_file(
    path: Path, settings: Settings, language: str | None
) -> tuple[Transcript, AudioClip]:
    from app.voice_wiring import voice_config
    from voice.audio import AudioError, load_wav
    from voice.config import VoiceConfigError, choose_transcriber, close_transcriber
    from voice.engine import TranscriptionError

    config = voice_config(settings)
    try:
        clip = load_wav(path)
        chosen = choose_transcriber(config)
    except (AudioError, VoiceConfigError) as exc:
        raise VoiceInputError(str(exc)) from exc
    engine = chosen.engine
    if chosen.note:
        print(f"waypost: note: {chosen.note}", file=sys.stderr)
    try:
        return await engine.transcribe(clip, language=language or config.language), clip
    except TranscriptionError as exc:
        raise VoiceInputError(f"{path}: {exc}") from exc
    finally:
        await close_transcriber(engine)


async def cmd_transcribe(args: argparse.Namespace, settings: Settings) -> int:
    transcript, _ = await transcribe_file(args.audio, settings, args.language)
    print(scrub(json.dumps(transcript.model_dump(), ensure_ascii=False) if args.json else transcript.text))
    return 0


def _confirmed(text: str, yes: bool) -> bool:
    if yes:
        return True
    if not sys.stdin.isatty():
        raise VoiceInputError("not running a transcript nobody has seen: pass --yes, or run on a terminal")
    answer = input(f'Run "{text}"? [y/N] ')
    return answer.strip().lower() in {"y", "yes"}


async def task_from_audio(args: argparse.Namespace, settings: Settings) -> tuple[str, SpokenInput, AudioClip]:
    """The task text heard in --audio, after showing it (stderr) and getting consent."""
    from voice.engine import heard_label
    from voice.spoken import spoken_input

    transcript, clip = await transcribe_file(args.audio, settings, args.language)
    print(scrub(f"heard ({heard_label(transcript)}): {transcript.text}"), file=sys.stderr)
    if not _confirmed(transcript.text, args.yes):
        raise VoiceInputError("not run: the transcript was not confirmed")
    return transcript.text, spoken_input(transcript, transcript.text), clip


def mark_spoken(run_dir: Path, spoken: SpokenInput, clip: AudioClip, settings: Settings) -> None:
    from receipts.attest import amend_signed
    from receipts.keys import install_key
    from voice.spoken import record_spoken_input

    keep = clip if settings.voice_keep_audio else None
    amend_signed(run_dir, install_key(), lambda: record_spoken_input(run_dir, spoken, keep))
