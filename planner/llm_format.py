"""The shapes around a model call that need no client: strict schemas, JSON in a reply, tool names,
the schema hint for servers without json_schema, and reading a completion's first choice."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import BaseModel


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema made strict: every object closed and every property required."""
    return copy.deepcopy(strict_schema_cached(model))


@lru_cache(maxsize=64)
def strict_schema_cached(model: type[BaseModel]) -> dict[str, Any]:
    """The strict schema, built once per model (callers must not change it)."""
    schema = copy.deepcopy(model.model_json_schema())

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            node.pop("default", None)
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)
FORMAT_WORDS = re.compile(r"response_format|json_schema|structured|schema", re.IGNORECASE)


def parse_json_object(content: str) -> dict[str, Any]:
    """The JSON object in `content` (a ```json fence is tolerated); ValueError otherwise."""
    fenced = _FENCE.match(content)
    data = json.loads(fenced.group(1) if fenced else content)
    if not isinstance(data, dict):
        raise ValueError(f"expected a JSON object, got {type(data).__name__}")
    return data


def tool_name(tool: type[BaseModel]) -> str:
    """Function name of a tool model: its class name in snake_case (RequestInfo -> request_info)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", tool.__name__).lower()


def first_message(response: Any) -> Any:
    choices = getattr(response, "choices", None) or []
    return getattr(choices[0], "message", None) if choices else None


def first_tool_call(response: Any) -> tuple[str, str]:
    calls = getattr(first_message(response), "tool_calls", None) or []
    function = getattr(calls[0], "function", None) if calls else None
    return str(getattr(function, "name", "") or ""), str(getattr(function, "arguments", "") or "")


def with_schema_hint(convo: list[dict[str, Any]], output: type[BaseModel]) -> list[dict[str, Any]]:
    """The conversation led by a system message that spells out the schema (json_object mode)."""
    hint = (
        "Reply with one JSON object only (no prose, no code fence) that validates against this JSON "
        f"schema:\n{json.dumps(strict_schema_cached(output), separators=(',', ':'))}"
    )
    return [{"role": "system", "content": hint}, *convo]


def finish_reason(response: Any) -> Any:
    choices = getattr(response, "choices", None) or []
    return getattr(choices[0], "finish_reason", None) if choices else None


def tool_specs(tools: Mapping[str, type[BaseModel]]) -> list[dict[str, Any]]:
    """Function-calling specs for pydantic tool models, by name (strict schemas)."""
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": " ".join((tool.__doc__ or name).split())[:1000],
                "parameters": strict_schema_cached(tool),
                "strict": True,
            },
        }
        for name, tool in tools.items()
    ]
