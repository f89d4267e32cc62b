"""Answering from a page's words (planner/facts.py, planner/table_facts.py): the fact of the kind the
question asks for, on the line that is about what it asks; no such fact is no answer."""

from __future__ import annotations

import pytest

from planner.facts import find_fact, labelled_fact

TABLE = (
    "Office supplies\nProduct\tPrice (EUR)\tIn stock\n"
    "Stapler\t12.50\t7\nNotebook\t3.20\t42\nPencil\t0.80\t310\n"
)
PLANS = (
    "Plan\tUsers\tStorage\tPrice per month\n"
    "Free\t1 user\t2 GB\t$0\nTeam\tUp to 10 users\t100 GB\t$29\nBusiness\tUp to 50 users\t500 GB\t$79\n"
    "Enterprise\tMore than 50 users\tTo suit\tCustom\n"
)
CARDS = "Teapots\nGlass Teapot\n24.50 EUR\nPorcelain Teapot\n29.00 EUR\nCast Iron Teapot\n42.00 EUR\n"
FLIGHTS = (
    "Lotus Air LA 502\n05:05 → 09:50 · 4h 45m · 1 stop (Hanoi)\n$71 per person\nSelect\n"
    "VietSky VS 120\n06:10 → 07:35 · 1h 25m · Direct\n$58 per person\nSelect\n"
)


@pytest.mark.parametrize(
    ("question", "kind", "text", "value"),
    [
        ("which product is the cheapest", "item", TABLE, "Pencil is the cheapest (0.80)"),
        ("how many notebooks are in stock", "count", TABLE, "42"),
        ("the price of the stapler", "price", TABLE, "12.50"),
        ("which one is cheapest", "item", CARDS, "Glass Teapot is the cheapest (24.50 EUR)"),
        (
            "Chuyến bay thẳng sớm nhất cất cánh lúc mấy giờ?",
            "time",
            FLIGHTS,
            "06:10: VietSky VS 120 is the earliest",
        ),
        (
            "when does the offsite take place",
            "date",
            "Anna Lee: Offsite\nThe team offsite moves to 12 June.",
            "12 June",
        ),
        (
            "the support email address",
            "email",
            "Help\nWrite to help@zephyr.example for support.",
            "help@zephyr.example",
        ),
        ("which plan the Billing tab shows", "item", "Plan: Team\nRenewal date: 1 March 2027", "Team"),
        ("Gói Business được bao nhiêu GB dung lượng vậy?", "count", PLANS, "500 GB"),
        (  # the header dates the message; the body says when the train leaves
            "when's my Harbor Rail train",
            "date",
            "Harbor Rail <tickets@harbor.example> to me, 2 Feb\nDear Ana, your train to Lyon leaves on 14 Ma"
            "rch 2027.",
            "14 March 2027",
        ),
        (  # a label above its value, with the page's headings not repeated between them
            "how much storage am I using?",
            "number",
            "Overview\nPlan\nPro\nStorage\n38.2 GB of 100 GB used\nMembers\n6 of 10 seats taken",
            "38.2 GB",
        ),
    ],
)
def test_the_fact_asked_for_is_found_where_the_page_says_it(
    question: str, kind: str, text: str, value: str
) -> None:
    fact = find_fact(question, kind, text)  # type: ignore[arg-type]
    assert fact is not None and fact.value == value


def test_a_labelled_value_ends_with_its_sentence() -> None:
    fact = labelled_fact(
        "what's the confirmation number?", "Thanks!\nConfirmation number: ZK91. Keep it safe."
    )
    assert fact is not None and fact.value == "ZK91"


def test_a_gist_says_what_changed_and_what_to_do() -> None:
    mail = (
        "Price change\nOmar Haddad <omar@lumen.example> to me, 3 May\n"
        "Hello Ana, Your hosting plan moves to 18 EUR a month from 1 July 2027. Nothing else changes. "
        "Please reply by 15 June if you would rather cancel. Best regards, Omar"
    )
    fact = find_fact("give me the gist of Omar's price change email", "text", mail)
    assert fact is not None
    assert "18 EUR" in fact.value and "15 June" in fact.value and "Hello" not in fact.value
    one = find_fact("summarize Omar's email in one sentence", "text", mail)
    assert one is not None and one.value.count(".") == 1


def test_a_recommendation_meets_the_stated_needs_and_says_why() -> None:
    fact = find_fact("which plan is the cheapest one that allows 8 users and 50 GB", "item", PLANS)
    assert fact is not None and fact.satisfied and fact.value.startswith("Team")
    assert "100 GB" in fact.because and "Free offers too little" in fact.because


