"""The answer says what a run did in a person's words: counted, singular or plural, never the codes
the bundle keeps (`navigate:ok`, `fill:ok`, `web_search`) nor "field(s)"."""

from __future__ import annotations

from common.contracts import utc_now
from executor.act.progress import StepProgress
from executor.act.report import describe
from executor.models import StepRunV1, StepStatus
from executor.run.action_words import actions_sentence
from executor.tools.answer import AnswerAssembler


def test_an_act_steps_codes_become_one_sentence() -> None:
    codes = ["navigate:ok", "fill:ok", "fill:ok", "fill:ok", "click:ok", "done:ok"]
    assert actions_sentence(codes) == "Opened the page, filled 3 fields and clicked once."


def test_singulars_tools_and_what_did_not_work() -> None:
    codes = ["web_search", "open_url", "open_url", "fill:ok", "click:not_found", "click:blocked"]
    assert actions_sentence(codes) == (
        "Searched the web, opened 2 pages, filled 1 field, 1 action did not work and 1 action was refused."
    )
    assert actions_sentence(["fin_price_fetch", "write:out/report.md"]) == (
        "Ran fin price fetch and wrote out/report.md."
    )
    assert actions_sentence(["open_url", "retrieve", "fetch_data", "compute"]) == (
        "Opened the page, searched and read the sources, read the tables and worked out the result."
    )
    assert actions_sentence([]) == "" and actions_sentence(["done:ok"]) == ""


def _run(outputs: dict[str, object]) -> StepRunV1:
    now = utc_now()
    return StepRunV1(step_id="s1", step_type="ACT", status=StepStatus.SUCCESS, outputs=outputs,
                     started_at=now, finished_at=now)  # fmt: skip


def test_the_answer_shows_no_codes() -> None:
    actions = ["navigate:ok", "fill:ok", "fill:ok", "fill:ok", "click:ok"]
    answer, _ = AnswerAssembler().assemble([_run({"answer": "Prefilled the form."})], [], actions)
    assert answer.endswith("Opened the page, filled 3 fields and clicked once.")
    assert ":ok" not in answer and "(s)" not in answer


def test_counts_are_singular_or_plural() -> None:
    one, _ = AnswerAssembler().assemble([_run({"ui_actions": 1})], [], [])
    assert one == "No answer to give: 1 action was taken on the page and nothing was read."
    two, _ = AnswerAssembler().assemble([_run({"ui_actions": 2})], [], [])
    assert two == "No answer to give: 2 actions were taken on the page and nothing was read."
    progress = StepProgress(
        url="http://site/signup",
        history=[{"action": {"kind": "fill", "value": "a@b.co"}, "status": "ok"}],
        facts=[{"kind": "fill", "label": "Email", "value": "a@b.co", "target": {"label": "Email"}}],
    )
    text = describe(progress, goal_summary="filled 1 field", submit_blocked=False)
    assert text == 'Prefilled 1 field on http://site/signup: Email = "a@b.co".'
