"""Voice: word error rate, real-time factor and peak memory per engine, side by side in one run.

Sets (all spoken by espeak-ng; tests/support/speech.py has the voices):
- phrasings: the dozen English task sentences the tests speak (ten are phrasings pocketsphinx's task
  language model was built from, so its figure there is optimistic);
- held-apart: tests/data/voice_heldapart.jsonl, 30 English and 30 Vietnamese everyday requests that
  built or tuned nothing, each spoken at 130 words a minute (slow), at 180 (fast), and at 130 with
  white noise at 10 dB SNR (noisy).
Engines: whisper-base (the default offline engine), pocketsphinx (task language model, the fallback),
endpoint (the OpenAI-compatible path through the real openai client to a local server that decodes
with pocketsphinx: the row shows transport cost, so it runs the phrasings only), and on request
pocketsphinx-general (its general English model). Pocketsphinx knows English only: Vietnamese is "-".
Each engine runs in a child process of its own, so its peak resident memory (ru_maxrss, model
loaded) is its own; the model load is not counted in the real-time factor (one warm-up clip first).
WER: word-level edit distance over the reference words, pooled over the set (lower case, NFC,
punctuation dropped). RTF: decode time / audio duration per clip, median; under 1 is faster than
real time; "CPU RTF" is the process's CPU time over the audio (both threads counted), which moves less
with the load. "lang ok": clips whose language the engine reported correctly, with none given.
"2nd pass": Whisper clips decoded again over the full window (voice/whisper.py).
The machine's load average is printed at the start and the end of every engine's run.
Run: .venv/bin/python -m benchmarks.voice [--engines whisper-base,pocketsphinx,...] [--verbose]
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
#: The engines a person can choose (pocketsphinx-general, slower than real time here, on request).
DEFAULT_ENGINES = ("whisper-base", "pocketsphinx", "endpoint")
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
    """One engine on one set, condition and language: pooled word errors, per-clip timings."""

    engine: str
    set: str
    condition: str
    language: str
    errors: int
    words: int
    rtfs: list[float]
    cpu_rtfs: list[float]
    language_ok: int
    standard_decodes: int
    #: The engine says which language it heard (the endpoint passes on what it was told: nothing).
    reports_language: bool = True

    @property
    def clips(self) -> int:
        return len(self.rtfs)


def pooled(rows: list[Row]) -> tuple[str, str, str]:
    """(WER, median RTF, median CPU-time RTF) over every clip of these rows, or dashes."""
    if not rows:
        return "-", "-", "-"
    errors, words = sum(r.errors for r in rows), sum(r.words for r in rows)
    rtfs = [x for r in rows for x in r.rtfs]
    cpu = [x for r in rows for x in r.cpu_rtfs]
    return f"{errors / max(1, words):.3f}", f"{statistics.median(rtfs):.3f}", f"{statistics.median(cpu):.3f}"


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
    groups: dict[tuple[str, str, str], list[tuple[int, int, float, float, bool, int]]] = {}
    try:
        for clip in wanted:
            audio = load_wav(Path(clip.path))
            started, cpu = time.perf_counter(), time.process_time()
            try:
                transcript = await engine.transcribe(audio)
                text, language = transcript.text, transcript.language
            except TranscriptionError:
                text, language = "", None
            rtf = (time.perf_counter() - started) / audio.seconds
            cpu_rtf = (time.process_time() - cpu) / audio.seconds
            errors, length = word_errors(clip.text, text)
            standard = getattr(engine, "standard_decodes", 0) - before
            before += standard
            groups.setdefault((clip.set, clip.condition, clip.language), []).append(
                (errors, length, rtf, cpu_rtf, language == clip.language, standard)
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
            *key,
            errors=sum(g[0] for g in got),
            words=sum(g[1] for g in got),
            rtfs=[g[2] for g in got],
            cpu_rtfs=[g[3] for g in got],
            language_ok=sum(g[4] for g in got),
            standard_decodes=sum(g[5] for g in got),
            reports_language=bool(engine.languages),
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
        f"\n{'engine':<21}{'set':<11}{'cond':<7}{'lang':<5}{'clips':>6}{'WER':>7}{'RTF':>7}{'CPU RTF':>8}"
        f"{'lang ok':>9}{'2nd pass':>9}"
    )
    for r in rows:
        wer, rtf, cpu = pooled([r])
        print(
            f"{r.engine:<21}{r.set:<11}{r.condition:<7}{r.language:<5}{r.clips:>6}{wer:>7}{rtf:>7}{cpu:>8}"
            + (f"{r.language_ok:>6}/{r.clips:<2}" if r.reports_language else f"{'-':>9}")
            + f"{r.standard_decodes:>9}"
        )
    print("\nHeld-apart sentences, all three conditions pooled (RTF: medians; peak: resident memory)")
    print(f"{'engine':<21}{'WER en':>7}{'RTF en':>7}{'WER vi':>7}{'RTF vi':>7}{'CPU RTF':>8}{'peak MB':>8}")
    for name in engines:
        mine = [r for r in rows if r.engine == name and r.set == "held-apart"]
        en = pooled([r for r in mine if r.language == "en"])
        vi = pooled([r for r in mine if r.language == "vi"])
        cpu = pooled(mine)[2]
        print(f"{name:<21}{en[0]:>7}{en[1]:>7}{vi[0]:>7}{vi[1]:>7}{cpu:>8}{memory[name]:>8.0f}")
    print(f"\nload average (1 min) at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--engines", default=",".join(DEFAULT_ENGINES), help="comma-separated, from: " + ", ".join(ENGINES)
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
