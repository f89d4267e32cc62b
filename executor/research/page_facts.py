"""The fact a research question asks for, from the pages the task named (planner/facts.py over each
opened page's text and tables), cited; or why the pages do not answer it.

A question that asks for a fact of a kind (a date, a price, a count, an address, a name, which item)
is answered only with such a fact found on a page read in this run: without one the step fails with
a sentence saying what was not found, instead of pasting the page as if it answered.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit

from executor.models import EvidenceItem
from executor.research.common import citation_number
from planner.asks import AnswerAsk
from planner.fact_words import Fact, page_lines, topic, words_of
from planner.facts import find_fact, labelled_fact, named_words

#: Kinds of answer that must be a fact found on a page; "text" (summaries, comparisons) is written
#: from the evidence as a whole.
FACT_KINDS = frozenset({"date", "time", "number", "count", "price", "email", "phone", "person", "item"})


@dataclass(frozen=True)
class PageText:
    url: str
    text: str
    links: tuple[tuple[str, str, str], ...] = ()  # (url, text, row or card) of the page's links


def page_texts(step_outputs: Mapping[str, Mapping[str, Any]]) -> list[PageText]:
    """Each opened page as one text: its tables as tab-separated rows (header first), then its lines."""
    pages: list[PageText] = []
    for outputs in step_outputs.values():
        content, url = outputs.get("content"), outputs.get("final_url") or outputs.get("url")
        if not isinstance(content, str) or not isinstance(url, str):
            continue
        title = str(outputs.get("title") or "")
        lines = {line.strip() for line in content.splitlines()}
        # A heading the content lacks (an aria heading, a truncated page) still says what the page is
        # about; one it has would stand twice and part a label from the value under it.
        headings = [h for h in outputs.get("headings") or [] if isinstance(h, str) and h.strip() not in lines]
        text = "\n".join([title, *headings, content])  # a title says counts too ("Inbox (5)")
        pages.append(page_text(url, text, outputs.get("tables") or [], outputs.get("links") or []))
    return pages


def page_text(url: str, content: str, tables: Sequence[Any], links: Sequence[Any]) -> PageText:
    parts = [_table_text(t) for t in tables if isinstance(t, list)]
    kept = tuple(
        (str(link["url"]), str(link.get("text") or ""), str(link.get("context") or ""))
        for link in links
        if isinstance(link, Mapping) and isinstance(link.get("url"), str)
    )
    named = "\n".join(text for _, text, _ in kept if text.strip())  # nav labels carry counts ("Inbox 5")
    return PageText(url, "\n\n".join([*(p for p in parts if p), content, named]), kept)


#: What a site's usual link names are about, in the words people ask with.
_ABOUT = {
    "pricing": "plans plan prices price cost tiers storage users", "plans": "pricing prices price cost tiers",
    "inbox": "messages mail unread", "cart": "basket items", "account": "plan storage settings profile",
    "billing": "invoice plan renewal payment", "faq": "questions help", "help": "support contact questions",
}  # fmt: skip


def links_about(page: PageText, question: str, *, limit: int = 2) -> list[str]:
    """Links of the same site whose words are what the question is about ("the invoice from
    Tiffanie" -> the message from Tiffanie Rhodes), best first: where a person would click to read on."""
    from planner.grounding import item_words, words_score

    site = urlsplit(page.url)
    wanted = item_words(" ".join(topic(question, english=True)))
    names = named_words(question)  # "Helen Park", "Stoneware Mugs": a link that does not name them is not it
    lines = [" ".join(line.split()) for line in page.text.splitlines() if line.strip()]
    scored = []
    for url, own, row in page.links:
        about = _ABOUT.get(own.strip().lower(), "")
        text = f"{row} {own}" if row and own not in row else row or own
        at = next((i for i, line in enumerate(lines) if text and line.startswith(text[:40])), None)
        if at:  # a list row says who or what the link is about on the line before ("Helen Park")
            text = f"{lines[at - 1]} {text}"
        target = urlsplit(urljoin(page.url, url))
        if (target.scheme, target.netloc) != (site.scheme, site.netloc) or (
            target.path == site.path and (target.query == site.query)
        ):
            continue
        if names and not about and not set(names) <= set(topic(text)):
            continue  # a site's "Pricing" link is about every plan; an item's link names its item
        score = words_score(wanted, f"{text} {about}")
        if score >= 0.45:
            scored.append((score, urljoin(page.url, url)))
    scored.sort(key=lambda p: -p[0])
    return list(dict.fromkeys(u for _, u in scored))[:limit]


def _table_text(rows: Sequence[Any]) -> str:
    dicts = [r for r in rows if isinstance(r, Mapping)]
    if not dicts:
        return ""
    header = list(dicts[0].keys())
    lines = ["\t".join(header)] + ["\t".join(str(r.get(h, "")) for h in header) for r in dicts]
    return "\n".join(lines)


#: Links read, at most, to answer the questions a task's own pages do not.
MAX_FOLLOW = 2


@dataclass(frozen=True)
class Followed:
    pages: list[PageText]
    evidence: list[EvidenceItem]
    sources: int


def summarizes(ask: AnswerAsk) -> bool:
    """ "Summarize this page", "tóm tắt bài này": its first sentence is the page's most telling one."""
    return ask.expects == "text" and bool(re.search(r"(?i)\b(?:summari[sz]e|sum up|gist|tóm tắt|tom tat)\b",
                                                     ask.question))  # fmt: skip


def names_an_item(ask: AnswerAsk) -> bool:
    """ "Summarize Helen Park's email": a question about one item the page links to."""
    return ask.expects == "text" and bool(re.search(r"(?i)\b(?:email|message|mail|thư|article|post|review|bà"
                                                    r"i|notice|announcement|newsletter|letter|memo|news|"
                                                    r"thông báo|bản tin)\b",
                                                     ask.question))  # fmt: skip


#: "and what does it include?", "how much do they cost": a question whose subject is the last answer.
_ABOUT_THE_LAST = (
    r"(?i)^(?:and\s+|but\s+)?(?:what|how much|how many|when|where|why|which|how)\s+"
    r"(?:(?:does|do|did|is|are|was|were|would|will|can|could)\s+)?(?:it|they|that|this one|that one|them)\b"
)


def asks_on_page(ask: AnswerAsk) -> bool:
    """ "Where is the meetup?", "tell me the guest policy": a question (not "compare ..." or
    "recommend ...", which are written from what was read), answered with a line of a page read that
    says it, or said unanswered; the summary of the pages is not its answer."""
    from planner.ask_verbs import composes

    question = ask.question.strip()
    put_as_one = not composes(question)  # "tell me the guest policy" asks as much as "what is ...?"
    # "... and what does it include?": about what the question before it found, which the answer's
    # account of that item says, not a line of the page
    follows_up = (
        re.match(_ABOUT_THE_LAST, question) is not None
        or re.fullmatch(r"(?i)(?:and\s+|but\s+)?(?:why|why not|how come|how so|tại sao|vì sao)\W*", question)
        is not None  # "And why?": about the question before it
        or not topic(question)
    )
    return ask.expects in ("text", "yes_no") and put_as_one and not follows_up


def asks_a_label(ask: AnswerAsk) -> bool:
    """ "What's the booking code?": a short name of one value the page labels ("Booking reference:
    QX7L2P"). Such a question is answered from the page or said unanswered, never left out."""
    return ask.expects == "text" and bool(_LABEL_QUESTION.match(ask.question.strip()))


_LABEL_QUESTION = re.compile(
    r"(?i)^(?:and\s+)?(?:what(?:'s|’s| is| was)|which is)\s+(?:the|my|our|your)\s+[\w -]{2,30}\??$"
)


@dataclass(frozen=True)
class Answer:
    ask: AnswerAsk
    fact: Fact | None
    url: str | None


def answer(asks: Sequence[AnswerAsk], pages: Sequence[PageText]) -> list[Answer]:
    """Each question with the first page (in the order read) that holds its fact."""
    out = []
    for ask in asks:
        # A question about one item a page links to is read on the item's own page, not its list row.
        usable = [p for p in pages if not (names_an_item(ask) and links_about(p, ask.question))]
        found = next(
            (
                (f, p.url)
                for p in usable
                if (f := find_fact(ask.question, ask.expects, p.text)) and not _points_elsewhere(f, p)
            ),
            None,
        )
        if asks_a_label(ask):  # "Booking reference: QX7L2P" on any page read beats a line that names it
            found = next(((f, p.url) for p in usable if (f := labelled_fact(ask.question, p.text))), found)
        out.append(Answer(ask, found[0] if found else None, found[1] if found else None))
    return out


def _points_elsewhere(fact: Fact, page: PageText) -> bool:
    """A line that is a link's own words ("Read the maintenance notice") says where the answer is,
    not what it is: the link is followed instead."""
    line = " ".join(fact.line.split()).lower()
    said = {line, line.partition(":")[0].strip(), " ".join(fact.value.split()).lower()}  # or its label
    return fact.kind == "text" and any(" ".join(own.split()).lower() in said for _, own, _ in page.links)


#: Words of a request that name nothing on a page ("free *up* *some* storage").
_PLAIN = frozenset(words_of("up some free more less all any get make out off down"))


def said_about(words: str, pages: Sequence[PageText], *, most: int = 4) -> list[str]:
    """What the pages say under the heading or on the line that names `words` ("Storage" -> "38.2 GB
    of 100 GB used. ...", up to the next heading): the page's own account of what the person asked
    about, for a refusal."""
    wanted = set(topic(words)) - _PLAIN
    for page in pages:
        lines = page_lines(page.text)
        shared = [(len(wanted & set(words_of(line))), -i) for i, line in enumerate(lines)]
        best = max(shared, default=(0, 0))
        if best[0] == 0:
            continue
        i = -best[1]  # the line that names most of it ("Storage"), the first of equals
        start = i + 1 if len(lines[i].split()) <= 3 else i  # a heading: what stands under it
        section = list(itertools.takewhile(lambda line: len(line.split()) > 3, lines[start:]))
        return section[:most]
    return []


def lead_text(answers: Sequence[Answer], evidence: Sequence[EvidenceItem]) -> str:
    """The answers' first sentences, each fact cited with the number of the page it stands on."""
    from executor.act.report import fact_sentence  # one wording for acting and reading steps

    found = [(a.fact, citation_number(evidence, a.url) or 1) for a in answers if a.fact and a.url]
    return fact_sentence(found) if found else ""
