"""AnswerAssembler: the final answer, with numbered citations that always point at real evidence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from common.words import plural
from executor.models import Citation, EvidenceItem, StepRunV1, StepStatus
from executor.run.action_words import actions_sentence

_TEXT_KEYS = ("answer", "summary", "text", "explanation")
_MARKER = re.compile(r"\[(\d+)\]")


def citations_for(evidence: Sequence[EvidenceItem]) -> tuple[list[Citation], dict[int, int]]:
    """One citation per source page (several evidence chunks of a page share its number), and the
    map from evidence numbers (as tools cite them: ledger order, from 1) to citation numbers."""
    citations: list[Citation] = []
    by_url: dict[str, int] = {}
    renumber: dict[int, int] = {}
    for n, item in enumerate(evidence, start=1):
        key = item.source_url.split("#", 1)[0].rstrip("/")
        if key not in by_url:
            by_url[key] = len(citations) + 1
            citations.append(
                Citation(
                    number=by_url[key],
                    source_url=item.source_url,
                    title=item.title,
                    snippet=item.snippet[:300],
                )
            )
        renumber[n] = by_url[key]
    return citations, renumber


def _texts(step_runs: Iterable[StepRunV1]) -> list[str]:
    out: list[str] = []
    for run in step_runs:
        if run.status is not StepStatus.SUCCESS:
            continue
        for key in _TEXT_KEYS:
            value = run.outputs.get(key)
            if isinstance(value, str) and value.strip():
                out.append(value.strip())
                break
    return out


def _renumber_markers(text: str, renumber: dict[int, int]) -> str:
    """Evidence markers become source markers; one that names no evidence is removed, never left
    pointing nowhere; the same source cited twice in a row is cited once."""

    def swap(match: re.Match[str]) -> str:
        number = renumber.get(int(match.group(1)))
        return f"[{number}]" if number is not None else ""

    text = _MARKER.sub(swap, text)
    return re.sub(r"(\[\d+\])(?:\1)+", r"\1", text)


def _not_done(run: StepRunV1) -> str:
    """A failed step in one sentence a person reads: what was not done and why (its own words)."""
    error = (run.error or run.error_code or "it failed").strip()
    return f"Not done: {error}" if error.endswith((".", "!", "?")) else f"Not done: {error}."


class AnswerAssembler:
    def assemble(
        self,
        step_runs: Sequence[StepRunV1],
        evidence: Sequence[EvidenceItem],
        actions: Sequence[str],
        *,
        waiting: str | None = None,
        optional: frozenset[str] = frozenset(),
        declined: str | None = None,
    ) -> tuple[str, list[Citation]]:
        """The answer: what was not done first (so it can never read as done), then what the steps
        found or did, cited; `waiting` is the question a paused run waits on, `declined` the name of
        the step declined at its gate (the run is over, it waits on nothing). A failed `optional`
        step (a web search beside the page the task named) is a note at the end, not what was asked."""
        citations, renumber = citations_for(evidence)
        failed = [r for r in step_runs if r.status is StepStatus.FAILED]
        parts = [" ".join(_not_done(r) for r in failed if r.step_id not in optional)]
        if declined is not None:
            parts.append(f"Not done: “{declined}” was declined at its gate, so nothing more was done.")
        parts = [p for p in parts if p]
        if waiting:
            parts.append(f"Waiting for you: {waiting}")
        parts += [_renumber_markers(t, renumber) for t in _texts(step_runs)]
        if not parts and citations:
            parts.append(
                "Findings: "
                + " ".join(
                    f"{c.snippet.strip()[:160]} [{c.number}]" for c in citations[:5] if c.snippet.strip()
                )
            )
        notes = [r for r in failed if r.step_id in optional]
        if notes:
            parts.append(
                "Note: "
                + " ".join(f"an optional step did not finish ({r.error or r.error_code})." for r in notes)
            )
        done = actions_sentence(actions)
        if done:
            parts.append(done)
        if citations:
            parts.append(
                "Sources:\n"
                + "\n".join(f"[{c.number}] {c.title or c.source_url} <{c.source_url}>" for c in citations)
            )
        if not parts:
            parts.append(_nothing_found(step_runs, actions))
        return "\n\n".join(parts), citations


def _nothing_found(step_runs: Sequence[StepRunV1], actions: Sequence[str]) -> str:
    """What a run that produced no text did, counted in what it touched (not in steps)."""
    acted = sum(
        r.outputs.get("ui_actions", 0) for r in step_runs if isinstance(r.outputs.get("ui_actions"), int)
    )
    if acted:
        were = "was" if acted == 1 else "were"
        return f"No answer to give: {plural(acted, 'action')} {were} taken on the page and nothing was read."
    return "No answer to give: nothing was read and nothing was done on a page."
