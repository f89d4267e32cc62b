"""Declared secrets: real values exist only here and at the moment the driver types them.

Plans, actions and receipts carry the placeholder `{{secret:NAME}}` (planner.models.secret_placeholder);
the vault turns a placeholder into the value inside the driver and `redact` scrubs every value from
any text that leaves the browser layer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel

JsonLike = Any
ModelT = TypeVar("ModelT", bound=BaseModel)

REDACTED = "[REDACTED]"
_PLACEHOLDER = re.compile(r"\{\{secret:([a-z][a-z0-9_]{0,39})\}\}")


class UnknownSecret(KeyError):
    """A placeholder names a secret that was never declared to the vault."""


def placeholder(name: str) -> str:
    """Same form as planner.models.secret_placeholder (kept in sync by a unit test)."""
    return "{{secret:" + name + "}}"


class SecretVault:
    """Holds name -> value for one run. Never printed: repr shows names only."""

    def __init__(self, secrets: Mapping[str, str] | None = None) -> None:
        self._values: dict[str, str] = {}
        for name, value in (secrets or {}).items():
            self.add(name, value)

    def add(self, name: str, value: str) -> None:
        if not _PLACEHOLDER.fullmatch(placeholder(name)):
            raise ValueError(f"secret name {name!r} must match [a-z][a-z0-9_]{{0,39}}")
        self._values[name] = value

    @property
    def names(self) -> list[str]:
        return sorted(self._values)

    def __repr__(self) -> str:
        return f"SecretVault(names={self.names})"

    def __contains__(self, name: object) -> bool:
        return name in self._values

    @staticmethod
    def has_placeholder(text: str) -> bool:
        return _PLACEHOLDER.search(text) is not None

    def resolve(self, text: str) -> str:
        """Replaces every placeholder in `text` with its value; only the driver calls this."""

        def value_of(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in self._values:
                raise UnknownSecret(name)
            return self._values[name]

        return _PLACEHOLDER.sub(value_of, text)

    def redact(self, text: str) -> str:
        """Replaces every secret value (longest first, so overlapping values vanish whole)."""
        for value in sorted(self._values.values(), key=len, reverse=True):
            if value:
                text = text.replace(value, REDACTED)
        return text

    def redact_data(self, data: JsonLike) -> JsonLike:
        """Redacts every string inside plain JSON-like data (dicts, lists, scalars)."""
        if isinstance(data, str):
            return self.redact(data)
        if isinstance(data, list):
            return [self.redact_data(item) for item in data]
        if isinstance(data, dict):
            return {key: self.redact_data(value) for key, value in data.items()}
        return data

    def redact_model(self, model: ModelT) -> ModelT:
        """A copy of a pydantic model with every string field (nested too) redacted."""
        if not self._values:
            return model
        return type(model).model_validate(self.redact_data(model.model_dump(mode="python")))
