"""Payloads that use earlier steps' outputs.

Two rules, applied in this order:
1. Inheritance: for each step this one depends on (in `depends_on` order), a dict found at
   `outputs["payload"]` is merged in; the step's own payload keys win over inherited ones.
2. References: any string value may contain `{{step:STEP_ID.PATH}}`, where PATH is a dotted path
   into that step's outputs (list items by number), e.g. `{{step:stp_c1.recommendation.name}}`.
   A value that is only the reference takes the referenced value's text; a missing step or path is
   an UnresolvedReference (the step fails with a clear message, nothing is typed).

`{{secret:NAME}}` placeholders are left alone: only the browser driver resolves those.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from executor.errors import FatalToolError

_REF = re.compile(r"\{\{step:([A-Za-z0-9_.-]+?)\.([A-Za-z0-9_.\-]+)\}\}")


class UnresolvedReference(FatalToolError):
    code = "unresolved_reference"


def lookup(outputs: Mapping[str, Mapping[str, Any]], step_id: str, path: str) -> Any:
    if step_id not in outputs:
        raise UnresolvedReference(f"{{{{step:{step_id}.{path}}}}}: step {step_id!r} has no outputs")
    node: Any = outputs[step_id]
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif (
            isinstance(node, Sequence)
            and not isinstance(node, str)
            and part.isdigit()
            and int(part) < len(node)
        ):
            node = node[int(part)]
        else:
            raise UnresolvedReference(
                f"{{{{step:{step_id}.{path}}}}}: no {part!r} in the outputs of {step_id}"
            )
    return node


def resolve_text(text: str, outputs: Mapping[str, Mapping[str, Any]]) -> str:
    return _REF.sub(lambda m: str(lookup(outputs, m.group(1), m.group(2))), text)


def resolve_data(data: Any, outputs: Mapping[str, Mapping[str, Any]]) -> Any:
    """Resolves references in every string of plain JSON data."""
    if isinstance(data, str):
        return resolve_text(data, outputs)
    if isinstance(data, list):
        return [resolve_data(item, outputs) for item in data]
    if isinstance(data, dict):
        return {key: resolve_data(value, outputs) for key, value in data.items()}
    return data


def referenced_steps(data: Any) -> set[str]:
    """The step ids that `{{step:ID.PATH}}` references name, in every string of plain JSON data."""
    if isinstance(data, str):
        return {match.group(1) for match in _REF.finditer(data)}
    if isinstance(data, list | dict):
        items = data.values() if isinstance(data, dict) else data
        return set().union(*(referenced_steps(item) for item in items))
    return set()


def step_payload(
    own: Mapping[str, Any], depends_on: Sequence[str], outputs: Mapping[str, Mapping[str, Any]]
) -> dict[str, str]:
    """The payload an act step works with: inherited from its dependencies, then its own, resolved."""
    merged: dict[str, Any] = {}
    for dep in depends_on:
        inherited = outputs.get(dep, {}).get("payload")
        if isinstance(inherited, Mapping):
            merged.update(inherited)
    merged.update(own)
    return {str(k): str(v) for k, v in resolve_data(merged, outputs).items() if v is not None}