def test_needs_no_row_meets_are_said_not_hidden() -> None:
    fact = find_fact("which plan covers 80 users for under $50 a month", "item", PLANS)
    assert fact is not None and not fact.satisfied
    assert "Business" in fact.because or "Enterprise" in fact.because


@pytest.mark.parametrize(
    ("question", "kind", "text"),
    [
        (
            "when does the team offsite take place",
            "date",
            "Maria Costa: Lunch on Thursday?\nTom: Quarterly report",
        ),
        ("how many Stoneware Mugs do they have in stock", "count", "Mugs\nIn stock · 4.8 ★\nFrom 8.90 EUR"),
        ("the price of the Titanium Kettle", "price", TABLE),
    ],
)
def test_no_fact_of_the_kind_asked_about_that_subject_is_no_answer(
    question: str, kind: str, text: str
) -> None:
    assert find_fact(question, kind, text) is None  # type: ignore[arg-type]


CLUB = (
    "Riverside Makers Club\nNotices\nWorkshop maintenance notice\nUpcoming meetups\n"
    "Meetup: Soldering basics, 3 March 2027, Hall A\nMeetup: Laser cutting, 10 April 2027, Hall B\n"
    "Tools on loan\nWe have 6 branches across the city.\n"
)


def test_the_newest_of_a_list_is_the_latest_dated_item_not_the_first_line() -> None:
    when = find_fact("When is the newest meetup?", "date", CLUB)
    where = find_fact("where is the newest meetup?", "text", CLUB)
    assert when is not None and when.value == "10 April 2027"
    assert where is not None and "Hall B" in where.value
    nxt = find_fact("where is the next meetup?", "text", CLUB)
    assert nxt is not None and "Hall A" in nxt.value


def test_a_ranked_question_over_undated_items_is_not_answered() -> None:
    page = "News\nStory: Bridge reopens downtown\nStory: Library extends hours\n"
    assert find_fact("what is the latest story?", "text", page) is None


def test_a_count_answers_only_for_what_it_counts() -> None:
    assert find_fact("how many branches are there?", "count", CLUB) is not None
    assert find_fact("how many tools can I borrow?", "count", CLUB) is None


def test_what_a_notice_says_is_read_on_the_notice_not_on_the_page_naming_it() -> None:
    assert find_fact("what does the maintenance notice say?", "text", CLUB) is None
    notice = (
        "Workshop maintenance notice\nWorkshop maintenance notice\n"
        "The workshop will be closed from 14 March 2027 to 18 March 2027 while the ventilation is replaced.\n"
    )
    found = find_fact("what does the maintenance notice say?", "text", notice)
    assert found is not None and "14 March 2027" in found.value


def test_a_line_that_only_repeats_the_question_answers_nothing() -> None:
    assert find_fact("where is the workshop maintenance notice?", "text", CLUB) is None


def test_a_count_is_a_number_of_what_was_asked_for() -> None:
    card = "Catalogue\nBirds of the River\n3 copies on the shelf\nLoans this month: 12\n"
    assert find_fact("how many books are on loan this month?", "count", card) is not None
    assert find_fact("how many birds are in the book?", "count", card) is None  # 3 counts copies
    bread = "Country bread\nBake the bread for 25 minutes at 230 degrees, then let it cool."
    found = find_fact("for how many minutes should the bread bake?", "count", bread)
    assert found is not None and found.value.startswith("25")


def test_a_count_two_list_items_give_equally_is_not_taken() -> None:
    jobs = "Open roles\nNurse, night shift: 4 openings\nNurse, day shift: 2 openings\n"
    assert find_fact("how many nurse openings are there?", "count", jobs) is None
    assert find_fact("how many night shift nurse openings are there?", "count", jobs) is not None


def test_a_number_after_a_named_word_and_a_comma_counts_nothing_asked() -> None:
    product = (
        "Stoneware Mug\n12.00 EUR incl. VAT\n17 in stock, ships in 1-2 days\n"
        "Hand-glazed stoneware, 400 ml. Colour: grey.\n"
    )
    found = find_fact("how many Stoneware Mugs do they have in stock", "count", product)
    assert found is not None and found.value == "17"
    unread = find_fact("how many unread messages are in my inbox?", "count", "Mail\nInbox (5)\nArchive\n")
    assert unread is not None and unread.value == "5"


