"""Voice: word error rate and real-time factor per engine on a dozen task sentences spoken by espeak-ng.

Sets: "task" is the dozen sentences the tests speak (ten of them appear word for word in the
language model's phrasings, so its WER is optimistic); "held-out" is six task requests in the same
vocabulary phrased differently; "off-task" is six requests outside it.
Engines:
1. offline-task: pocketsphinx with the task-phrase language model (the default);
2. offline-general: pocketsphinx with the general English model shipped in its wheel;
3. endpoint: the OpenAI-compatible path through the real openai client to a local server that
   decodes with the offline engine (so the row shows the transport's overhead, not a whisper's WER).
WER is word-level edit distance over reference words, pooled over the set. The real-time factor is
decode time / audio duration (median per sentence); under 1 is faster than real time. Each clip is
decoded `--rounds` times after a warm-up, so decoder start-up is not counted.
Run: .venv/bin/python -m benchmarks.voice [--rounds 3] [--verbose]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from tests.support.speech import (
    HELD_OUT_SENTENCES,
    OFF_TASK_SENTENCES,
    SENTENCES,
    VOICE,
    WORDS_PER_MINUTE,
    synthesize,
    word_error_rate,
)
from tests.support.transcription_server import TranscriptionServer
from voice.audio import AudioClip, load_wav
from voice.endpoint import EndpointEngine, EndpointSettings
from voice.engine import Transcriber
from voice.lm import words
from voice.offline import PocketsphinxEngine


async def measure(
    engine: Transcriber, sentences: tuple[str, ...], clips: list[AudioClip], rounds: int, verbose: bool
) -> tuple[float, float]:
    await engine.transcribe(clips[0])  # warm-up: the decoder loads its model once
    errors, ref_words, factors = 0.0, 0, []
    for sentence, clip in zip(sentences, clips, strict=True):
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            text = (await engine.transcribe(clip)).text
            times.append(time.perf_counter() - started)
        factors.append(statistics.median(times) / clip.seconds)
        errors += word_error_rate(sentence, text) * len(words(sentence))
        ref_words += len(words(sentence))
        if verbose:
            print(f"    {word_error_rate(sentence, text):4.2f}  {sentence!r} -> {text!r}")
    return errors / ref_words, statistics.median(factors)


async def main(rounds: int, verbose: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clips = [load_wav(synthesize(s, Path(tmp) / f"{i}.wav")) for i, s in enumerate(SENTENCES)]
        extra = {
            name: (
                sentences,
                [load_wav(synthesize(s, Path(tmp) / f"{name}{i}.wav")) for i, s in enumerate(sentences)],
            )
            for name, sentences in (("held-out", HELD_OUT_SENTENCES), ("off-task", OFF_TASK_SENTENCES))
        }
    audio = sum(c.seconds for c in clips)
    print(f"{len(clips)} sentences, {audio:.1f} s of speech (espeak-ng {VOICE}, {WORDS_PER_MINUTE} wpm)")
    server = TranscriptionServer().start()
    endpoint = EndpointEngine(EndpointSettings(base_url=server.url, model="local"))
    engines: list[Transcriber] = [PocketsphinxEngine("task"), PocketsphinxEngine("general"), endpoint]
    print(f"{'engine':<18} {'set':<9} {'WER':>6} {'RTF (median)':>13}")
    try:
        for engine in engines:
            wer, rtf = await measure(engine, SENTENCES, clips, rounds, verbose)
            print(f"{engine.name:<18} {'task':<9} {wer:6.3f} {rtf:13.3f}")
            if not isinstance(engine, PocketsphinxEngine):
                continue  # the endpoint row measures transport; its server decodes as offline-task
            for name, (sentences, more) in extra.items():
                wer, rtf = await measure(engine, sentences, more, 1, verbose)
                print(f"{engine.name:<18} {name:<9} {wer:6.3f} {rtf:13.3f}")
    finally:
        await endpoint.aclose()
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="print every transcript")
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.verbose))
