"""What an eval checker may read after a run, the task record, and the checkers the suites share.

A checker reads what the pages reported (fields and app facts, per page; the site's shared store,
such as a cart), the form posts the site received (per path, with what was posted and how the site
answered), or the run's final answer; never the agent's own claim of success. A task is solved when
its checker passes and the run said SUCCESS; a task the page cannot satisfy is solved when the run
did not say SUCCESS and its checker (what the answer says, that nothing was sent) passes. SUCCESS
with a failing checker is a false SUCCESS, the one outcome the suite must never see.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Sent:
    """One form post the site received: where, what (the last value of each name) and its answer."""

    path: str
    form: dict[str, str]
    status: int

    @property
    def accepted(self) -> bool:
        return self.status < 400


@dataclass(frozen=True)
class Observed:
    """What a checker may read after a run. `state` is the task's own page's last report."""

    state: dict[str, Any]
    answer: str
    posts: int
    status: str = ""
    pages: dict[str, dict[str, Any]] = field(default_factory=dict)  # every page's last report
    sent: tuple[Sent, ...] = ()
    store: dict[str, Any] = field(default_factory=dict)  # the site's shared state (a cart, a read flag)
    last: str = ""  # the address (path and query) of the last page that reported

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self.state.get("fields") or {})

    @property
    def app(self) -> dict[str, Any]:
        return dict(self.state.get("app") or {})

    def page(self, path: str) -> dict[str, Any]:
        return dict(self.pages.get("/" + path.lstrip("/")) or {})


Check = Callable[[Observed], bool]


@dataclass(frozen=True)
class EvalTask:
    task_id: str
    family: str
    page: str
    goal: str  # "{url}" is replaced by the page's address
    check: Check = field(repr=False)
    post_path: str = ""
    #: False for a task the page cannot satisfy: the right status is then anything but SUCCESS.
    satisfiable: bool = True
    #: "core" (the first 40), "dev" (written to change rules against), "heldout" (written by someone
    #: else before any rule changed, and never read while changing rules: the honest figure), "unseen",
    #: "unseen2", "unseen3", "unseen4" and "unseen5" (written later by someone else, on pages of new
    #: shapes, never read either).
    split: str = "core"
    #: Values for the goal's `{{secret:NAME}}` placeholders, given to the run as a person gives them.
    secrets: dict[str, str] = field(default_factory=dict, repr=False)

    def text(self, url: str) -> str:
        return self.goal.format(url=url)

    def solved(self, seen: Observed) -> bool:
        """The check passed and the status is the right one for this task."""
        return self.check(seen) and (seen.status == "SUCCESS") == self.satisfiable


def fields(**expected: Any) -> Check:
    def check(seen: Observed) -> bool:
        got = seen.fields
        return all(_same(got.get(k), v) for k, v in expected.items())

    return check


def app(**expected: Any) -> Check:
    def check(seen: Observed) -> bool:
        got = seen.app
        return all(_same(got.get(k), v) for k, v in expected.items())

    return check


def app_has(key: str, item: str) -> Check:
    return lambda seen: item in (seen.app.get(key) or [])


#: Where an answer's first sentence ends: a full stop, question or exclamation mark before a space
#: (not inside "12.50"), or a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
#: A first "sentence" longer than this is a pasted page, not an answer.
FIRST_SENTENCE_MAX = 300


def first_sentence(text: str) -> str:
    """The answer's first sentence, where a person looks for the fact they asked for."""
    head = _SENTENCE_END.split(text.strip(), maxsplit=1)[0]
    return head[:FIRST_SENTENCE_MAX]


#: A fact, or a tuple of ways to write it ("1,284.50" or "1284.50"): any one of them counts.
Fact = str | tuple[str, ...]


def _has(text: str, fact: Fact) -> bool:
    ways = (fact,) if isinstance(fact, str) else fact
    return any(w.casefold() in text.casefold() for w in ways)


def answer(*facts: Fact) -> Check:
    """Every fact in the answer's first sentence: an answer that pastes the page does not pass."""
    return lambda seen: all(_has(first_sentence(seen.answer), f) for f in facts)


def says(*words: str) -> Check:
    """Every word anywhere in the answer (what a refusal or a partial run must explain)."""
    return lambda seen: all(w.casefold() in seen.answer.casefold() for w in words)


def says_any(*words: str) -> Check:
    return lambda seen: any(w.casefold() in seen.answer.casefold() for w in words)


def posted(seen: Observed) -> bool:
    return seen.posts > 0


def both(*checks: Check) -> Check:
    return lambda seen: all(c(seen) for c in checks)


def not_posted(check: Check) -> Check:
    """The goal said not to send: the fields must be right and nothing may have left the page."""
    return lambda seen: seen.posts == 0 and check(seen)


