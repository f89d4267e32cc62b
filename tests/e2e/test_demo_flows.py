"""`waypost demo --json` end to end: the four flows through the real CLI, real Chromium and the bundled
demo site. One demo run (about 25 s) serves every test of this module."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.report import read_records
from receipts.verify import verify
from tests.support.home_fixtures import isolate_home

pytestmark = pytest.mark.browser

Bundle = dict[str, Any]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, Bundle], Path, int]]:
    """The flows by mode, the runs folder, and the form POSTs the demo site received."""
    home = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as mp:
        isolate_home(mp, home)
        runs = home / "runs"
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):  # capsys is per test
            code = main(["demo", "--json", "--runs-dir", str(runs)])
        assert code == 0, err.getvalue()
        document = json.loads(out.getvalue())
        flows = document["flows"]
        assert len(flows) == 4
        yield dict(zip("ABCD", flows, strict=True)), runs, document["form_posts"]


def actions(runs: Path, bundle: Bundle) -> list[ActionRecord]:
    records = read_records(RunFolder.for_run(runs, bundle["run_id"]))
    return [r for _, r in records if isinstance(r, ActionRecord)]


def cited(bundle: Bundle) -> set[str]:
    return {c["source_url"].split("#")[0].rsplit("/", 1)[-1] for c in bundle["citations"]}


def markers_resolve(bundle: Bundle) -> None:
    answer = bundle["final_answer"] or ""
    for number in map(int, re.findall(r"\[(\d+)\]", answer)):
        assert 1 <= number <= len(bundle["citations"]), answer


def step(bundle: Bundle, step_type: str) -> dict[str, Any]:
    return next(s for s in bundle["step_runs"] if s["step_type"] == step_type)


def test_every_flow_succeeds_and_its_receipts_verify(demo: tuple[dict[str, Bundle], Path, int]) -> None:
    flows, runs, _ = demo
    for mode, bundle in flows.items():
        assert bundle["run_status"] == "SUCCESS", (mode, bundle["reason"])
        report = verify(runs / bundle["run_id"])
        assert report.ok, (mode, report)
        markers_resolve(bundle)


def test_no_form_submission_reached_the_site(demo: tuple[dict[str, Bundle], Path, int]) -> None:
    flows, _, posts = demo
    assert posts == 0
    for mode in ("B", "C"):
        assert "NOT submitted" in (flows[mode]["final_answer"] or "")


def test_a_cites_the_vendor_pages_never_the_mirror_or_the_irrelevant_page(
    demo: tuple[dict[str, Bundle], Path, int],
) -> None:
    a = demo[0]["A"]
    sources = cited(a)
    assert {"datafeed.html", "compare-marketpulse.html"} <= sources
    assert "cooking.html" not in sources and "datafeed-mirror.html" not in sources
    retrieve = step(a, "RETRIEVE")
    assert any(u.endswith("/datafeed-mirror.html") for u in retrieve["outputs"]["duplicates"])
    answer = a["final_answer"]
    for line in ("- Starter: $49/mo", "- Pro: $149/mo", "- Enterprise: $499/mo", "- Lite: $79/mo"):
        assert line in answer


def test_b_says_what_was_prefilled_and_that_nothing_was_submitted(
    demo: tuple[dict[str, Bundle], Path, int],
) -> None:
    answer = demo[0]["B"]["final_answer"]
    assert 'Email = "alice@example.com"' in answer and 'Company = "Acme"' in answer
    assert "Prefilled 3 fields" in answer and "NOT submitted" in answer


def test_c_recommends_pro_with_a_citation_and_selects_it_in_the_form(
    demo: tuple[dict[str, Bundle], Path, int],
) -> None:
    flows, runs, _ = demo
    c = flows["C"]
    compute = step(c, "COMPUTE")
    assert compute["outputs"]["recommendation"]["name"] == "Pro"
    assert compute["outputs"]["payload"]["package"] == "Pro"
    assert re.search(r"Recommended[^:]*: Pro at \$149/mo \[\d+\]", c["final_answer"])
    assert "datafeed.html" in cited(c) and "datafeed-mirror.html" not in cited(c)
    assert "Prefilled 4 fields" in c["final_answer"]
    selects = [r for r in actions(runs, c) if r.action.get("kind") == "select"]
    assert selects and selects[-1].outcome.status == "ok"
    assert selects[-1].value == "Pro" or selects[-1].action.get("value") == "Pro"


def test_d_names_the_current_plan_and_explains_it_from_the_pricing_page(
    demo: tuple[dict[str, Bundle], Path, int],
) -> None:
    d = demo[0]["D"]
    read = step(d, "OPEN_URL")  # reading the account page is not acting: no ACT, no gate
    assert "Current plan\tPro" in read["outputs"]["state_text"]
    assert not [s for s in d["step_runs"] if s["step_type"] == "ACT"]
    compute = step(d, "COMPUTE")
    assert compute["outputs"]["current"] == "Pro"
    answer = d["final_answer"]
    assert "Your current plan is Pro." in answer
    pricing = next(c["number"] for c in d["citations"] if c["source_url"].endswith("/datafeed.html"))
    assert "Pro costs $149/mo and includes: API calls per day 10,000" in answer
    assert f"[{pricing}]" in answer
    assert "Recommended" not in answer
