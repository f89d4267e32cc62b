"""`Scoped`: a context variable set for the length of a `with` block, then reset.

The run enters several such scopes for every step (log ids, token meters, model time); a small
class costs a fraction of a `@contextmanager` generator there (docs/architecture.md, "Per-step cost").
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Generic, TypeVar

V = TypeVar("V")
R = TypeVar("R")


class Scoped(Generic[V, R]):
    """`with Scoped(var, value, result) as r:` sets `var` to `value` inside the block (in this task
    and the tasks it starts) and gives `result`."""

    __slots__ = ("_result", "_token", "_value", "_var")

    def __init__(self, var: ContextVar[V], value: V, result: R) -> None:
        self._var = var
        self._value = value
        self._result = result
        self._token: Token[V] | None = None

    def __enter__(self) -> R:
        self._token = self._var.set(self._value)
        return self._result

    def __exit__(self, *exc: object) -> None:
        assert self._token is not None, "exited before it was entered"
        self._var.reset(self._token)
