"""What the person asked for, as checkable claims (docs/architecture.md, "What was asked").

A task is read into an ordered list of asks: fill this field with that value, tick that box, search
for this, sort by that, open this item, press that control, send the form, answer this question.
Each ask names an effect that can be read back from the browser or the answer afterwards, so a run
is SUCCESS only when every ask's effect was observed (executor/act/verify.py), never because the
cognition said it was done. Prohibitions ("do not send", "don't confirm") are kept beside the asks as
words the person ruled out; they never become steps.

These are plain data: the planner writes them into an ACT step's `inputs["asks"]`, the rule
cognition follows them, and the executor checks them.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from common.contracts import Contract

#: What kind of fact answers a question: it decides what the answer's first sentence must hold.
FactKind = Literal[
    "date", "time", "number", "count", "price", "email", "phone", "person", "item", "text", "yes_no"
]


class _Ask(Contract):
    #: Where the target lives when it is not in view ("the settings dialog", "the Billing tab"):
    #: opened first, and only when needed.
    where: str = ""

    def describe(self) -> str:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


class FillAsk(_Ask):
    """Type `value` into the field a person calls `field` ("email", "full name", "subject")."""

    kind: Literal["fill"] = "fill"
    field: str = Field(min_length=1)
    value: str = Field(min_length=1)

    def describe(self) -> str:
        shown = "[a secret]" if "{{secret:" in self.value else f'"{self.value}"'
        return f"fill {self.field} with {shown}"


class ToggleAsk(_Ask):
    """Tick (on) or untick (off) a checkbox or switch: "tick the newsletter box", "turn off alerts"."""

    kind: Literal["toggle"] = "toggle"
    what: str = Field(min_length=1)
    on: bool = True
    #: "but ONLY jazz nights": the form's other boxes stay unticked (planner/only_ticks.py).
    only: bool = False

    def describe(self) -> str:
        return f"turn {'on' if self.on else 'off'} {self.what}"


class ChooseAsk(_Ask):
    """Pick one option: a radio, a select's option, a day in a calendar ("choose the Pro plan")."""

    kind: Literal["choose"] = "choose"
    option: str = Field(min_length=1)
    among: str = ""

    def describe(self) -> str:
        return f"choose {self.option}" + (f" as the {self.among}" if self.among else "")


class SearchAsk(_Ask):
    """Search the site for `query`: the query ends up in the page's search state or its URL. A
    search with parts ("flights from Hanoi to Singapore on 2027-03-14 for 2 passengers") carries
    them as `fields` (from, to, date, passengers), for a search form that asks for each."""

    kind: Literal["search"] = "search"
    query: str = Field(min_length=1)
    fields: dict[str, str] = Field(default_factory=dict)

    def describe(self) -> str:
        if self.fields:
            return "search for " + ", ".join(f"{k} {v}" for k, v in self.fields.items())
        return f'search for "{self.query}"'


class SortAsk(_Ask):
    """Sort a table by a column: the column's values end up in order."""

    kind: Literal["sort"] = "sort"
    column: str = Field(min_length=1)
    descending: bool = False

    def describe(self) -> str:
        return f"sort by {self.column}" + (" (highest first)" if self.descending else "")


class OpenAsk(_Ask):
    """Open an item, tab, dialog or section the person names ("the message from Maria Costa")."""

    kind: Literal["open"] = "open"
    what: str = Field(min_length=1)

    def describe(self) -> str:
        return f"open {self.what}"


class PressAsk(_Ask):
    """Press a control by what it does ("Save settings", "Next", "Archive"), optionally the one that
    belongs to an item ("the trash icon of the message from Tiffanie")."""

    kind: Literal["press"] = "press"
    what: str = Field(min_length=1)
    item: str = ""

    def describe(self) -> str:
        return f"press {self.what}" + (f" for {self.item}" if self.item else "")


class AdvanceAsk(_Ask):
    """Go through a multi-step form (Next, Continue) until the page shows `until` ("review")."""

    kind: Literal["advance"] = "advance"
    until: str = Field(min_length=1)

    def describe(self) -> str:
        return f"go on to the {self.until} step"


