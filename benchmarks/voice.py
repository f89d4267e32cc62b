"""Voice: word error rate, real-time factor and peak memory per engine, side by side in one run.

Sets (all spoken by espeak-ng; tests/support/speech.py has the voices):
- phrasings: the dozen English task sentences the tests speak (ten are phrasings pocketsphinx's task
  language model was built from, so its figure there is optimistic);
- held-apart: tests/data/voice_heldapart.jsonl, 30 English and 30 Vietnamese everyday requests that
  built or tuned nothing, each spoken at 130 words a minute (slow), at 180 (fast), and at 130 with
  white noise at 10 dB SNR (noisy).
Engines: whisper-base (the default offline engine), pocketsphinx (task language model, the fallback),
pocketsphinx-general (its general English model), and endpoint (the OpenAI-compatible path through the
real openai client to a local server that decodes with pocketsphinx: the row shows transport cost,
so it runs the phrasings only). Pocketsphinx knows English only: its Vietnamese cells are "-".
Each engine runs in a child process of its own, so its peak resident memory (ru_maxrss, model
loaded) is its own; the model load is not counted in the real-time factor (one warm-up clip first).
WER: word-level edit distance over the reference words, pooled over the set (lower case, NFC,
punctuation dropped). RTF: decode time / audio duration per clip, median; under 1 is faster than
real time. "lang ok": clips whose language the engine reported correctly, with none given.
The machine's load average is printed at the start and the end of every engine's run.
Run: .venv/bin/python -m benchmarks.voice [--engines whisper-base,pocketsphinx] [--verbose]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from tests.support.speech import (
    SENTENCES,
    SPEEDS,
    WORDS_PER_MINUTE,
    Spoken,
    held_apart,
    speak,
    word_errors,
)
from tests.support.transcription_server import TranscriptionServer
from voice.audio import load_wav
from voice.config import close_transcriber
from voice.engine import Transcriber, TranscriptionError

ENGINES = ("whisper-base", "pocketsphinx", "pocketsphinx-general", "endpoint")
CONDITIONS = (
    ("slow", SPEEDS["slow"], False),
    ("fast", SPEEDS["fast"], False),
    ("noisy", SPEEDS["slow"], True),
)


@dataclass
class Clip:
    set: str
    condition: str
    language: str
    text: str
    path: str


@dataclass
class Row:
    """One engine on one set, condition and language."""

    engine: str
    set: str
    condition: str
    language: str
    clips: int
    errors: int
    words: int
    rtf: float
    language_ok: int
    standard_decodes: int

    @property
    def wer(self) -> float:
        return self.errors / max(1, self.words)


def make_clips(folder: Path) -> list[Clip]:
    clips = [
        Clip("phrasings", f"{WORDS_PER_MINUTE}wpm", "en", text, str(folder / f"phrasing-{i}.wav"))
        for i, text in enumerate(SENTENCES)
    ]
    for clip in clips:
        speak(Spoken("en", clip.text), Path(clip.path), wpm=WORDS_PER_MINUTE)
    for i, spoken in enumerate(held_apart()):
        for condition, wpm, noisy in CONDITIONS:
            path = folder / f"{spoken.language}-{condition}-{i:02d}.wav"
            speak(spoken, path, wpm=wpm, noisy=noisy)
            clips.append(Clip("held-apart", condition, spoken.language, spoken.text, str(path)))
    return clips


def _engine(name: str) -> tuple[Transcriber, TranscriptionServer | None]:
    if name == "whisper-base":
        from voice.whisper import WhisperEngine

        whisper = WhisperEngine()
        whisper.warm_up()
        return whisper, None
    from voice.offline import PocketsphinxEngine

    if name in ("pocketsphinx", "pocketsphinx-general"):
        pocket = PocketsphinxEngine("task" if name == "pocketsphinx" else "general")
        pocket.warm_up()
        return pocket, None
    from voice.endpoint import EndpointEngine, EndpointSettings

    server = TranscriptionServer().start()
    return EndpointEngine(EndpointSettings(base_url=server.url, model="local")), server


async def _measure(name: str, clips: list[Clip], verbose: bool) -> list[Row]:
    engine, server = _engine(name)  # the endpoint's local server, stopped at the end
    wanted = [
        c
        for c in clips
        if c.language in (engine.languages or ("en",)) and (name != "endpoint" or c.set == "phrasings")
    ]
    await engine.transcribe(load_wav(Path(wanted[0].path)))  # warm-up: first-use costs stay out
    before = getattr(engine, "standard_decodes", 0)
    groups: dict[tuple[str, str, str], list[tuple[int, int, float, bool, int]]] = {}
    try:
        for clip in wanted:
            audio = load_wav(Path(clip.path))
            started = time.perf_counter()
            try:
                transcript = await engine.transcribe(audio)
                text, language = transcript.text, transcript.language
            except TranscriptionError:
                text, language = "", None
            rtf = (time.perf_counter() - started) / audio.seconds
            errors, length = word_errors(clip.text, text)
            standard = getattr(engine, "standard_decodes", 0) - before
            before += standard
            groups.setdefault((clip.set, clip.condition, clip.language), []).append(
                (errors, length, rtf, language == clip.language, standard)
            )
            if verbose:
                print(
                    f"    {name} {clip.condition} {errors}/{length} {clip.text!r} -> {text!r}",
                    file=sys.stderr,
                )
    finally:
        if server is not None:
            await close_transcriber(engine)
            server.stop()
    return [
        Row(
            name,
            key[0],
            key[1],
            key[2],
            len(got),
            sum(g[0] for g in got),
            sum(g[1] for g in got),
            statistics.median(g[2] for g in got),
            sum(g[3] for g in got),
            sum(g[4] for g in got),
        )
        for key, got in groups.items()
    ]


def worker(name: str, manifest: Path, verbose: bool) -> None:
    """Child process: one engine over every clip; prints its rows and its peak memory as JSON."""
    clips = [Clip(**c) for c in json.loads(manifest.read_text(encoding="utf-8"))]
    load = os.getloadavg()[0]
    rows = asyncio.run(_measure(name, clips, verbose))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {"rows": [asdict(r) for r in rows], "peak_mb": peak_mb, "load": [load, os.getloadavg()[0]]}
        )
    )


def _pooled(rows: list[Row], engine: str, language: str) -> str:
    got = [r for r in rows if r.engine == engine and r.set == "held-apart" and r.language == language]
    if not got:
        return "-"
    return f"{sum(r.errors for r in got) / max(1, sum(r.words for r in got)):.3f}"


def main(engines: list[str], verbose: bool) -> None:
    print(f"2 cores; load average (1 min) at start {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        clips = make_clips(Path(tmp))
        manifest = Path(tmp) / "clips.json"
        manifest.write_text(json.dumps([asdict(c) for c in clips]), encoding="utf-8")
        seconds = sum(load_wav(Path(c.path)).seconds for c in clips)
        print(f"{len(clips)} clips, {seconds:.0f} s of speech; each engine in its own process\n")
        rows: list[Row] = []
        memory: dict[str, float] = {}
        for name in engines:
            done = subprocess.run(
                [sys.executable, "-m", "benchmarks.voice", "--worker", name, "--manifest", str(manifest)]
                + (["--verbose"] if verbose else []),
                check=True,
                capture_output=True,
                text=True,
            )
            if verbose:
                print(done.stderr, file=sys.stderr)
            result = json.loads(done.stdout.splitlines()[-1])
            rows += [Row(**r) for r in result["rows"]]
            memory[name] = result["peak_mb"]
            print(f"{name}: load average {result['load'][0]:.1f} at start, {result['load'][1]:.1f} at end")
    print(
        f"\n{'engine':<21}{'set':<11}{'cond':<7}{'lang':<5}{'clips':>6}{'WER':>7}{'RTF med':>9}"
        f"{'lang ok':>9}{'2nd pass':>9}"
    )
    for r in rows:
        print(
            f"{r.engine:<21}{r.set:<11}{r.condition:<7}{r.language:<5}{r.clips:>6}{r.wer:>7.3f}{r.rtf:>9.3f}"
            f"{r.language_ok:>6}/{r.clips:<2}{r.standard_decodes:>9}"
        )
    print(f"\n{'engine':<21}{'held-apart WER en':>18}{'vi':>7}{'peak MB':>9}")
    for name in engines:
        print(f"{name:<21}{_pooled(rows, name, 'en'):>18}{_pooled(rows, name, 'vi'):>7}{memory[name]:>9.0f}")
    print(f"\nload average (1 min) at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--engines", default=",".join(ENGINES), help="comma-separated, from: " + ", ".join(ENGINES)
    )
    parser.add_argument("--verbose", action="store_true", help="print every transcript (stderr)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--manifest", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.manifest, args.verbose)
    else:
        chosen = [e.strip() for e in args.engines.split(",") if e.strip()]
        unknown = sorted(set(chosen) - set(ENGINES))
        if unknown:
            parser.error(f"unknown engine(s): {', '.join(unknown)}")
        main(chosen, args.verbose)
