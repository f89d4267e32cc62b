"""Honest outcomes on real pages: a step succeeds only when its actions did and its goal shows.

Hand-written plans and goal-driven steps on the fixture site, through the real conductor, loop,
recorder and Chromium. Each failure must say why in words, the same in the bundle's reason, its
final answer and the receipts' run_end record.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

import pytest

from executor.gates.approval import ApprovalPolicy
from executor.models import RunBundleV1, RunStatus
from planner.rules import plan_rules
from receipts.layout import RunFolder
from receipts.models import RunEndRecord
from receipts.report import read_records
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

OPEN = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": ["purchase", "delete"]}]
LOGIN = [{"gate_id": "gate_login", "kind": "login", "blocked_actions": ["purchase", "delete"]}]


def listed(url: str, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"step_id": "a1", "type": "ACT", "inputs": {"url": url, "actions": actions}}]


def goal(url: str, text: str, payload: dict[str, str]) -> list[dict[str, Any]]:
    return [{"step_id": "a1", "type": "ACT", "inputs": {"url": url, "goal": text, "payload": payload}}]


def said_everywhere(harness: ActHarness, bundle: RunBundleV1, words: str) -> None:
    """The reason is in the bundle, its final answer and the receipts' run_end record."""
    records = read_records(RunFolder(harness.runs_dir / bundle.run_id))
    end = next(r for _, r in records if isinstance(r, RunEndRecord))
    assert words in bundle.reason, bundle.reason
    assert words in (bundle.final_answer or ""), bundle.final_answer
    assert end.reason == bundle.reason


async def test_an_ambiguous_click_fails_the_step_and_clicks_nothing(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    click = {"kind": "click", "target": {"role": "button", "name": "No"}}
    bundle = await act_harness.run(
        act_plan(listed(site.url("/two_no.html"), [click]), gates=OPEN), confirm=Answer()
    )
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, '2 elements match button "No"')
    last = act_harness.actions(bundle)[-1]
    assert last.outcome.status == "ambiguous"
    assert last.after.url.endswith("/two_no.html")


async def test_a_fill_not_found_fails_the_step_and_stops_before_the_click(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    actions = [
        {"kind": "fill", "target": {"label": "Nickname"}, "value": "ada"},
        {"kind": "click", "target": {"role": "button", "name": "Sign in"}},
    ]
    bundle = await act_harness.run(
        act_plan(listed(site.url("/login.html"), actions), gates=LOGIN), confirm=Answer()
    )
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, 'nothing on the page matches the field labelled "Nickname"')
    assert [r.outcome.status for r in act_harness.actions(bundle)] == ["ok", "not_found"]  # no retry
    assert site.post_count() == 0  # the click after the missing field never ran


