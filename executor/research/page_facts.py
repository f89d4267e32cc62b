"""The fact a research question asks for, from the pages the task named (planner/facts.py over each
opened page's text and tables), cited; or why the pages do not answer it.

A question that asks for a fact of a kind (a date, a price, a count, an address, a name, which item)
is answered only with such a fact found on a page read in this run: without one the step fails with
a sentence saying what was not found, instead of pasting the page as if it answered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from executor.models import EvidenceItem
from executor.research.common import citation_number
from planner.asks import AnswerAsk
from planner.facts import Fact, find_fact

#: Kinds of answer that must be a fact found on a page; "text" (summaries, comparisons) is written
#: from the evidence as a whole.
FACT_KINDS = frozenset({"date", "time", "number", "count", "price", "email", "person", "item"})


@dataclass(frozen=True)
class PageText:
    url: str
    text: str


def page_texts(step_outputs: Mapping[str, Mapping[str, Any]]) -> list[PageText]:
    """Each opened page as one text: its tables as tab-separated rows (header first), then its lines."""
    pages: list[PageText] = []
    for outputs in step_outputs.values():
        content, url = outputs.get("content"), outputs.get("final_url") or outputs.get("url")
        if not isinstance(content, str) or not isinstance(url, str):
            continue
        parts = [_table_text(t) for t in outputs.get("tables") or [] if isinstance(t, list)]
        pages.append(PageText(url, "\n\n".join([*(p for p in parts if p), content])))
    return pages


def _table_text(rows: Sequence[Any]) -> str:
    dicts = [r for r in rows if isinstance(r, Mapping)]
    if not dicts:
        return ""
    header = list(dicts[0].keys())
    lines = ["\t".join(header)] + ["\t".join(str(r.get(h, "")) for h in header) for r in dicts]
    return "\n".join(lines)


@dataclass(frozen=True)
class Answer:
    ask: AnswerAsk
    fact: Fact | None
    url: str | None


def answer(asks: Sequence[AnswerAsk], pages: Sequence[PageText]) -> list[Answer]:
    """Each question with the first page (in the order read) that holds its fact."""
    out = []
    for ask in asks:
        found = next(((f, p.url) for p in pages if (f := find_fact(ask.question, ask.expects, p.text))), None)
        out.append(Answer(ask, found[0] if found else None, found[1] if found else None))
    return out


def lead_text(answers: Sequence[Answer], evidence: Sequence[EvidenceItem]) -> str:
    """The answers' first sentences, each fact cited with the number of the page it stands on."""
    from executor.act.report import fact_sentence  # one wording for acting and reading steps

    parts = []
    for a in answers:
        if a.fact is not None and a.url is not None:
            parts.append(fact_sentence(a.fact, citation_number(evidence, a.url) or 1))
    return " ".join(parts)