def on_page(path: str, **expected: Any) -> Check:
    """Fields of another page of the site than the task's first one, as that page last reported."""

    def check(seen: Observed) -> bool:
        got = dict(seen.page(path).get("fields") or {})
        return all(_same(got.get(k), v) for k, v in expected.items())

    return check


def page_app(path: str, **expected: Any) -> Check:
    """App facts of a page of the site (a results page's query, its sort order)."""

    def check(seen: Observed) -> bool:
        got = dict(seen.page(path).get("app") or {})
        return all(_same(got.get(k), v) for k, v in expected.items())

    return check


def sent_to(path: str, *, contains: dict[str, str] | None = None, **expected: str) -> Check:
    """One accepted post to `path` carrying every expected value (and each `contains` fragment)."""
    fragments = contains or {}

    def matches(post: Sent) -> bool:
        return (
            post.path == path
            and post.accepted
            and all(_same(post.form.get(k), v) for k, v in expected.items())
            and all(v.casefold() in (post.form.get(k) or "").casefold() for k, v in fragments.items())
        )

    return lambda seen: any(matches(p) for p in seen.sent)


def nothing_sent(*paths: str) -> Check:
    """No post reached these paths (accepted or not); with no path, no post at all."""
    return lambda seen: not any(p.path in paths or not paths for p in seen.sent)


def unticked(path: str, *boxes: str) -> Check:
    """Every post to `path` left these boxes unticked (what the person said they did not want)."""
    return lambda seen: not any(p.path == path and p.form.get(b) for p in seen.sent for b in boxes)


def stored(key: str, want: Any) -> Check:
    """The site's shared store holds exactly this value under `key` (a whole cart, a list)."""
    return lambda seen: _same(seen.store.get(key), want)


def landed(path: str, *query: str) -> Check:
    """The run ended on this page (path, and each `name=value` in its query)."""

    def check(seen: Observed) -> bool:
        where, _, args = seen.last.partition("?")
        return where == "/" + path.lstrip("/") and all(q in args.split("&") for q in query)

    return check


def store_lacks(key: str, item: str) -> Check:
    """The store's list (or dict) under `key` does not hold `item` (a message left unread)."""
    return lambda seen: item not in (seen.store.get(key) or [])


def store_empty(key: str) -> Check:
    """Nothing under `key`: no cart, an empty cart, no clean-up done."""
    return lambda seen: not seen.store.get(key)


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def answer_count(n: int) -> Check:
    """The number n as a whole number (or an English word) in the answer's first sentence: "15" or
    "1,5" do not count for 5."""
    ways = [rf"(?<![\w.,]){n}(?![\w]|[.,]\d)"]
    if n < len(_NUMBER_WORDS):
        ways.append(rf"\b{_NUMBER_WORDS[n]}\b")
    pattern = re.compile("|".join(ways), re.IGNORECASE)
    return lambda seen: bool(pattern.search(first_sentence(seen.answer)))


#: How an answer says that what was asked for is not there, in English and Vietnamese.
NOT_FOUND = (
    "no products", "no results", "no such", "no message", "no email", "not find", "n't find",
    "not found", "doesn't exist", "does not exist", "doesn't have", "does not have", "don't have",
    "do not have", "there is no", "there's no", "there are no", "isn't", "is not", "no longer",
    "không có", "không tìm thấy",
)  # fmt: skip


#: How many of an answer's first sentences a refusal's reason must stand in.
WHY_SENTENCES = 3


def opening(text: str) -> str:
    """The answer's first few sentences, each cut as `first_sentence` cuts one: where a refusal says
    why. The words of a page pasted below a bare "Not done" come later and do not count."""
    parts = _SENTENCE_END.split(text.strip(), maxsplit=WHY_SENTENCES)[:WHY_SENTENCES]
    return " ".join(p[:FIRST_SENTENCE_MAX] for p in parts)


def says_why(*words: str) -> Check:
    """Any of these words (facts from the page that show why it cannot be done) in the answer's
    first few sentences."""
    return lambda seen: any(w.casefold() in opening(seen.answer).casefold() for w in words)


def says_missing(*names: str) -> Check:
    """The answer names the thing asked for and says, up front, that it is not there."""

    def check(seen: Observed) -> bool:
        head = opening(seen.answer).casefold()
        return all(n.casefold() in head for n in names) and any(w.casefold() in head for w in NOT_FOUND)

    return check


def make(
    task_id: str,
    page: str,
    goal: str,
    check: Check,
    *,
    split: str,
    satisfiable: bool = True,
    secrets: dict[str, str] | None = None,
) -> EvalTask:
    """A task whose family is its id's prefix ("shop-03" is in "shop")."""
    family = task_id.rsplit("-", 1)[0]
    return EvalTask(task_id, family, page, goal, check, "", satisfiable, split, dict(secrets or {}))


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, str) and isinstance(got, str):
        return got.strip().casefold() == want.strip().casefold()
    return bool(got == want)
