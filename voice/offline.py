"""The small offline fallback: pocketsphinx with the English acoustic model shipped in its wheel.

Serves when the Whisper model (voice.whisper) is not installed, or when chosen in Settings.
No network and no download at run time. By default it decodes with a language model built from
Waypost's task phrasings (voice.phrases), which roughly halves the word error rate on task sentences
against the general English model; `vocabulary="general"` uses the wheel's own model instead.
"""

from __future__ import annotations

import asyncio
import tempfile
import threading
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from common.lazy import lazy_module
from voice.audio import SAMPLE_RATE, AudioClip
from voice.engine import Transcript, TranscriptionError
from voice.lm import build_arpa, build_dictionary, read_dictionary, words
from voice.phrases import task_sentences

if TYPE_CHECKING:
    import pocketsphinx
else:  # the decoder library loads with the first transcription
    pocketsphinx = lazy_module("pocketsphinx")

Vocabulary = Literal["task", "general"]


def _model_dir() -> Path:
    return Path(pocketsphinx.get_model_path()) / "en-us"


@cache
def _task_model_files() -> tuple[str, str]:
    """Writes the task LM and its dictionary once per process; returns (lm path, dict path)."""
    known = read_dictionary((_model_dir() / "cmudict-en-us.dict").read_text(encoding="utf-8"))
    sentences = task_sentences()
    vocab = {w for s in sentences for w in words(s)}
    dictionary, missing = build_dictionary(vocab, known)
    if missing:  # a word the recogniser cannot pronounce would make the decoder refuse the LM
        gone = set(missing)
        sentences = [" ".join(w for w in words(s) if w not in gone) for s in sentences]
    folder = Path(tempfile.mkdtemp(prefix="waypost-voice-"))
    (folder / "task.lm").write_text(build_arpa(sentences), encoding="utf-8")
    (folder / "task.dict").write_text(dictionary, encoding="utf-8")
    return str(folder / "task.lm"), str(folder / "task.dict")


@cache
def _proper_nouns() -> dict[str, str]:
    """Names the phrasings capitalise (Hanoi, Alice), so the transcript reads as typed text."""
    return {w.lower(): w for s in task_sentences() for w in s.split()[1:] if w[:1].isupper() and w.isalpha()}


def _cased(text: str) -> str:
    names = _proper_nouns()
    out = " ".join(names.get(w, w) for w in text.split())
    return out[:1].upper() + out[1:]


class PocketsphinxEngine:
    """English only; a decoder is built on first use (about a second) and reused, one clip at a time."""

    languages: tuple[str, ...] = ("en",)

    def __init__(self, vocabulary: Vocabulary = "task") -> None:
        self.vocabulary: Vocabulary = vocabulary
        self.name = "pocketsphinx" if vocabulary == "task" else f"pocketsphinx-{vocabulary}"
        self._decoder: pocketsphinx.Decoder | None = None
        self._lock = threading.Lock()

    def _make_decoder(self) -> pocketsphinx.Decoder:
        options: dict[str, object] = {"samprate": SAMPLE_RATE, "loglevel": "FATAL"}
        if self.vocabulary == "task":
            lm, dictionary = _task_model_files()
            options.update(lm=lm, dict=dictionary)
        try:
            return pocketsphinx.Decoder(**options)
        except (RuntimeError, ValueError) as exc:
            raise TranscriptionError(f"the offline recogniser could not start: {exc}") from exc

    def transcribe_sync(self, clip: AudioClip) -> Transcript:
        with self._lock:
            if self._decoder is None:
                self._decoder = self._make_decoder()
            started = time.perf_counter()
            decoder = self._decoder
            decoder.start_utt()
            decoder.process_raw(clip.pcm, full_utt=True)
            decoder.end_utt()
            hyp = decoder.hyp()
            elapsed = time.perf_counter() - started
        text = hyp.hypstr.strip() if hyp is not None else ""
        if not text:
            raise TranscriptionError("no words were recognised; speak closer to the microphone and try again")
        return Transcript(
            text=_cased(text),
            engine=self.name,
            language="en",
            audio_seconds=clip.seconds,
            decode_seconds=elapsed,
        )

    async def transcribe(self, clip: AudioClip, *, language: str | None = None) -> Transcript:
        if language and not language.lower().startswith("en"):
            raise TranscriptionError(
                f"pocketsphinx only knows English, not {language!r}: install the Whisper model "
                "(./waypost.sh) or configure a transcription endpoint in Settings for other languages"
            )
        return await asyncio.to_thread(self.transcribe_sync, clip)

    def warm_up(self) -> None:
        """Builds the decoder now (about a second) so the first recording is not slower."""
        with self._lock:
            if self._decoder is None:
                self._decoder = self._make_decoder()
