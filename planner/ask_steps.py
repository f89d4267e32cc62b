"""How a task's asks become ACT steps with gates: the gate each ask needs (a send, a delete, a
payment, a sign-in, a download), and where the asks are cut so that the riskier part is a step of its
own, asked for with the page as it will be acted on (docs/architecture.md, "What was asked")."""

from __future__ import annotations

from planner.asks import Ask, AskList, ChangeAsk, DownloadAsk, PressAsk, SearchAsk, SubmitAsk
from planner.models import GateKind
from planner.synonyms import alternatives

#: The gate an ACT step's asks need: the riskiest thing it was asked to do, most severe first.
_ASK_GATES: tuple[tuple[GateKind, tuple[str, ...]], ...] = (
    # "Go to checkout" is labelled as paying, so it opens the payment step: in the step before it, a
    # gate that keeps paying blocked would stop it, and the checkout's choices could not be made
    (GateKind.PAYMENT, ("order", "checkout")),
    (GateKind.DELETE, ("delete", "remove", "trash", "xóa", "xoá")),
    # Presses that change what the site keeps (a star, an archive, a cart): a step that may send them.
    (
        GateKind.SUBMIT,
        (
            "send",
            "signup",
            "book",
            "reply",
            "save",
            "confirm",
            "star",
            "unstar",
            "archive",
            "flag",
            "pin",
            "like",
            "mark",
            "add",
            "rename",
            "vote",
            "apply",
            "subscribe",
            "unsubscribe",
        ),
    ),
    (GateKind.LOGIN, ("login",)),
    (GateKind.DOWNLOAD, ("download",)),
)


def ask_gate(asks: AskList) -> GateKind:
    said: set[str] = {a.purpose for a in asks.asks if isinstance(a, SubmitAsk)}
    said |= {"send" for a in asks.asks if isinstance(a, SearchAsk) and a.fields}  # a search form is sent
    said |= {
        w.lower().split()[0]
        for a in asks.asks
        if isinstance(a, PressAsk)
        for w in alternatives(a.what)
        if w.strip()
    }
    said |= {"save" for a in asks.asks if isinstance(a, ChangeAsk)}
    said |= {"download" for a in asks.asks if isinstance(a, DownloadAsk)}
    for kind, words in _ASK_GATES:
        if said & set(words):
            return kind
    return GateKind.ACTION


def segments(asks: AskList, *, no_submit: bool) -> list[tuple[GateKind, AskList]]:
    """The asks cut where a riskier gate starts: the fills before a send are one step (its gate keeps
    sending blocked), the send and what follows another (a gate of its own, asked with the filled
    form in view); a sign-in is its own first step. Prohibitions go with every part."""
    out: list[tuple[GateKind, list[Ask]]] = []
    for ask in asks.asks:
        kind = ask_gate(AskList(asks=[ask]))
        if no_submit and kind is not GateKind.LOGIN:  # signing in needs its form sent; nothing else may be
            kind = GateKind.ACTION
        if not out or (kind is not GateKind.ACTION and kind is not out[-1][0]):
            out.append((kind, [ask]))
        else:
            out[-1][1].append(ask)
    if len(out) > 1 and out[0][0] is GateKind.ACTION and out[1][0] is GateKind.LOGIN:
        first = out.pop(0)  # "log in as bob with password ...": the credentials belong to the sign-in
        out[0] = (GateKind.LOGIN, [*first[1], *out[0][1]])
    parts = [(kind, asks.model_copy(update={"asks": part})) for kind, part in out]
    for n, (kind, part) in enumerate(parts[:-1]):  # the fills before a send: their form is the send's
        nxt = next((a for a in parts[n + 1][1].asks if isinstance(a, SubmitAsk)), None)
        if kind is GateKind.ACTION and nxt is not None:
            parts[n] = (kind, part.model_copy(update={"sent_later": nxt.purpose, "sent_about": nxt.about}))
    return parts
