"""What the sources say about candidates: the citable page sentences of a run, the task's stated need,
and the sentences that tie a candidate to that need.

- Citable text: the full text of pages that gave evidence (earlier steps' page outputs, the run's
  cached reads), else the evidence snippets; pages recognised as copies are never used. Each
  sentence carries the ledger number [n] of the first evidence item from its page.
- The need: what the task says the choice is for ("recommend one for a small fintech", "for
  commercial use"): its content words.
- Support: a sentence that names a candidate and holds the need's words ("A small fintech building
  an internal product usually starts with Pro") counts for that candidate, cited.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from executor.models import EvidenceItem
from executor.research.common import citation_number
from executor.research.copies import url_key
from executor.research.text import normalise, sentences, tokens

_FOR = re.compile(
    r"\bfor\s+(?:a|an|the|my|our|us|me)?\s*([^\W\d_][\w\s-]{2,60}?)"
    r"(?=\s*(?:[,.;:!?]|\bthen\b|\band\b|\bwith\b|\bthat\b|\bwho\b|$))",
    re.IGNORECASE,
)
_NOT_A_NEED = {"it", "them", "this", "that", "one", "sources", "source", "me", "us"}
_URL = re.compile(r"https?://[^\s,;)]+")


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    url: str
    number: int


def need_terms(question: str) -> list[str]:
    """Content words of what the task says the choice is for; [] when it says nothing."""
    text = _URL.sub(" ", question)
    found: list[str] = []
    for match in _FOR.finditer(text):
        phrase = match.group(1).strip()
        if phrase.lower() in _NOT_A_NEED:
            continue
        found.extend(t for t in tokens(phrase) if t not in _NOT_A_NEED)
    return list(dict.fromkeys(found))


def need_phrase(question: str) -> str | None:
    """'for a small fintech': the task's own words for the need, when it states one."""
    for match in _FOR.finditer(_URL.sub(" ", question)):
        if match.group(1).strip().lower() not in _NOT_A_NEED:
            return " ".join(match.group(0).split())
    return None


def task_urls(question: str) -> list[str]:
    return [url_key(u.rstrip(".")) for u in _URL.findall(question)]


def copies_of(step_outputs: Mapping[str, Mapping[str, object]]) -> set[str]:
    out: set[str] = set()
    for outputs in step_outputs.values():
        dups = outputs.get("duplicates")
        if isinstance(dups, list):
            out.update(url_key(u) for u in dups if isinstance(u, str))
    return out


def page_texts(
    step_outputs: Mapping[str, Mapping[str, object]],
    evidence: Sequence[EvidenceItem],
    cached: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """url -> the fullest text known for every page that gave evidence (copies left out)."""
    copies = copies_of(step_outputs)
    texts: dict[str, str] = {}
    for outputs in step_outputs.values():
        url, content = outputs.get("url"), outputs.get("content")
        if isinstance(url, str) and isinstance(content, str):
            texts[url_key(url)] = content
    for item in evidence:
        key = url_key(item.source_url)
        if key in copies:
            continue
        full = (cached or {}).get(key, "")
        if len(full) > len(texts.get(key, "")):
            texts[key] = full
        elif key not in texts:
            texts[key] = item.snippet  # no full text known: the snippets stand in for it
        elif item.snippet and len(texts[key]) <= 2 * len(item.snippet) and item.snippet not in texts[key]:
            texts[key] += "\n" + item.snippet
    return {k: v for k, v in texts.items() if k not in copies}


def citable_sentences(texts: Mapping[str, str], evidence: Sequence[EvidenceItem]) -> list[Sentence]:
    """Sentences (a line break ends one too: headings stay apart) of pages the ledger can cite.
    Page text wrapped mid-sentence ("... per month," / "billed monthly; ...") is joined again: a
    piece that starts in lower case continues the one before it."""
    out: list[Sentence] = []
    seen: set[str] = set()
    for url, text in texts.items():
        number = citation_number(evidence, url)
        if number is None:
            continue
        pieces: list[str] = []
        for line in text.splitlines():
            for sentence in sentences(line):
                clean = normalise(sentence)
                if pieces and clean[:1].islower() and pieces[-1][-1:] not in ".!?":
                    pieces[-1] = f"{pieces[-1]} {clean}"
                elif clean:
                    pieces.append(clean)
        for piece in pieces:
            if len(tokens(piece)) >= 3 and piece not in seen:
                seen.add(piece)
                out.append(Sentence(piece, url, number))
    return out


def names(text: str, name: str) -> bool:
    """Whether `text` names `name` as a word (case-sensitive for capitalised names: "Plus" the
    package, not "plus" the word)."""
    if not name.strip():
        return False
    flags = 0 if any(c.isupper() for c in name) else re.IGNORECASE
    return re.search(rf"(?<![\w-]){re.escape(name.strip())}(?![\w-])", text, flags) is not None


def supporting(
    candidate: str, need: Sequence[str], pool: Iterable[Sentence], *, coverage: float = 0.99
) -> list[Sentence]:
    """Sentences naming `candidate` that hold (nearly) all of the need's words."""
    if not need:
        return []
    wanted = set(need)
    out = []
    for s in pool:
        if not names(s.text, candidate):
            continue
        have = set(tokens(s.text))
        if len(wanted & have) >= coverage * len(wanted):
            out.append(s)
    return out


def cite(s: Sentence) -> str:
    body = s.text.rstrip()
    end = body[-1] if body and body[-1] in ".!?" else "."
    body = body.rstrip(".!?")
    return f"{body} [{s.number}]{end}"
