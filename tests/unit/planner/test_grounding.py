"""Grounding a person's words in an observation (planner/grounding.py): context decides like a
careful person would, and a real tie is a question that names the candidates."""

from __future__ import annotations

from browser.models import ElementInfo, Observation
from planner import grounding as g


def el(index: int, tag: str, name: str, **extra: object) -> ElementInfo:
    return ElementInfo.model_validate({"index": index, "tag": tag, "name": name, **extra})


JOIN = Observation(
    url="http://x.test/join",
    title="Join",
    elements=[
        el(0, "a", "Sign up", role="link", area="nav", href="/join"),
        el(1, "input", "Name", role="textbox", input_type="text", form=1),
        el(2, "input", "Email", role="textbox", input_type="email", form=1),
        el(3, "button", "Create account", role="button", input_type=None, form=1),
        el(4, "input", "Email for product news", role="textbox", input_type="email", form=2, area="footer"),
        el(5, "button", "Sign up", role="button", form=2, area="footer"),
    ],
)


def test_the_submit_of_the_form_worked_on_is_its_own_button_never_the_nav_link() -> None:
    pick = g.find_submit(JOIN, "signup", form=1, after=2)
    assert pick.element is not None and pick.element.name == "Create account"


def test_a_field_in_the_form_worked_on_beats_one_in_the_footer() -> None:
    pick = g.find_field(JOIN, "email", "a@b.co", form=1)
    assert pick.element is not None and pick.element.index == 2


def test_the_form_worked_on_outweighs_a_closer_name_in_another_form() -> None:
    """ "Your email" in a footer names "email" more closely than "Work email" in the sign-up form
    being filled; the form being filled decides, not a tie to ask about."""
    obs = Observation(url="http://x.test/signup", title="Sign up", elements=[
        el(0, "input", "Full name", role="textbox", input_type="text", form=1),
        el(1, "input", "Work email", role="textbox", input_type="email", form=1),
        el(2, "input", "Your email", role="textbox", input_type="email", form=2, area="footer"),
    ])  # fmt: skip
    pick = g.find_field(obs, "email", "carol@example.com", form=1)
    assert pick.element is not None and pick.element.index == 1


def test_a_password_label_prefers_the_password_box() -> None:
    obs = Observation(url="u", title="t", elements=[
        el(0, "input", "Password", role="textbox", input_type="text"),
        el(1, "input", "Password", role="textbox", input_type="password"),
    ])  # fmt: skip
    pick = g.find_field(obs, "password", "{{secret:pw}}")
    assert pick.element is not None and pick.element.index == 1


def test_icons_in_rows_are_told_apart_by_their_row() -> None:
    obs = Observation(url="u", title="t", elements=[
        el(0, "span", "star icon", context="Tiffanie Meeting moved to 3pm"),
        el(1, "span", "star icon", context="Dana Invoice 2291"),
    ])  # fmt: skip
    pick = g.find_control(obs, "star", item="Dana")
    assert pick.element is not None and pick.element.index == 1


def test_two_equal_candidates_are_a_question_naming_both() -> None:
    obs = Observation(
        url="u", title="t", elements=[el(0, "button", "Delete"), el(1, "button", "Delete", context="x")]
    )
    pick = g.find_control(obs, "delete")
    assert pick.element is None and "2 elements match" in pick.why and pick.why.count('"Delete"') == 2


def test_an_item_is_never_a_list_that_only_shares_its_kind() -> None:
    obs = Observation(url="u", title="t", elements=[el(0, "a", "Teapots", role="link")])
    assert g.find_item(obs, "purple teapot").element is None


def test_a_switch_named_with_its_kind_finds_the_switch() -> None:
    """ "The mentions emails" on an email-notifications page is the "Mentions and replies" switch."""
    obs = Observation(url="http://x.test/notifications", title="Email notifications", elements=[
        el(0, "input", "Product updates", role="switch", input_type="checkbox", checked=True),
        el(1, "input", "Mentions and replies", role="switch", input_type="checkbox", checked=True),
    ])  # fmt: skip
    pick = g.find_toggle(obs, "mentions emails")
    assert pick.element is not None and pick.element.index == 1
    assert g.find_toggle(obs, "billing emails").element is None


def test_a_footer_newsletter_button_is_never_the_booking() -> None:
    """After a filter click outside any form, "book" must not land on the footer's "Get deals"."""
    obs = Observation(url="http://x.test/results", title="Results", elements=[
        el(0, "input", "Direct flights only", role="checkbox", input_type="checkbox", checked=True),
        el(1, "input", "Email", role="textbox", input_type="email", form=3, area="footer"),
        el(2, "button", "Get deals", role="button", input_type="submit", form=3, area="footer"),
    ])  # fmt: skip
    assert g.find_submit(obs, "book", form=None, after=0).element is None


def test_the_page_saying_nothing_matched_is_quoted() -> None:
    from planner.page_words import none_found

    text = "Results\nNo flights found for this route with no stops. Try other dates or airports.\nFooter"
    assert none_found(text) == "No flights found for this route with no stops."
    assert none_found("Không tìm thấy chuyến bay nào") == "Không tìm thấy chuyến bay nào"
    assert none_found("12 flights found\nNo-fee changes on every fare") is None


def _kinds(*options: str) -> Observation:
    kind = el(0, "select", "Kind", role="combobox", options=list(options), value=options[0])
    return Observation(url="http://x.test/results", title="Results", elements=[kind])


def test_an_option_written_out_whole_beats_one_sharing_a_word_with_it() -> None:
    """ "sách điện tử (e-book)": "E-books" is what was written; "Books" only shares "book" with it."""
    found = g.find_select(_kinds("All", "Books", "E-books", "Audiobooks"), "sách điện tử (e-book)")
    assert found is not None and found[1] == "E-books"


def test_two_options_that_fit_equally_are_not_guessed_between() -> None:
    assert g.find_select(_kinds("All", "Crime novels", "Romance novels"), "novels") is None
    found = g.find_select(_kinds("All", "Crime novels", "Romance novels"), "crime novels")
    assert found is not None and found[1] == "Crime novels"


def test_an_address_goes_to_the_street_field_never_an_email_box() -> None:
    """ "địa chỉ 12 Hang Bac": "Email address" holds the word address but takes only an email."""
    checkout = Observation(
        url="http://x.test/checkout",
        title="Checkout",
        elements=[
            el(0, "input", "Street and number", role="textbox", input_type="text", form=1),
            el(1, "input", "Email address", role="textbox", input_type="email", form=2, area="footer"),
        ],
    )
    pick = g.find_field(checkout, "địa chỉ", "12 Hang Bac")
    assert pick.element is not None and pick.element.index == 0


def test_only_some_topics_finds_every_other_box_or_switch_left_on() -> None:
    """ "only jazz": a switch the page turned on (role=switch) is as much left on as a ticked box."""
    from planner.only_ticks import also_ticked

    topics = Observation(
        url="http://x.test/topics",
        title="Topics",
        elements=[
            el(0, "input", "Jazz nights", role="checkbox", input_type="checkbox", checked=True, form=1),
            el(1, "input", "Quiz nights", role="checkbox", input_type="checkbox", checked=True, form=1),
            el(2, "button", "Film club", role="switch", checked=True, form=1),
            el(3, "button", "Book club", role="switch", checked=False, form=1),
        ],
    )
    extra = also_ticked(topics, topics.elements[0], ["jazz nights"])
    assert [e.name for e in extra] == ["Quiz nights", "Film club"]
