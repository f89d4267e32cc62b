"""Counts and lists in a person's words ("1 field", "3 fields"; "a, b and c"), for every layer that
writes a sentence: the answer, the window, the CLI. Standard library only, so the window can use it
before its first paint (docs/architecture.md, "Cold start")."""

from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """ "1 step", "2 steps", "0 steps"."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def listed(items: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
