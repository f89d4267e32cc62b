"""The bundled task suite: goal-only tasks (what a person would type) and a checker for each.

The core tasks live here; the tasks on the five site-like page sets live in evals/tasks_dev.py and
evals/tasks_heldout.py, and those on newer pages in evals/tasks_unseen.py, evals/tasks_unseen2.py,
evals/tasks_unseen3.py, evals/tasks_unseen4.py and evals/tasks_unseen5.py.
What a checker may read, and when a task counts as solved (its check passes and the status is the
right one), is in evals/checks.py.
"""

from __future__ import annotations

import fnmatch

from evals.checks import (
    Check,
    EvalTask,
    answer,
    app,
    app_has,
    both,
    fields,
    not_posted,
    posted,
)
from evals.tasks_dev import DEV
from evals.tasks_heldout import HELDOUT
from evals.tasks_unseen import UNSEEN
from evals.tasks_unseen2 import UNSEEN2
from evals.tasks_unseen3 import UNSEEN3
from evals.tasks_unseen4 import UNSEEN4
from evals.tasks_unseen5 import UNSEEN5


def _t(
    task_id: str, page: str, goal: str, check: Check, post_path: str = "", *, satisfiable: bool = True
) -> EvalTask:
    return EvalTask(task_id, task_id.rsplit("-", 1)[0], page, goal, check, post_path, satisfiable)


ADA = {"name": "Ada Lovelace", "email": "ada@example.com"}

