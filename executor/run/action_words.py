"""What a run did, in one sentence a person reads: "Opened the page, filled 3 fields and clicked once."

A run keeps its actions as codes (`RunBundleV1.actions_taken`: an ACT step's `kind:outcome`, such
as `fill:ok`, a research step's tool key, such as `web_search`, `write:PATH` for a written file);
the JSON and the receipts keep them. The answer says them in words: each kind counted once, in the
order it first happened, with what did not work counted apart. Words only: nothing here decides a
status.
"""

from __future__ import annotations

from collections.abc import Sequence

from common.words import listed, plural

#: What one kind of action did: (said once, said n times, with {n}).
_SAID: dict[str, tuple[str, str]] = {
    "navigate": ("opened the page", "opened {n} pages"),
    "search": ("searched the web", "searched the web {n} times"),
    "read": ("read the page", "read {n} pages"),
    "read_pdf": ("read a PDF", "read {n} PDFs"),
    "fill": ("filled 1 field", "filled {n} fields"),
    "form": ("filled a form", "filled {n} forms"),
    "select": ("chose 1 option", "chose {n} options"),
    "check": ("set 1 checkbox", "set {n} checkboxes"),
    "click": ("clicked once", "clicked {n} times"),
    "press": ("pressed 1 key", "pressed {n} keys"),
    "scroll": ("scrolled the page", "scrolled {n} times"),
    "wait": ("waited for the page", "waited {n} times"),
    "download": ("downloaded 1 file", "downloaded {n} files"),
    "upload": ("uploaded 1 file", "uploaded {n} files"),
    "summarize": ("summarised what was read", "summarised {n} times"),
    "compare": ("compared the sources", "compared sources {n} times"),
    "compute": ("worked out the result", "worked out {n} results"),
    "fetch": ("read the tables", "read tables {n} times"),
    "retrieve": ("searched and read the sources", "searched and read sources {n} times"),
}
#: Action kinds and tool keys that say the same thing.
_SAME = {
    "open_url": "navigate",
    "web_search": "search",
    "extract": "read",
    "extract_dom": "read",
    "form_fill": "form",
    "fetch_data": "fetch",
}
#: Kinds that mark an ending, not something done on the page.
_UNSAID = frozenset({"done"})


def _kind(code: str) -> tuple[str, str]:
    """(kind, outcome) of one code: `fill:ok` -> (fill, ok); a tool key has no outcome (it is listed
    only when it succeeded)."""
    kind, _, outcome = code.partition(":")
    if kind == "write":  # write:PATH names a file, not an outcome
        return code, "ok"
    return _SAME.get(kind, kind), outcome or "ok"


def _said(kind: str, n: int) -> str:
    if kind.startswith("write:"):
        return f"wrote {kind.partition(':')[2]}"
    once, many = _SAID.get(
        kind, (f"ran {kind.replace('_', ' ')}", f"ran {kind.replace('_', ' ')} {{n}} times")
    )
    return once if n == 1 else many.format(n=n)


def actions_sentence(actions: Sequence[str]) -> str:
    """The run's actions as a sentence ("" when there were none)."""
    done: dict[str, int] = {}
    refused = failed = 0
    for code in actions:
        kind, outcome = _kind(code)
        if kind in _UNSAID:
            continue
        if outcome == "ok":
            done[kind] = done.get(kind, 0) + 1
        elif outcome == "blocked":
            refused += 1
        else:
            failed += 1
    parts = [_said(kind, n) for kind, n in done.items()]
    if failed:
        parts.append(f"{plural(failed, 'action')} did not work")
    if refused:
        parts.append(f"{plural(refused, 'action')} {'was' if refused == 1 else 'were'} refused")
    if not parts:
        return ""
    text = listed(parts)
    return text[0].upper() + text[1:] + "."
