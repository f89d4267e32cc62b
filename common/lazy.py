"""A module imported the first time one of its names is used; a pattern compiled on its first use.

Why: `waypost plan` and the window's first paint should not pay for the model client, Playwright or
numpy when they are not used (docs/architecture.md, "Cold start"). Unlike importlib's LazyLoader,
nothing is put in sys.modules until a name is read, so "is openai loaded?" stays a true question.
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any


class LazyModule:
    """Stands in for `import NAME`; the real import happens on the first attribute read."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def _load(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return self._module

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r}, {state}>"


def lazy_module(name: str) -> Any:
    """`openai = lazy_module("openai")` under `if not TYPE_CHECKING`, so type checkers see the real
    module and the process imports it only when a name of it is used."""
    return LazyModule(name)


class LazyPattern:
    """A regular expression compiled the first time it is used.

    Why: the planner's readers hold a few hundred patterns, most of which a given task never reaches;
    compiling them all at import was a good part of `waypost plan`'s start (docs/architecture.md,
    "Cold start"). Only the methods the planner calls are offered, so a use that needs the real
    `re.Pattern` (as an argument to `re.sub`, say) fails the type check instead of misbehaving.
    """

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:
        return self._source

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled.findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def __repr__(self) -> str:
        state = "compiled" if self._compiled is not None else "not compiled yet"
        return f"<lazy pattern {self._source[:40]!r}, {state}>"


def lazy_pattern(source: str, flags: int = 0) -> LazyPattern:
    """`_WORD = lazy_pattern(r"...")` where `re.compile` would be, at module level."""
    return LazyPattern(source, flags)
