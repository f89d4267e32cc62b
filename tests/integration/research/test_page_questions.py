"""Questions about a club's pages, put as people put them: each is answered with the line that says
it (on the page, under a help centre's question, or one link away) or the run says it was not; a
part of the task no step understood keeps the run from SUCCESS."""

from __future__ import annotations

from pathlib import Path

import pytest

from executor.models import RunBundleV1, RunStatus
from executor.research.search import BrowserSearchProvider
from executor.store.checkpoint_store import CheckpointStore
from planner.service import make_plan
from tests.support.research_run import run
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser


async def _ask(task: str, site: FixtureSite, store: CheckpointStore, tmp_path: Path) -> RunBundleV1:
    plan = (await make_plan(task, planner="rules")).plan
    unreachable = BrowserSearchProvider("http://127.0.0.1:9/search?q={query}")
    return await run(plan, store, unreachable, tmp_path / "runs")


def _lead(bundle: RunBundleV1) -> str:
    assert bundle.final_answer is not None
    return bundle.final_answer.split("\n")[0]


@pytest.mark.parametrize(
    ("question", "page", "said"),
    [
        # the link "Workshop maintenance notice" says where the answer is: it is read, not quoted
        ("what does the linked maintenance notice say?", "index.html", "14 March 2027"),
        ("When and where is the newest meetup?", "index.html", "Hall B"),  # latest dated, not first listed
        ("How many tools are available today?", "index.html", "4"),  # one link away
        ("how do I pay the yearly fee?", "help.html", "bank transfer"),  # the answer under a closed <details>
    ],
)
async def test_a_page_question_is_answered_with_the_line_that_says_it(
    question: str, page: str, said: str, site: FixtureSite, store: CheckpointStore, tmp_path: Path
) -> None:
    bundle = await _ask(f"{question} {site.url('/research/club/' + page)}", site, store, tmp_path)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert said in _lead(bundle), bundle.final_answer


async def test_a_question_no_line_answers_is_said_unanswered_not_pasted(
    site: FixtureSite, store: CheckpointStore, tmp_path: Path
) -> None:
    bundle = await _ask(
        f"where do I park my bike? {site.url('/research/club/index.html')}", site, store, tmp_path
    )
    assert bundle.run_status is not RunStatus.SUCCESS
    assert "could not find" in _lead(bundle), bundle.final_answer
    assert "Upcoming meetups" not in (bundle.final_answer or "")  # the page is not pasted as an answer


async def test_a_request_put_politely_beside_a_question_keeps_the_run_from_success(
    site: FixtureSite, store: CheckpointStore, tmp_path: Path
) -> None:
    tools = site.url("/research/club/tools.html")
    task = f"How many tools are available today and can you fix the drill? {tools}"
    bundle = await _ask(task, site, store, tmp_path)
    assert bundle.run_status is RunStatus.PARTIAL, bundle.reason
    assert _lead(bundle).startswith('Not done: I did not do "fix the drill'), bundle.final_answer
    assert "4" in (bundle.final_answer or "")


async def test_the_part_found_is_kept_beside_the_part_not_found(
    site: FixtureSite, store: CheckpointStore, tmp_path: Path
) -> None:
    """One part unanswered makes the run PARTIAL; it does not lose the part that was answered."""
    tools = site.url("/research/club/tools.html")
    bundle = await _ask(f"How many tools are available today, and where do I park my bike? {tools}",
                        site, store, tmp_path)  # fmt: skip
    assert bundle.run_status is RunStatus.PARTIAL, bundle.reason
    lead = _lead(bundle)
    assert "4 [1]" in lead and "could not find where do I park my bike" in lead, bundle.final_answer
