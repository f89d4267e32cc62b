"""The scripted model server itself (shared test infrastructure): tool calls, records, errors."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from tests.support.llm_server import Reply, ScriptedLLMServer


def _post(server: ScriptedLLMServer, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        server.url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_tool_call_reply(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply.tool("click", {"index": 3}))
    status, body = _post(llm_server, {"model": "m", "messages": [], "tools": [{"type": "function"}]})
    assert status == 200
    choice = body["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    call = choice["message"]["tool_calls"][0]
    assert call["function"]["name"] == "click" and json.loads(call["function"]["arguments"]) == {"index": 3}
    assert llm_server.chat_requests()[0].body["tools"] == [{"type": "function"}]


def test_usage_and_model_are_echoed(llm_server: ScriptedLLMServer) -> None:
    llm_server.script(Reply.json({"a": 1}, usage=(5, 2)))
    _, body = _post(llm_server, {"model": "my-model", "messages": []})
    assert body["model"] == "my-model"
    assert body["usage"] == {"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}
    assert json.loads(body["choices"][0]["message"]["content"]) == {"a": 1}


@pytest.mark.parametrize("status", [429, 500])
def test_errors_carry_an_openai_error_body(llm_server: ScriptedLLMServer, status: int) -> None:
    llm_server.script(Reply.error(status, "nope", "server_error"))
    code, body = _post(llm_server, {"model": "m", "messages": []})
    assert code == status and body["error"]["message"] == "nope"


def test_unscripted_request_is_a_500_not_a_hang(llm_server: ScriptedLLMServer) -> None:
    code, body = _post(llm_server, {"model": "m", "messages": []})
    assert code == 500 and "scripted no reply" in body["error"]["message"]


def test_responder_and_json_schema_rejection(llm_server: ScriptedLLMServer) -> None:
    llm_server.responder = lambda body: Reply.json({"echo": body["model"]})
    llm_server.reject_json_schema = True
    code, _ = _post(llm_server, {"model": "m", "messages": [], "response_format": {"type": "json_schema"}})
    assert code == 400
    code, body = _post(
        llm_server, {"model": "m2", "messages": [], "response_format": {"type": "json_object"}}
    )
    assert code == 200 and json.loads(body["choices"][0]["message"]["content"]) == {"echo": "m2"}
    assert [r.response_format for r in llm_server.chat_requests()] == ["json_schema", "json_object"]