HELP = (
    "Help centre\nCan I bring a guest to the workshop?\nEach member may bring one guest per visit.\n"
    "Do you lend tools overnight?\nNo, tools go back on the rack by 21:00.\n"
    "The workshop will be closed from 14 March 2027 to 18 March 2027.\n"
    "Pets are not allowed in the workshop.\n"
)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("do you lend tools overnight?", "No"),  # the answer under the page's own question says it first
        ("are pets allowed in the workshop?", "No"),  # it holds what is asked, and says not
    ],
)
def test_a_yes_no_question_is_answered_yes_or_no(question: str, said: str) -> None:
    found = find_fact(question, "yes_no", HELP)
    assert found is not None and found.satisfied and found.value == said, found


@pytest.mark.parametrize(
    ("question", "line"),
    [
        ("is the workshop open on 15 March?", "closed"),  # weighing dates is not for the rules
        ("can I bring a guest?", "one guest per visit"),  # likely yes, but the page does not say it
    ],
)
def test_a_line_that_neither_says_yes_nor_no_leaves_the_question_open(question: str, line: str) -> None:
    found = find_fact(question, "yes_no", HELP)
    assert found is not None and not found.satisfied and line in found.line, found


def test_a_help_centre_question_that_differs_in_its_verb_is_not_the_persons() -> None:
    faq = (
        "Help\nHow do I change my booking?\nOpen My bookings and pick a new date.\n"
        "How do I pay the yearly fee?\nPay by bank transfer before 31 January.\n"
    )
    assert find_fact("how do I cancel my booking?", "text", faq) is None
    found = find_fact("how do I pay the yearly fee?", "text", faq)
    assert found is not None and "bank transfer" in found.value


def test_a_labelled_value_is_not_a_yes_or_a_no() -> None:
    rooms = "Room 12\nPets: welcome in garden rooms, 20 EUR a night\nBreakfast: not included\n"
    pets = find_fact("are pets allowed in room 12?", "yes_no", rooms)
    assert pets is not None and not pets.satisfied  # "welcome in garden rooms" is for a person to weigh
    breakfast = find_fact("is breakfast included?", "yes_no", rooms)
    assert breakfast is not None and breakfast.satisfied and breakfast.value == "No"


def test_a_phone_number_is_asked_for_as_one_and_no_number_is_no_answer() -> None:
    """ "What is the CEO's phone number on terms.html?" was answered Done with the page's first lines."""
    from planner.ask_words import fact_kind

    assert fact_kind("What is the CEO's phone number on http://127.0.0.1:8765/terms.html?") == "phone"
    assert fact_kind("số điện thoại của cửa hàng là gì") == "phone"
    fact = find_fact("the support phone number", "phone", "Help\nCall +1 (555) 010-0199 for support, 9-17.")
    assert fact is not None and fact.value == "+1 (555) 010-0199"
    terms = "Terms of use\nStarter and Pro licences allow internal use only.\nBilled monthly, 12 months."
    assert find_fact("the CEO's phone number", "phone", terms) is None


@pytest.mark.parametrize(
    ("question", "text", "value"),
    [
        ("how long is the pilot episode?", "Pilot episode: 48 minutes.", "48 minutes"),
        ("how long is the pilot episode?", "Pilot episode — 45:30", "45:30"),
        ("how long is the pilot episode?", "Pilot episode — 1h 20m", "1h 20m"),
        ("how far is the hotel from the station?", "The hotel is 3 km from the station, since 1998.", "3 km"),
        ("how old is the bridge?", "The bridge is 120 years old.", "120 years"),
        ("what year did the hotel open?", "The hotel opened in 1998.", "1998"),
    ],
)
def test_a_measure_is_a_number_with_its_unit(question: str, text: str, value: str) -> None:
    fact = find_fact(question, "number", text)
    assert fact is not None and fact.value == value


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("how long is the pilot episode?", "Pilot episodes from 2019 onward."),
        ("how far is the hotel?", "The hotel has 120 rooms."),
        ("how old is the bridge?", "The bridge carries 4 lanes of traffic."),
    ],
)
def test_a_bare_number_measures_nothing_asked(question: str, text: str) -> None:
    """ "How long is the episode" is not answered by a year or a count on the episode's line."""
    assert find_fact(question, "number", text) is None


def test_a_count_beside_in_is_not_a_length() -> None:
    """ "2 in the area" is two of something, not two inches."""
    assert find_fact("how far is the station?", "number", "There are 2 in the area near the station.") is None
