from __future__ import annotations

import re

import pytest

from executor.errors import FatalToolError
from executor.research.summarize import Cited, compare, extractive, render
from executor.research.synth_tools import SummarizeTool
from planner.llm import LLMClient
from planner.llm_settings import LLMSettings
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.unit.research._helpers import context, ev

EVIDENCE = [
    ev(
        "http://acme/pricing",
        "Acme Data Professional costs $99 per month and allows commercial use in SaaS products.",
    ),
    ev(
        "http://coffee/blog",
        "Our office coffee subscription delivers fresh beans every single Monday morning.",
    ),
    ev(
        "http://beta/terms.pdf#page=1",
        "Beta Plus subscribers may display Beta Feeds data in commercial products.",
    ),
    ev(
        "http://acme/terms",
        "Acme Data Starter is licensed for internal use only. Redistribution needs Enterprise.",
    ),
]
QUESTION = "Which datafeed packages allow commercial use?"


def markers(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"\[(\d+)\]", text)}


def test_render_puts_markers_before_the_full_stop() -> None:
    assert (
        render([Cited("Pro allows it.", (1, 3)), Cited("No dot", (2,))])
        == "Pro allows it [1][3]. No dot [2]."
    )


def test_extractive_cites_the_sentences_it_took_and_skips_the_irrelevant() -> None:
    claims = extractive(EVIDENCE, QUESTION)
    assert claims
    assert all(len(c.numbers) == 1 for c in claims)
    assert {n for c in claims for n in c.numbers} <= {1, 3, 4}
    assert claims[0].numbers[0] in {1, 3}


def test_extractive_with_nothing_relevant() -> None:
    assert extractive(EVIDENCE, "zebra giraffe") == []
    assert extractive([], QUESTION) == []


def test_compare_groups_by_source_with_the_run_numbering() -> None:
    groups = compare(EVIDENCE, QUESTION)
    numbers = {n for _, claims in groups for c in claims for n in c.numbers}
    assert 2 not in numbers
    assert {1, 3} <= numbers


async def test_summarize_tool_extractive() -> None:
    out = await SummarizeTool()({}, context(task=QUESTION, evidence=EVIDENCE))
    assert out.outputs["method"] == "extractive"
    assert markers(out.outputs["summary"]) == set(out.outputs["citations"])
    assert markers(out.outputs["summary"]) <= {1, 3, 4}


async def test_summarize_tool_needs_evidence() -> None:
    with pytest.raises(FatalToolError, match="no evidence"):
        await SummarizeTool()({}, context(task=QUESTION))


async def test_grounded_summary_drops_citations_to_missing_evidence(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(
        Reply.json(
            {
                "claims": [
                    {"text": "Acme Professional allows commercial use.", "citations": [1, 9]},
                    {"text": "An invented claim.", "citations": [42]},
                    {"text": "Beta Plus allows commercial display.", "citations": [3]},
                ]
            }
        )
    )
    llm = LLMClient(llm_settings)
    try:
        out = await SummarizeTool(llm)({}, context(task=QUESTION, evidence=EVIDENCE))
    finally:
        await llm.aclose()
    assert out.outputs["method"] == "model"
    assert (
        out.outputs["summary"]
        == "Acme Professional allows commercial use [1]. Beta Plus allows commercial display [3]."
    )
    prompt = llm_server.chat_requests()[0].body["messages"][1]["content"]
    assert "[3] http://beta/terms.pdf#page=1" in prompt


async def test_model_failure_falls_back_to_extractive(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(*[Reply.error(500, "down")] * 3)
    llm = LLMClient(llm_settings)
    try:
        out = await SummarizeTool(llm, mode="compare")({}, context(task=QUESTION, evidence=EVIDENCE))
    finally:
        await llm.aclose()
    assert out.outputs["method"] == "extractive"
    assert out.outputs["summary"].startswith("- ")
    assert markers(out.outputs["summary"]) <= {1, 3, 4}


async def test_citation_marks_in_a_claims_text_never_name_missing_sources(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    """A small model wrote "[1, 2]" into its claim with only [1] in the evidence; the answer cited both."""
    claim = {"text": "Acme Professional allows commercial use [1, 2].", "citations": [1, 2]}
    llm_server.script(Reply.json({"claims": [claim]}))
    llm = LLMClient(llm_settings)
    try:
        out = await SummarizeTool(llm)({}, context(task=QUESTION, evidence=EVIDENCE[:1]))
    finally:
        await llm.aclose()
    assert out.outputs["summary"] == "Acme Professional allows commercial use [1]."
    assert out.outputs["citations"] == [1]
