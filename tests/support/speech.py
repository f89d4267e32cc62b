"""Spoken task sentences synthesised with espeak-ng at test time (a Debian package, no network).

The US English voice "en-us+f2" at 150 words a minute is the one the offline acoustic model hears best
of the espeak voices; the benchmark uses the same set, so its figures describe what the tests see.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

VOICE = "en-us+f2"
WORDS_PER_MINUTE = 150

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


def synthesize(text: str, out: Path) -> Path:
    """Writes `text` spoken by espeak-ng as a 22.05 kHz mono WAV file at `out`."""
    subprocess.run(
        [espeak_path(), "-v", VOICE, "-s", str(WORDS_PER_MINUTE), "-w", str(out), text],
        check=True,
        capture_output=True,
    )
    return out


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Word-level Levenshtein distance over the reference length (case and punctuation ignored)."""
    from voice.lm import words

    ref, hyp = words(reference), words(hypothesis)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[-1] / max(1, len(ref))
