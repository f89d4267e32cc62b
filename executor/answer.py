"""AnswerAssembler: the final answer, with numbered citations that always point at real evidence."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from executor.models import Citation, EvidenceItem, StepRunV1, StepStatus

_TEXT_KEYS = ("answer", "summary", "text", "explanation")
_MARKER = re.compile(r"\[(\d+)\]")


def citations_for(evidence: Sequence[EvidenceItem]) -> list[Citation]:
    return [
        Citation(number=n, source_url=item.source_url, title=item.title, snippet=item.snippet[:300])
        for n, item in enumerate(evidence, start=1)
    ]


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


def _drop_dangling_markers(text: str, count: int) -> str:
    """A citation marker that names no evidence is removed, never left pointing nowhere."""
    return _MARKER.sub(lambda m: m.group(0) if 1 <= int(m.group(1)) <= count else "", text)


class AnswerAssembler:
    def assemble(
        self,
        step_runs: Sequence[StepRunV1],
        evidence: Sequence[EvidenceItem],
        actions: Sequence[str],
    ) -> tuple[str, list[Citation]]:
        citations = citations_for(evidence)
        parts = [_drop_dangling_markers(t, len(citations)) for t in _texts(step_runs)]
        if not parts and citations:
            parts.append(
                "Findings: "
                + " ".join(
                    f"{c.snippet.strip()[:160]} [{c.number}]" for c in citations[:5] if c.snippet.strip()
                )
            )
        if actions:
            parts.append(f"Actions taken ({len(actions)}): " + ", ".join(actions[:20]))
        if citations:
            parts.append(
                "Sources:\n"
                + "\n".join(f"[{c.number}] {c.title or c.source_url} <{c.source_url}>" for c in citations)
            )
        if not parts:
            parts.append(f"Ran {len(step_runs)} steps; no evidence was gathered.")
        return "\n\n".join(parts), citations
