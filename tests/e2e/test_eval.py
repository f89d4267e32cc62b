"""`waypost eval` mechanics: the rule baseline and a scripted model behind the real client."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from evals.tasks import TASKS
from planner.context import build_context
from planner.draft import plan_to_draft
from planner.rules import plan_rules
from tests.e2e.test_cli_basics import run_cli
from tests.integration.act.test_model import act, done, index_of
from tests.support.llm_server import Reply, ScriptedLLMServer

pytestmark = pytest.mark.browser


CORE_FAMILIES = {"forms", "unlabelled", "wizard", "inbox", "search", "tables", "dialogs", "tabs", "dates",
                 "research"}  # fmt: skip
SITES = {"saas", "shop", "account", "mail", "travel"}
#: Splits written by someone else on new page shapes: measured, never gated, never read by the rule writer.
UNSEEN_SPLITS = ("unseen", "unseen2", "unseen3", "unseen4", "unseen5")


def test_the_suite_has_forty_core_tasks_and_two_halves_on_five_sites() -> None:
    assert len({t.task_id for t in TASKS}) == len(TASKS)
    assert all("{url}" in t.goal for t in TASKS)
    by_split = {s: [t for t in TASKS if t.split == s] for s in ("core", "dev", "heldout", *UNSEEN_SPLITS)}
    assert sum(map(len, by_split.values())) == len(TASKS)
    assert len(by_split["core"]) == 40 and {t.family for t in by_split["core"]} == CORE_FAMILIES
    for half in ("dev", "heldout"):
        tasks = by_split[half]
        per_site = Counter(t.family for t in tasks)
        assert len(tasks) >= 20 and set(per_site) == SITES and min(per_site.values()) >= 4, (half, per_site)
        assert sum(not t.satisfiable for t in tasks) >= 3, half  # the page cannot do what is asked
        assert sum(bool(VIETNAMESE.search(t.goal)) for t in tasks) >= 5, half
    assert not any(t.page.startswith("heldout/") for t in by_split["dev"])  # held-out pages are for held-out
    counts = (("unseen", 14), ("unseen2", 16), ("unseen3", 15), ("unseen4", 16), ("unseen5", 14))
    for split, count in counts:
        assert all(t.page.startswith(f"{split}/") for t in by_split[split]) and len(by_split[split]) == count
        assert not any(t.page.startswith(f"{split}/") for t in TASKS if t.split != split)


#: Letters only Vietnamese uses among the goals' languages.
VIETNAMESE = re.compile("[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]", re.IGNORECASE)


def test_rule_baseline_reports_per_task_and_family(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "eval", "--rules", "--tasks", "forms-01,tables-01", "--json")
    report = json.loads(out)
    assert code == 0 and report["cognition"] == "rules" and report["total"] == 2
    rows = {r["task_id"]: r for r in report["results"]}
    assert rows["forms-01"]["success"] is True and rows["forms-01"]["steps"] >= 2
    assert all(r["tokens"] == 0 and r["model_calls"] == 0 and r["seconds"] > 0 for r in rows.values())
    assert {f["family"] for f in report["families"]} == {"forms", "tables"}


#: Tasks the rule cognition solves today; a change that solves fewer fails here (raise it as it grows).
SOLVED_FLOOR = 60  # 65 of 86 on 2026-11-28 (core 38, dev 21, held-out 6), a margin for shared machines


def test_the_whole_suite_never_says_success_when_the_page_check_failed(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The eval in CI: any false SUCCESS (SUCCESS while the page's check failed) is a defect. The
    unseen splits are measured, not gated: a gate would put their failures in front of the rule writer."""
    code, out, _ = run_cli(capsys, "eval", "--rules", "--json", "--tasks", "core,dev,heldout")
    report = json.loads(out)
    false = [
        (r["task_id"], r["run_status"], r["answer"][:120]) for r in report["results"] if r["false_success"]
    ]
    assert code == 0 and report["total"] == sum(t.split not in UNSEEN_SPLITS for t in TASKS)
    assert not false, false
    assert report["successes"] >= SOLVED_FLOOR, [r["task_id"] for r in report["results"] if not r["success"]]


def _user(body: dict[str, Any]) -> str:
    return str(next(m["content"] for m in body["messages"] if m["role"] == "user"))


def test_scripted_model_is_measured_and_its_tokens_counted(
    waypost_home: Path,
    capsys: pytest.CaptureFixture[str],
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    served: list[tuple[int, int]] = []

    def respond(body: dict[str, Any]) -> Reply:
        fmt = (body.get("response_format") or {}).get("json_schema") or {}
        user = _user(body)
        if fmt.get("name") == "plan_draft":
            task = json.loads(user)["task"]["task"]
            reply = Reply.json(plan_to_draft(plan_rules(task, build_context(task))).model_dump(mode="json"))
        elif "'kind': 'fill'" in user.split("Page:")[0]:
            reply = done("name and email filled")
        else:
            reply = act(
                {"kind": "fill", "index": index_of(user, "Name"), "value": "Ada Lovelace"},
                {"kind": "fill", "index": index_of(user, "Email"), "value": "ada@example.com"},
            )
        reply.usage = (500 + len(served), 20)
        served.append(reply.usage)
        return reply

    llm_server.responder = respond
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    code, out, _ = run_cli(
        capsys, "eval", "--base-url", llm_server.url, "--model", "test-model", "--tasks", "forms-01", "--json"
    )
    report = json.loads(out)
    (row,) = report["results"]
    assert code == 0 and report["cognition"] == "test-model"
    assert row["success"] is True, row
    assert row["model_calls"] == len(llm_server.chat_requests()) == len(served) >= 3
    assert row["tokens"] == sum(a + b for a, b in served)
