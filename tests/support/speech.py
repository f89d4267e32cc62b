"""Spoken sentences synthesised with espeak-ng (a Debian package, no network), and word error rate.

The US English voice "en-us+f2" at 150 words a minute is the one pocketsphinx's acoustic model hears
best of the espeak voices; Vietnamese uses espeak's "vi". The benchmark uses the same voices, speeds
and noise, so its figures describe what the tests see. `python -m tests.support.speech` rewrites the
committed WAV fixtures of tests/fixtures/voice/ (the Whisper tests read those, so they need no espeak).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import unicodedata
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

VOICE = "en-us+f2"
WORDS_PER_MINUTE = 150
VOICES = {"en": VOICE, "vi": "vi"}
#: The held-apart sets are spoken at these two speeds (words a minute); noise is added to the first.
SPEEDS = {"slow": 130, "fast": 180}
NOISE_SNR_DB = 10.0
HELD_APART = Path(__file__).resolve().parent.parent / "data" / "voice_heldapart.jsonl"
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "voice"

#: The sentence the issue's acceptance check speaks.
DATAFEED_TASK = "Research the datafeed packages and compare their prices"

#: A dozen task sentences: some phrased as the language model's corpus, some not.
SENTENCES: tuple[str, ...] = (
    DATAFEED_TASK,
    "Open the signup page and prefill the form but don't submit",
    "Open my account page and read my current plan",
    "Summarize this page with sources",
    "Find the cheapest flights to Hanoi",
    "Compare the pricing plans and recommend one",
    "Go to the checkout page",
    "Search for the weather in Berlin",
    "Recommend a plan for a small fintech",
    "Check the reviews of this product",
    "Explain what my plan includes",
    "Look up the train times to London",
)

#: Task requests in the task vocabulary but phrased unlike any corpus sentence (for the benchmark:
#: ten of the dozen above appear word for word in voice/phrases.py, so their error rate is optimistic).
HELD_OUT_SENTENCES: tuple[str, ...] = (
    "Compare the prices of the datafeed packages",
    "Open the account page and explain my plan",
    "Find the reviews of the cheapest laptops",
    "Read the terms of service and give me a summary",
    "Fill in the signup form with my name but don't submit it",
    "Check the opening hours of the library on the demo site",
)

#: Requests outside the task phrasings: the benchmark shows what the offline engine does NOT hear.
OFF_TASK_SENTENCES: tuple[str, ...] = (
    "Order a large pizza with mushrooms and olives",
    "What time does the museum close on Sunday",
    "Email my landlord about the broken heater",
    "Play some relaxing jazz music",
    "Remind me to call grandma tomorrow morning",
    "How tall is the Eiffel Tower",
)


class SpeechSynthesisUnavailable(RuntimeError):
    """espeak-ng is missing: scripts/bootstrap.sh installs it for the tests."""


def espeak_path() -> str:
    path = shutil.which("espeak-ng")
    if path is None:
        raise SpeechSynthesisUnavailable("espeak-ng is not installed (apt-get install -y espeak-ng)")
    return path


def synthesize(text: str, out: Path, *, voice: str = VOICE, wpm: int = WORDS_PER_MINUTE) -> Path:
    """Writes `text` spoken by espeak-ng as a 22.05 kHz mono WAV file at `out`."""
    subprocess.run(
        [espeak_path(), "-v", voice, "-s", str(wpm), "-w", str(out), text],
        check=True,
        capture_output=True,
    )
    return out


def with_noise(pcm: bytes, snr_db: float = NOISE_SNR_DB, seed: int = 34) -> bytes:
    """The samples with white Gaussian noise at `snr_db` below the clip's mean power (seeded)."""
    samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    power = float(np.mean(samples**2))
    noise = np.random.default_rng(seed).normal(0.0, np.sqrt(power / 10 ** (snr_db / 10)), len(samples))
    return bytes(np.clip(samples + noise, -32768, 32767).astype("<i2").tobytes())


def write_wav16k(pcm: bytes, out: Path) -> Path:
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16_000)
        w.writeframes(pcm)
    return out


@dataclass(frozen=True, slots=True)
class Spoken:
    language: str
    text: str


def held_apart(language: str | None = None) -> list[Spoken]:
    """The benchmark's everyday requests, English and Vietnamese, used to build or tune nothing."""
    rows = [json.loads(line) for line in HELD_APART.read_text(encoding="utf-8").splitlines() if line]
    return [Spoken(r["lang"], r["text"]) for r in rows if language in (None, r["lang"])]


def speak(spoken: Spoken, out: Path, *, wpm: int, noisy: bool = False) -> Path:
    """`spoken` said by espeak-ng as a 16 kHz WAV at `out`, with noise at NOISE_SNR_DB if asked."""
    from voice.audio import load_wav

    with tempfile.TemporaryDirectory() as tmp:
        raw = synthesize(spoken.text, Path(tmp) / "raw.wav", voice=VOICES[spoken.language], wpm=wpm)
        pcm = load_wav(raw).pcm
    return write_wav16k(with_noise(pcm) if noisy else pcm, out)


def spoken_words(text: str) -> list[str]:
    """Words as compared for the error rate: NFC, lower case, punctuation and symbols dropped
    (apostrophes and hyphens join: "e-mail" is "email"), so Vietnamese keeps its diacritics."""
    kept = []
    for char in unicodedata.normalize("NFC", text).lower():
        if unicodedata.category(char)[0] in "PS":
            kept.append("" if char in "'’-" else " ")
        else:
            kept.append(char)
    return "".join(kept).split()


def word_errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """Word-level Levenshtein distance, and the reference's length."""
    ref, hyp = spoken_words(reference), spoken_words(hypothesis)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[-1], len(ref)


def word_error_rate(reference: str, hypothesis: str) -> float:
    errors, length = word_errors(reference, hypothesis)
    return errors / max(1, length)


@dataclass(frozen=True, slots=True)
class Fixture:
    """A committed WAV of tests/fixtures/voice/: what it says, in which language, and how."""

    file: str
    spoken: Spoken
    noisy: bool = False

    @property
    def path(self) -> Path:
        return FIXTURES / self.file


#: Sentences of their own (neither task phrasings nor held-apart), spoken at 150 words a minute.
EN_FIXTURE = Fixture("en-flights.wav", Spoken("en", "Find a cheap flight to Singapore for next weekend"))
VI_FIXTURE = Fixture("vi-pho.wav", Spoken("vi", "Tìm quán phở ngon ở gần đây"))
NOISY_FIXTURE = Fixture(
    "en-noisy.wav", Spoken("en", "Look for a quiet cafe with free wifi near the station"), noisy=True
)
FIXTURE_SET = (EN_FIXTURE, VI_FIXTURE, NOISY_FIXTURE)


def write_fixtures() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for fixture in FIXTURE_SET:
        speak(fixture.spoken, fixture.path, wpm=WORDS_PER_MINUTE, noisy=fixture.noisy)
        print(f"{fixture.path} ({fixture.spoken.language}): {fixture.spoken.text}")


if __name__ == "__main__":
    write_fixtures()
