"""What the person asked for, done and checked on real pages: `waypost run "TASK" --approve all` with
the rule planner on the fixture site (tests/fixtures/site/asked/), each case one that went wrong
before: the nav bar's "Sign up" clicked instead of the form's button, the username left empty, a
"don't sign up" read as a step, two labels in their own containers taken for one, a form answered
with HTTP 500 reported as sent, a slow answer cut short, an icon in an inbox row not seen at all."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest

from app.cli import main
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser


def run(capsys: pytest.CaptureFixture[str], task: str, *extra: str) -> dict[str, object]:
    main(["run", task, "--approve", "all", "--json", *extra])
    return dict(json.loads(capsys.readouterr().out))


def form(site: FixtureSite, path: str) -> dict[str, list[str]]:
    (body,) = site.post_bodies(path)
    return parse_qs(body.decode())


def test_submit_the_form_presses_the_forms_own_button_not_the_nav_link(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    url = site.url("/asked/join.html")
    bundle = run(
        capsys, f"Open {url}, fill the name Carol Ng and email carol@example.com, then submit the form"
    )
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert form(site, "/asked/accounts") == {"name": ["Carol Ng"], "email": ["carol@example.com"]}
    assert site.post_count("/asked/newsletter") == 0
    answer = str(bundle["final_answer"])
    assert "NOT submitted" not in answer and "0 field" not in answer


@pytest.mark.parametrize(
    "task",
    ["Sign in to {url} as alice with password hunter2", "log in to {url} as alice, the password is hunter2"],
)
def test_sign_in_as_a_name_fills_the_username_beside_a_label_in_its_own_container(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str], task: str
) -> None:
    site.clear_posts()
    bundle = run(capsys, task.format(url=site.url("/asked/login.html")))
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert form(site, "/asked/session") == {"username": ["alice"], "password": ["hunter2"]}


def test_a_declared_secret_goes_to_the_password_field_and_the_name_to_the_username(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    site.clear_posts()
    monkeypatch.setenv("WAYPOST_TEST_PW", "hunter2")
    task = f"log in to {site.url('/asked/login.html')} as carol with password {{{{secret:pw}}}}"
    bundle = run(capsys, task, "--secret", "pw=env:WAYPOST_TEST_PW")
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert form(site, "/asked/session") == {"username": ["carol"], "password": ["hunter2"]}
    assert "hunter2" not in json.dumps(bundle)


def test_a_recommendation_is_computed_from_the_needs_and_nothing_is_signed_up_for(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    url = site.url("/asked/plans.html")
    task = (
        f"Compare the Free, Team and Business plans on {url} and tell me which suits a team of eight "
        "people who need about 50 GB. Do not sign up for anything"
    )
    main(["plan", task, "--planner", "rules", "--json"])
    plan = json.loads(capsys.readouterr().out)
    assert not [s for s in plan["steps"] if s["type"] == "ACT"], [s["name"] for s in plan["steps"]]
    bundle = run(capsys, task)
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    first = str(bundle["final_answer"]).split(". ")[0]
    assert first.startswith("Business is the cheapest option that meets 8 users and 50 gb"), bundle[
        "final_answer"
    ]
    assert "Free offers too little" in first  # it says why, from the table's numbers
    assert site.post_count() == 0


def test_a_form_answered_with_an_http_error_is_failed_with_the_status(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    url = site.url("/asked/sent.html?status=500")
    bundle = run(capsys, f"Open {url}, write the message Hello there and send the form")
    assert site.post_count("/asked/feedback") == 1  # it went out; the site refused it
    assert bundle["run_status"] == "FAILED", bundle["reason"]
    assert "HTTP 500" in str(bundle["reason"]) and "HTTP 500" in str(bundle["final_answer"])
    assert str(bundle["reason"]).count("HTTP 500") == 1, bundle["reason"]  # said once


def test_a_refused_form_is_failed_with_the_sites_own_sentence(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "HTTP 422" alone does not say what to change; the site's own sentence does."""
    url = site.url("/asked/sent.html?status=422&say=Please+fill+in%3A+subject.")
    bundle = run(capsys, f"Open {url}, write the message Hello there and send the form")
    assert bundle["run_status"] == "FAILED", bundle["reason"]
    assert "HTTP 422 to the request to" in str(bundle["reason"])
    assert 'the page says "Please fill in: subject' in str(bundle["reason"]), bundle["reason"]


def test_a_slow_answer_to_a_form_is_awaited_within_the_steps_time(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    url = site.url("/asked/sent.html?delay=7")  # longer than a click's own 5 s
    bundle = run(capsys, f"Open {url}, write the message Hello there and send the form")
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert site.post_count("/asked/feedback") == 1


def test_a_prohibition_is_a_constraint_never_a_step(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    url = site.url("/asked/join.html")
    for task in (
        f"Mở {url} và điền tên Carol Ng, email carol@example.com, đừng gửi",
        f"Open {url} and fill name Carol Ng and email carol@example.com without submitting",
    ):
        main(["plan", task, "--planner", "rules", "--json"])
        plan = json.loads(capsys.readouterr().out)
        assert plan["task"]["constraints"]["no_submit"] is True
        kinds = [a["kind"] for a in plan["task"]["asks"]["asks"]]
        assert kinds == ["fill", "fill"], kinds
        bundle = run(capsys, task)
        assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert site.post_count() == 0


def test_a_star_icon_in_an_inbox_row_is_found_by_its_row(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    bundle = run(capsys, f"Open {site.url('/asked/inbox.html')} and star the email from Dana")
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert form(site, "/asked/starred") == {"id": ["3"]}
    assert site.post_count("/asked/trashed") == 0


def test_a_task_the_rules_cannot_read_is_said_up_front_not_run_as_something_else(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    bundle = run(capsys, f"Open {site.url('/asked/join.html')} and frobnicate the quarterly synergies")
    assert bundle["run_status"] != "SUCCESS"
    answer = str(bundle["final_answer"])
    assert "frobnicate the quarterly synergies" in answer, answer
    assert "no evidence was gathered" not in answer
    assert site.post_count() == 0
