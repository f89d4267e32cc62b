"""A module that is imported the first time one of its names is used.

Why: `waypost plan` and the window's first paint should not pay for the model client, Playwright or
numpy when they are not used (docs/architecture.md, "Cold start"). Unlike importlib's LazyLoader,
nothing is put in sys.modules until a name is read, so "is openai loaded?" stays a true question.
"""

from __future__ import annotations

import importlib
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
