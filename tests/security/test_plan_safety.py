"""A plan file cannot switch safety off: a step's family follows its type, ids cannot leave the run
folder. Found: an ACT step saying `"family": "RETRIEVE"` ran with no approval under no_submit, and a
`step_id` of `../../../../tmp/x` wrote gate screenshots outside the run folder."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app.cli import main
from planner.models import Step, StepFamily
from tests.support.site import FixtureSite


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _plan_file(home: Path, step: Mapping[str, object]) -> Path:
    path = home / "plan.json"
    path.write_text(json.dumps({"mode": "B", "steps": [step]}))
    return path


def test_act_step_relabelled_as_research_is_refused(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    step = {
        "step_id": "a1",
        "type": "FORM_FILL",
        "family": "RETRIEVE",
        "inputs": {"url": "http://127.0.0.1:9/form", "payload": {"note": "x"}},
    }
    code, out, err = run_cli(capsys, "run", "--plan", str(_plan_file(waypost_home, step)), "--json")
    assert code == 2 and out == ""
    assert "cannot relabel" in err
    assert not (waypost_home / "data").exists() or not any((waypost_home / "data").rglob("receipts.jsonl"))


def test_custom_step_with_actions_cannot_claim_research() -> None:
    with pytest.raises(ValidationError, match="act on the page"):
        Step.model_validate(
            {"step_id": "x", "type": "FIN_PRICE_FETCH", "family": "RETRIEVE", "inputs": {"actions": [{}]}}
        )
    # the type's own family, spelled out, is fine; a custom type without actions may declare one
    assert Step.model_validate({"step_id": "a", "type": "ACT", "family": "ACT"}).is_action
    fetch = Step.model_validate({"step_id": "c", "type": "FIN_PRICE_FETCH", "family": "FETCH_DATA"})
    assert fetch.family is StepFamily.FETCH_DATA


@pytest.mark.parametrize("bad", ["../../../../tmp/x", "a/b", "..", "a..b", "", "x" * 129, "a b", "-a"])
def test_step_ids_cannot_name_paths(bad: str, waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    step = {"step_id": bad, "type": "WRITE_ARTIFACT"}
    code, _, err = run_cli(capsys, "run", "--plan", str(_plan_file(waypost_home, step)), "--json")
    assert code == 2 and "step_id" in err
    assert not (waypost_home.parent / "x").exists()


def test_every_gate_shot_path_stays_inside_the_run_folder(tmp_path: Path) -> None:
    from receipts.errors import RunFolderError
    from receipts.layout import inside

    run = tmp_path / "run"
    assert inside(run, "gates", "a1-action-1.png") == (run / "gates" / "a1-action-1.png").resolve()
    for name in ("../../../../tmp/x.png", "../../x.png", "/etc/passwd"):
        with pytest.raises(RunFolderError):
            inside(run, "gates", name)


def test_export_out_never_overwrites_silently(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = waypost_home / "plan.json"
    plan.write_text(json.dumps({"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}))
    run_id = json.loads(run_cli(capsys, "run", "--plan", str(plan), "--json")[1])["run_id"]
    target = waypost_home / "mine.html"
    target.write_text("my own file")
    code, _, err = run_cli(capsys, "receipts", "export", run_id, "--out", str(target))
    assert code == 2 and "--force" in err and target.read_text() == "my own file"
    code, _, err = run_cli(capsys, "receipts", "export", run_id, "--out", str(waypost_home))
    assert code == 2 and "is a folder" in err
    code, _, _ = run_cli(capsys, "receipts", "export", run_id, "--out", str(target), "--force")
    assert code == 0 and target.read_text().lower().startswith("<!doctype html>")


def test_exported_report_carries_a_strict_csp(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = waypost_home / "plan.json"
    plan.write_text(json.dumps({"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}))
    run_id = json.loads(run_cli(capsys, "run", "--plan", str(plan), "--json")[1])["run_id"]
    code, out, _ = run_cli(capsys, "receipts", "export", run_id, "--json")
    html = Path(json.loads(out)["report"]).read_text(encoding="utf-8")
    assert code == 0 and "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "<script" not in html.lower()


# --- plan fields that tried to switch safety off ----------------------------------------------------
# Found: a gate with `"blocked_actions": []` let a click POST to /account/remove-now and GET
# /account/delete?confirm=yes under `--approve all`; `task.constraints.no_submit: false` over a task
# saying "don't submit" let a typed value out. What stays blocked is computed from the task's words.


def _run_plan_file(
    home: Path, site: FixtureSite, query: str, actions: list[dict[str, Any]], page: str
) -> int:
    plan = {
        "mode": "B",
        "task": {"user_query": query, "constraints": {"no_submit": False}},
        "policy_gates": [{"gate_id": "open", "kind": "action", "blocked_actions": []}],
        "steps": [{"step_id": "a1", "type": "ACT", "policy_gate_id": "open",
                   "inputs": {"url": site.url(page), "actions": actions}}],
    }  # fmt: skip
    path = home / "plan.json"
    path.write_text(json.dumps(plan))
    return main(["run", "--plan", str(path), "--approve", "all", "--json"])


def _removals(site: FixtureSite, mark: int) -> list[str]:
    gets = [g for g in site.get_requests()[mark:] if g.startswith("/account/")]
    return gets + ["POST /account/remove-now"] * site.post_count("/account/remove-now")


@pytest.mark.browser
def test_an_empty_blocked_list_does_not_let_a_delete_through(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    mark = len(site.get_requests())
    click = [{"kind": "click", "target": {"role": "button", "name": "Continue"}}]
    _run_plan_file(waypost_home, site, "finish setting up my account", click, "/hostile/continue_form.html")
    link = [{"kind": "click", "target": {"text": "Finish"}}]
    _run_plan_file(waypost_home, site, "finish setting up my account", link, "/hostile/delete_link.html")
    out = capsys.readouterr().out
    assert _removals(site, mark) == []
    assert "delete is blocked by gate open" in out


@pytest.mark.browser
def test_no_submit_false_over_a_task_saying_dont_submit_still_keeps_values_in(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    email = "ada.lovelace.7731@example.org"
    mark = len(site.get_requests())
    actions = [
        {"kind": "fill", "target": {"label": "Email"}, "value": email},
        {"kind": "click", "target": {"text": "Share"}},
    ]
    _run_plan_file(waypost_home, site, "fill in my email, don't submit", actions, "/hostile/beacon.html")
    capsys.readouterr()
    leaked = [g for g in site.get_requests()[mark:] if "7731" in g or "YWRh" in g]
    assert leaked == []