async def test_an_optional_action_may_fail_without_failing_the_step(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    actions: list[dict[str, Any]] = [
        {"kind": "click", "target": {"text": "Accept cookies"}, "optional": True},
        {"kind": "fill", "target": {"label": "Username"}, "value": "ada"},
    ]
    bundle = await act_harness.run(
        act_plan(listed(site.url("/login.html"), actions), gates=LOGIN), confirm=Answer()
    )
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [r.outcome.status for r in act_harness.actions(bundle)] == ["ok", "not_found", "ok"]


async def test_a_login_goal_presses_sign_in_and_is_verified(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    steps = goal(site.url("/login.html"), "Sign in to the site", {"username": "bob", "password": "pw-123"})
    bundle = await act_harness.run(act_plan(steps, gates=LOGIN), confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert site.post_count("/login") == 1
    kinds = [(r.action["kind"], r.outcome.status) for r in act_harness.actions(bundle)]
    assert kinds[-1] == ("click", "ok")
    assert "pressed the login button" in (bundle.final_answer or "")


async def test_a_login_the_site_refuses_fails_with_the_sites_words(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    steps = goal(
        site.url("/login_fails.html"), "Sign in to the site", {"username": "bob", "password": "nope"}
    )
    bundle = await act_harness.run(act_plan(steps, gates=LOGIN), confirm=Answer())
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, "Incorrect username or password")


async def test_a_login_goal_whose_press_is_blocked_says_the_button_was_never_pressed(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    gates = [{"gate_id": "gate_login", "kind": "login", "blocked_actions": ["login"]}]
    steps = goal(site.url("/login.html"), "Sign in to the site", {"username": "bob", "password": "pw-123"})
    bundle = await act_harness.run(act_plan(steps, gates=gates), confirm=Answer())
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, "was never pressed")
    assert site.post_count() == 0


async def test_a_prefill_that_must_not_submit_fills_and_posts_nothing(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    steps = goal(site.url("/login.html"), "Fill the sign in form, don't submit", {"username": "bob"})
    bundle = await act_harness.run(act_plan(steps, gates=LOGIN, no_submit=True), confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert site.post_count() == 0
    assert [r.action["kind"] for r in act_harness.actions(bundle)] == ["navigate", "fill"]


async def test_a_search_goal_presses_search_and_sees_results(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    steps = goal(site.url("/search.html"), "Search for dune", {"search": "dune"})
    bundle = await act_harness.run(act_plan(steps, gates=OPEN), confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    last = act_harness.actions(bundle)[-1]
    assert (last.action["kind"], last.outcome.status) == ("click", "ok")
    assert last.after.url.split("?")[0].endswith("/results.html")


async def test_a_search_that_finds_nothing_is_not_a_success(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """The search ran, and the page says nothing matched: what the person looked for was not found,
    and the run says so in the page's words."""
    plan = plan_rules(f"Search {site.url('/search.html')} for nothing like this")
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, 'found nothing: the page says "No results found for your search."')


async def test_a_search_whose_results_never_mention_it_is_not_a_success(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """The site lists something for any query, but nothing it lists mentions what was searched for
    (only its "3 results for ..." line repeats the query): the thing was not found."""
    plan = plan_rules(f"Search {site.url('/search.html')} for loosely brewed teapots")
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    said_everywhere(act_harness, bundle, 'never mention "loosely", "brewed", "teapots"')


async def test_a_form_behind_a_tab_is_opened_filled_and_sent(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """The fields are in a tab that is not shown: the tab named for the booking is opened, as a person
    would, then the form is filled and sent once."""
    site.clear_posts()
    plan = plan_rules(
        f"Book an appointment at {site.url('/asked/clinic.html')} for Jo Smith, email jo@example.com"
    )
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert site.post_count("/appointments") == 1
    assert b"name=Jo+Smith" in site.post_bodies("/appointments")[0]


@pytest.mark.parametrize(
    ("what", "sent"),
    [("pottery class", 1), ("yoga class", 0), ("newsletter", 0)],
)
async def test_a_send_for_something_sends_only_the_form_that_says_so(
    what: str, sent: int, act_harness: ActHarness, site: FixtureSite
) -> None:
    """ "Sign me up for the pottery class": the class's form (its heading says so) is sent; a yoga
    class the page never names, or the newsletter whose own form the email was not typed into, sends
    nothing and says why, never SUCCESS for a form that was for something else."""
    site.clear_posts()
    plan = plan_rules(f"Sign me up for the {what} at {site.url('/asked/classes.html')} with jo@example.com")
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert site.post_count("/asked/classes/pottery") == sent
    assert site.post_count("/asked/classes/letter") == 0
    if sent:
        assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    else:
        assert bundle.run_status is RunStatus.FAILED, bundle.reason
        said_everywhere(act_harness, bundle, f'no form on the page says it is for "{what}"')


async def test_a_subscribe_goal_presses_subscribe_once(act_harness: ActHarness, site: FixtureSite) -> None:
    site.clear_posts()
    steps = goal(site.url("/subscribe.html"), "Subscribe to the newsletter", {"email": "ada@example.com"})
    bundle = await act_harness.run(act_plan(steps, gates=OPEN), confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert site.post_count("/subscribe") == 1


@pytest.mark.parametrize(
    ("task", "topics"),
    [
        ("sign me up to the weekly events email on {url} but ONLY live jazz nights - jo@example.com",
         ["jazz"]),
        ("Subscribe me to the events email on {url}, just stand-up comedy and family days. My email is "
         "jo@example.com", ["comedy", "family"]),
        ("Subscribe to the events email on {url} with jo@example.com and tick talks and readings", ["talks"]),
    ],
)  # fmt: skip
async def test_a_sign_up_for_only_some_topics_ticks_exactly_those(
    act_harness: ActHarness, site: FixtureSite, task: str, topics: list[str]
) -> None:
    """ "but ONLY live jazz nights": which of the sign-up's boxes to tick is part of what was asked;
    a sign-up that sends the address alone is not it."""
    site.clear_posts()
    plan = plan_rules(task.format(url=site.url("/topics.html")))
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/topics")
    sent = parse_qs(body.decode())
    assert (sent["email"], sent["topic"]) == (["jo@example.com"], topics)


async def test_only_some_topics_unticks_what_the_page_ticked_by_default(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    url = site.url("/topics.html?ticked")
    plan = plan_rules(
        f"sign me up to the weekly events email on {url} but ONLY live jazz nights - jo@example.com"
    )
    bundle = await act_harness.run(plan, confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/topics")
    assert parse_qs(body.decode())["topic"] == ["jazz"]


async def test_a_sign_up_for_a_topic_the_form_lacks_is_not_a_success(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    url = site.url("/topics.html")
    task = f"sign me up to the weekly events email on {url} but only poetry slams - jo@example.com"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is not RunStatus.SUCCESS, bundle.reason
    assert "poetry slams" in (bundle.reason or "") + (bundle.final_answer or "")


@pytest.mark.parametrize("wanted", ["pottery", "cooking"])
async def test_booking_a_named_class_follows_the_book_link_of_its_row(
    act_harness: ActHarness, site: FixtureSite, wanted: str
) -> None:
    """Each class has its own "Book" link: the one in the row that names the class is followed."""
    site.clear_posts()
    named = {"pottery": "the pottery class", "cooking": "Italian cooking"}[wanted]
    task = f"Book me into {named} on {site.url('/classes.html')} as Jo Smith, jo@example.com"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/class")
    assert parse_qs(body.decode())["class"] == [wanted]


async def test_booking_a_class_no_row_names_is_not_guessed(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    task = f"Book me into the yoga class on {site.url('/classes.html')} as Jo Smith, jo@example.com"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is not RunStatus.SUCCESS, bundle.reason
    assert site.post_count("/class") == 0


@pytest.mark.parametrize("page", ["/library.html", "/library.html?late"])
async def test_a_search_for_a_kind_by_an_author_picks_the_kind_and_searches_the_author(
    act_harness: ActHarness, site: FixtureSite, page: str
) -> None:
    """ "audiobooks by Tô Hoài": the author is typed, and the kind is the form's own filter, picked
    before the search runs (dropping it used to list every format and end SUCCESS); a filter shown
    only with the results is picked there and the search is run again with it."""
    task = f"Search {site.url(page)} for audiobooks by Tô Hoài"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    query = parse_qs(act_harness.actions(bundle)[-1].after.url.split("?", 1)[1])
    assert (query["q"], query["format"]) == (["Tô Hoài"], ["audio"])


async def test_a_kind_filtered_in_place_is_picked_as_written_and_its_results_shown(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """ "sách điện tử (e-book)": of "Books" and "E-books" on a filter outside the form, the one the
    person wrote out is picked (the first that shared a word with it used to be)."""
    task = f"Tìm sách điện tử (e-book) của tác giả Tô Hoài trên {site.url('/shelf.html')}"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    last = act_harness.actions(bundle)[-1]
    assert (last.action.get("kind"), last.action.get("value")) == ("select", "E-books")


async def test_a_filter_that_snaps_back_is_not_a_success(act_harness: ActHarness, site: FixtureSite) -> None:
    """The select was sent "E-books" and shows "All": what it shows decides."""
    task = f"Tìm sách điện tử (e-book) của tác giả Tô Hoài trên {site.url('/shelf.html?stubborn')}"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is not RunStatus.SUCCESS, bundle.reason
    assert '"E-books" is not chosen' in (bundle.reason or "") + (bundle.final_answer or ""), bundle.reason


@pytest.mark.parametrize(
    ("task", "sent"),
    [
        ("Book a table for 4 at 7pm on Friday at {url} for Jo Smith", ("4", "Friday", "19:00", "Jo Smith")),
        ("Reserve a table for 3 at 7.30pm Saturday at {url} for Jo Li", ("3", "Saturday", "19:30", "Jo Li")),
        (
            "Đặt bàn cho 6 người lúc 6 giờ 30 tối thứ Năm tại {url}, tên Nguyễn Văn An",
            ("6", "Thursday", "18:30", "Nguyễn Văn An"),
        ),
    ],
)  # fmt: skip
async def test_a_table_is_booked_for_the_party_day_and_time_said(
    act_harness: ActHarness, site: FixtureSite, task: str, sent: tuple[str, str, str, str]
) -> None:
    """How many, which day and what time land in the form's own lists ("7pm" is its "7:00 PM"),
    where they used to be left unread and the booking ended PARTIAL."""
    site.clear_posts()
    bundle = await act_harness.run(plan_rules(task.format(url=site.url("/table.html"))), confirm=Answer(),
                                   policy=ApprovalPolicy.ALL)  # fmt: skip
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/table")
    form = parse_qs(body.decode())
    assert (form["party"], form["day"], form["time"], form["name"]) == tuple([v] for v in sent)


async def test_a_time_the_form_does_not_offer_is_not_booked(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    task = f"Book a table for 2 at 9pm on Friday at {site.url('/table.html')} for Jo Smith"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is not RunStatus.SUCCESS, bundle.reason
    assert 'Time has no option for "21:00" (it offers 6:00 PM, 6:30 PM' in (bundle.reason or ""), (
        bundle.reason
    )
    assert site.post_count("/table") == 0


async def test_a_purchase_goes_through_the_checkout_and_orders_what_was_said(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """The cart's "Go to checkout" link opens the payment step (a step whose gate keeps paying blocked
    used to stop it there); the address goes into "Street and number", never the footer's "Email
    address"; the options already chosen are not looked for again on the page the order led to."""
    site.clear_posts()
    task = (
        f"Open {site.url('/shop/index.html')} and buy 1 French Press, standard delivery, cash on delivery. "
        "Name: Lan Pham, address 12 Hang Bac, city Hanoi, postcode 100000."
    )
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/shop/order")
    order = {k: v[0] for k, v in parse_qs(body.decode()).items()}
    assert order == {"name": "Lan Pham", "street": "12 Hang Bac", "city": "Hanoi", "postcode": "100000",
                     "delivery": "standard", "payment": "cod", "items": "French Press"}  # fmt: skip
    assert site.post_count("/shop/newsletter") == 0


async def test_a_date_field_takes_the_date_written_out_and_never_a_weekday(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """ "on 12 March 2027" goes into a date input as 2027-03-12; "on Friday" names no date, so the
    booking stops before it is sent instead of being sent without one."""
    site.clear_posts()
    url = site.url("/table_date.html")
    task = f"Book a table for 3 at 7:30pm on 12 March 2027 at {url} for Jo Smith"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/table")
    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
    assert form == {"date": "2027-03-12", "time": "19:30", "guests": "3", "name": "Jo Smith"}
    task = f"Book a table for 3 at 7:30pm on Friday at {url} for Jo Smith"
    bundle = await act_harness.run(plan_rules(task), confirm=Answer(), policy=ApprovalPolicy.ALL)
    assert bundle.run_status is not RunStatus.SUCCESS
    assert 'Date is empty; "Friday" was not entered' in (bundle.reason or ""), bundle.reason
    assert site.post_count("/table") == 1  # only the first booking was sent


@pytest.mark.parametrize(
    ("task", "who"),
    [
        (
            "Book a physio appointment with Anna Lee on 12/3/2027 at 14:30 at {url}, email jo@example.com",
            "anna",
        ),
        (
            "Đặt lịch với bác sĩ Trần Văn Minh lúc 14:30 ngày 12/3/2027 tại {url}, email jo@example.com",
            "minh",
        ),
    ],
)
async def test_an_appointment_is_booked_with_the_person_named(
    act_harness: ActHarness, site: FixtureSite, task: str, who: str
) -> None:
    """ "with Anna Lee" picks her in the form's list of therapists; it used to be left unread."""
    site.clear_posts()
    bundle = await act_harness.run(plan_rules(task.format(url=site.url("/physio.html"))), confirm=Answer(),
                                   policy=ApprovalPolicy.ALL)  # fmt: skip
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    [body] = site.post_bodies("/physio")
    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
    assert form == {"therapist": who, "date": "2027-03-12", "time": "14:30", "email": "jo@example.com"}