class ChangeAsk(_Ask):
    """Set something to a new value through the page's own control: "rename the project to Apollo"
    opens the rename control, types the value, confirms; the page then shows the value."""

    kind: Literal["change"] = "change"
    verb: str = Field(min_length=1)
    what: str = ""
    value: str = Field(min_length=1)

    def describe(self) -> str:
        return f'{self.verb} {self.what or "it"} to "{self.value}"'.replace("  ", " ")


SubmitPurpose = Literal["send", "login", "signup", "save", "confirm", "reply", "book", "order"]


class SubmitAsk(_Ask):
    """Send the form being worked on (its own submit control, never a link outside it); the site
    must answer with a success."""

    kind: Literal["submit"] = "submit"
    purpose: SubmitPurpose = "send"
    #: What it is for, in the person's words ("pottery class" in "sign me up for the pottery class"):
    #: the form sent, or the page that answered, must say so (not the newsletter's form beside it).
    about: str = ""

    def describe(self) -> str:
        words = {"login": "sign in", "signup": "sign up", "send": "send the form", "reply": "send the reply"}
        return words.get(self.purpose, self.purpose)


class DownloadAsk(_Ask):
    """Download a file the page offers ("the invoice", "the PDF report"): it lands in the run folder."""

    kind: Literal["download"] = "download"
    what: str = ""

    def describe(self) -> str:
        return f"download {self.what or 'the file'}"


class AnswerAsk(_Ask):
    """Answer a question from what the pages show: the first sentence holds a fact of `expects`,
    found on a page read in this run."""

    kind: Literal["answer"] = "answer"
    question: str = Field(min_length=1)
    expects: FactKind = "text"

    def describe(self) -> str:
        return f"answer: {self.question}"


Ask = Annotated[
    FillAsk
    | ToggleAsk
    | ChooseAsk
    | SearchAsk
    | SortAsk
    | OpenAsk
    | PressAsk
    | AdvanceAsk
    | ChangeAsk
    | SubmitAsk
    | DownloadAsk
    | AnswerAsk,
    Field(discriminator="kind"),
]
ASK = TypeAdapter(Ask)

#: Asks that change nothing the site keeps: a step made only of these may run without typing.
READING_KINDS = frozenset({"open", "answer", "search", "sort"})


#: Left-overs that ask nothing: politeness and filler a reader may leave unread.
_POLITE_LEFTOVER = frozenset(
    [
        "please",
        "thanks",
        "thank",
        "you",
        "thx",
        "cheers",
        "ok",
        "okay",
        "now",
        "quickly",
        "asap",
        "nhé",
        "nha",
        "nhe",
        "giúp",
        "mình",
        "giúp",
        "tôi",
        "cảm",
        "ơn",
    ]
)


def meaningful_unread(asks: AskList) -> list[str]:
    """Unread parts that ask for something (more than politeness, more than two words)."""
    out = []
    for part in asks.unread:
        words = [w for w in part.lower().replace(",", " ").split() if w not in _POLITE_LEFTOVER]
        if len(words) >= 2 or re.search(r"\d|@", part):  # a value given ("5k", "jo@x.co") is never filler
            out.append(part)
    return out


class AskList(Contract):
    """The asks of one step, in order, with what the person ruled out and what was not understood."""

    asks: list[Ask] = Field(default_factory=list)
    #: Controls the person said not to use, in their words ("submit", "confirm", "book", "delete").
    forbidden: list[str] = Field(default_factory=list)
    #: Parts of the task the rules could not turn into an ask, said up front instead of guessed.
    unread: list[str] = Field(default_factory=list)
    #: The send a later step makes with these fills (its own gate): where the form is looked for.
    sent_later: SubmitPurpose | None = None
    #: What that send is for ("pottery class"): which row's link leads to its form.
    sent_about: str = ""

    def of_kind(self, kind: str) -> list[Ask]:
        return [a for a in self.asks if a.kind == kind]

    def describe(self) -> str:
        parts = [a.describe() + (f" (in {a.where})" if a.where else "") for a in self.asks]
        if self.forbidden:
            parts.append("never " + " or ".join(self.forbidden))
        return "; ".join(parts)