CORE: tuple[EvalTask, ...] = (
    # forms: labelled fields, a select, a checkbox, a send
    _t("forms-01", "contact.html", "Open {url} and fill the contact form with name Ada Lovelace and email "
       "ada@example.com. Do not send it.", not_posted(fields(**ADA)), "/contact"),
    _t("forms-02", "contact.html", "Open {url} and fill the contact form with name Alan Turing, email "
       "alan@example.com and subject Billing. Do not send it.",
       not_posted(fields(name="Alan Turing", email="alan@example.com", subject="billing")), "/contact"),
    _t("forms-03", "contact.html", "Open {url}, write the message Please call me back and tick the newsletter "
       "box. Do not send the form.", not_posted(fields(message="Please call me back", newsletter=True)),
       "/contact"),
    _t("forms-04", "contact.html", "Open {url} and send the contact form with name Grace Hopper, email "
       "grace@example.com and message Hello there.", both(posted, fields(name="Grace Hopper")), "/contact"),
    # unlabelled fields: table cells and placeholders name the inputs
    _t("unlabelled-01", "unlabelled.html", "Open {url} and enter the full name Ada Lovelace and email address "
       "ada@example.com. Do not continue.", not_posted(fields(f1="Ada Lovelace", f2="ada@example.com")),
       "/delivery"),
    _t("unlabelled-02", "unlabelled.html", "Open {url} and enter the phone number 555-0100. Do not continue.",
       not_posted(fields(f3="555-0100")), "/delivery"),
    _t("unlabelled-03", "unlabelled.html", "Open {url} and enter the city London and postcode NW1 6XE. "
       "Do not continue.", not_posted(fields(f4="London", f5="NW1 6XE")), "/delivery"),
    _t("unlabelled-04", "unlabelled.html", "Open {url} and enter the full name Alan Turing, phone number "
       "555-0199 and city Wilmslow. Do not continue.",
       not_posted(fields(f1="Alan Turing", f3="555-0199", f4="Wilmslow")), "/delivery"),
    # wizards: several steps on one page
    _t("wizard-01", "wizard.html", "Open {url} and go through the sign up wizard with your name Ada Lovelace "
       "and work email ada@example.com up to the review step. Do not confirm.",
       both(app(step=3, confirmed=False), fields(wname="Ada Lovelace"))),
    _t("wizard-02", "wizard.html", "Open {url}, fill your name Alan Turing and work email alan@example.com, "
       "choose the Pro plan and stop at the review step without confirming.", app(step=3, plan="pro")),
    _t("wizard-03", "wizard.html", "Open {url}, fill your name Grace Hopper and work email grace@example.com "
       "in the first step and go to the next step.", app(step=2)),
    _t("wizard-04", "wizard.html", "Open {url} and create a workspace with the Team plan for Ada Lovelace, "
       "work email ada@example.com, and confirm it.", app(confirmed=True, plan="team")),
    # inbox-like lists
    _t("inbox-01", "inbox.html", "Open {url} and open the message from Maria Costa.", app(opened="m3")),
    _t("inbox-02", "inbox.html", "Open {url} and archive the ShopCo newsletter.", app_has("archived", "m5")),
    _t("inbox-03", "inbox.html", "Open {url} and star the message about the invoice.", app_has("starred", "m2")),
    _t("inbox-04", "inbox.html", "Open {url} and tell me when the team offsite takes place.",
       answer("12 June")),
    # search
    _t("search-01", "search.html", "Open {url}, search for teapot and open the Glass Teapot.",
       app(opened="teapot-2")),
    _t("search-02", "search.html", "Open {url} and search the shop for blue mug.", app(query="blue mug")),
    _t("search-03", "search.html", "Open {url}, search for kettle and tell me the price of the Steel Kettle.",
       answer("34.90")),
    _t("search-04", "search.html", "Open {url}, search for espresso and open the Espresso Cup.",
       app(opened="cup-espresso")),
    # tables
    _t("tables-01", "table.html", "Open {url} and tell me which product is the cheapest.", answer("Pencil")),
    _t("tables-02", "table.html", "Open {url} and tell me how many notebooks are in stock.", answer("42")),
    _t("tables-03", "table.html", "Open {url} and sort the table by price.", app(sort="price")),
    _t("tables-04", "table.html", "Open {url} and tell me the price of the stapler.", answer("12.50")),
    # dialogs
    _t("dialogs-01", "dialogs.html", "Open {url}, turn on dark mode in the settings dialog and save the settings.",
       app(dark=True)),
    _t("dialogs-02", "dialogs.html", "Open {url} and rename the project to Apollo.", app(name="Apollo")),
    _t("dialogs-03", "dialogs.html", "Open {url}, open the help dialog and tell me the support email address.",
       answer("help@zephyr.example")),
    _t("dialogs-04", "dialogs.html", "Open {url} and close the cookie banner accepting only the necessary "
       "cookies.", app(cookies="necessary")),
    # tabs
    _t("tabs-01", "tabs.html", "Open {url} and tell me the renewal date shown on the Billing tab.",
       answer("1 March 2027")),
    _t("tabs-02", "tabs.html", "Open {url}, go to the Shipping tab and enter the street 12 Main St and the "
       "city Springfield. Do not save.", fields(street="12 Main St", city="Springfield")),
    _t("tabs-03", "tabs.html", "Open {url} and turn off email alerts on the Notifications tab.",
       fields(alerts=False)),
    _t("tabs-04", "tabs.html", "Open {url} and tell me which plan the Billing tab shows.", answer("Team")),
    # date pickers: native date inputs and a calendar widget
    _t("dates-01", "dates.html", "Open {url} and set the check-in date to 2027-03-14. Do not book.",
       not_posted(fields(checkin="2027-03-14")), "/book"),
    _t("dates-02", "dates.html", "Open {url} and set the check-out date to 2027-03-18. Do not book.",
       not_posted(fields(checkout="2027-03-18")), "/book"),
    _t("dates-03", "dates.html", "Open {url}, open the calendar and pick January 20 as the delivery date.",
       app(delivery="2027-01-20")),
    _t("dates-04", "dates.html", "Open {url} and set check-in to 2027-05-01 and check-out to 2027-05-03. "
       "Do not book.", not_posted(fields(checkin="2027-05-01", checkout="2027-05-03")), "/book"),
    # research questions with a known answer
    _t("research-01", "bridge.html", "According to {url}, in which year did the Harbor Bridge open?",
       answer("1932")),
    _t("research-02", "bridge.html", "According to {url}, how long is the main span of the Harbor Bridge?",
       answer("503")),
    _t("research-03", "company.html", "According to {url}, who is the CEO of Lumen Works?",
       answer("Maria Costa")),
    _t("research-04", "recipe.html", "According to {url}, for how many minutes should the bread bake?",
       answer("25")),
)  # fmt: skip

#: The core tasks, then the ones on the five site-like page sets (written before any rule was tuned
#: on them): the dev half, read while changing rules, and the held-out half, never read then; then the
#: unseen splits, written by someone else on pages of new shapes (evals/tasks_unseen.py,
#: evals/tasks_unseen2.py, evals/tasks_unseen3.py, evals/tasks_unseen4.py and evals/tasks_unseen5.py).
TASKS: tuple[EvalTask, ...] = CORE + DEV + HELDOUT + UNSEEN + UNSEEN2 + UNSEEN3 + UNSEEN4 + UNSEEN5


def select(pattern: str | None) -> list[EvalTask]:
    """Tasks whose id matches a glob (`forms-*`), a family name, a split name (`heldout`), or a
    comma-separated list of these."""
    if not pattern:
        return list(TASKS)
    wanted = [p.strip() for p in pattern.split(",") if p.strip()]
    return [
        t
        for t in TASKS
        if any(
            fnmatch.fnmatch(t.task_id, p) or p in (t.family, t.split) or t.task_id.startswith(p)
            for p in wanted
        )
    ]
