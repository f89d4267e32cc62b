"""Does a model's reply repeat itself? Small local models loop ("I will fill the name field. I will
fill the name field. ...") until their token limit; such a reply is no answer, and asking again
with the same prompt loops again (docs/architecture.md, "Slow models").

Two signs, either enough: a tail made of one unit of 4-400 characters repeated at least four times
(a reply cut off mid-loop), or one sentence of three words or more said three times inside a JSON
string (a loop the model closed). JSON's own repeated shapes (keys, nulls) are neither.
"""

from __future__ import annotations

import re

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_MIN_TAIL_REPEATS = 4
_MIN_SENTENCE_REPEATS = 3


def repeats_itself(text: str) -> bool:
    return _periodic_tail(text) or _repeated_sentence(text)


def _periodic_tail(text: str, *, shortest: int = 4, longest: int = 400) -> bool:
    """The last 4 x p characters have period p (a cut-off loop may stop mid-unit)."""
    tail = text.rstrip()[-4 * longest :]
    span = _MIN_TAIL_REPEATS - 1
    for period in range(shortest, min(longest, len(tail) // _MIN_TAIL_REPEATS) + 1):
        unit = tail[-period:]
        if len(set(unit)) < 3:
            continue  # spaces or "}}}}" closing brackets are not a loop
        if tail[-span * period :] == tail[-(span + 1) * period : -period]:
            return True
    return False


def _repeated_sentence(text: str) -> bool:
    for literal in _STRING.findall(text):
        seen: dict[str, int] = {}
        for sentence in _SENTENCE.findall(literal):
            words = re.findall(r"\w+", sentence.lower())
            if len(words) < 3:
                continue
            key = " ".join(words)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] >= _MIN_SENTENCE_REPEATS:
                return True
    return False
