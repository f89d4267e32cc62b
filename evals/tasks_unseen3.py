"""The third unseen split: tasks written by a helper on pages of new shapes again (a bike repair
shop's price list with a booking page behind a link, a hotel's room page with a room select and
date pickers, a city library's month calendar of events, a school's parent portal with look-alike
forms, a council's bin-day lookup by street), never shown to whoever changes the rules. Run them
(`waypost eval --tasks unseen3`) and quote the figure; read only the per-family figures and the
kinds of failure, never the goals, pages or checks, or the figure stops being honest. Pages are
under evals/pages/unseen3/.
"""

from __future__ import annotations

import re

from evals.checks import (
    Check,
    EvalTask,
    Observed,
    Sent,
    answer,
    answer_count,
    both,
    first_sentence,
    make,
    nothing_sent,
    says_why,
    sent_to,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="unseen3", satisfiable=satisfiable)


def _only(path: str, ticked: str, boxes: tuple[str, ...], **expected: str) -> Check:
    """One accepted post to `path` with the expected values, `ticked` ticked and no other box."""

    def right(post: Sent) -> bool:
        return (
            post.path == path
            and post.accepted
            and post.form.get(ticked) == "yes"
            and all(post.form.get(k, "").strip().casefold() == v.casefold() for k, v in expected.items())
            and not any(post.form.get(b) for b in boxes if b != ticked)
        )

    return lambda seen: any(right(p) for p in seen.sent)


_YES = re.compile(r"\W*(yes|yeah|yep|có)\b", re.IGNORECASE)
_NO = re.compile(
    r"\W*(no|nope|không)\b|(\bno|\bnot|n't|\bonly|\bjust|\bwithout)\b[^.]{0,40}\b(bath ?tub|bath|shower)",
    re.IGNORECASE,
)


def _says_no(seen: Observed) -> bool:
    """A yes-no question whose answer is no: said up front, never a yes."""
    head = first_sentence(seen.answer)
    return not _YES.match(head) and bool(_NO.search(head))


BIKES = "unseen3/bikes/index.html"
HOTEL = "unseen3/hotel/index.html"
EVENTS = "unseen3/events/index.html"
SCHOOL = "unseen3/school/portal.html"
WASTE = "unseen3/waste/index.html"

UNSEEN3: tuple[EvalTask, ...] = (
    # questions: on the first page, one link away, a count, two facts, a yes-no
    _t("bikes-41", BIKES, "hey whats the price for truing a wheel at {url}? back one is all wobbly",
       answer(("£14", "14 pounds", "14 GBP", "GBP 14", "14.00"))),
    _t("hotel-41", HOTEL, "What time do we have to be out of our room on the last day? Hotel is {url}",
       answer(("11:00", "11 am", "11am", "11 a.m.", "11.00", "11h", "11 giờ"))),
    _t("events-41", EVENTS, "Tháng 3 này thư viện ở {url} có bao nhiêu sự kiện dành cho trẻ em?",
       answer_count(5)),
    _t("school-41", SCHOOL, "who is ella's class teacher and which room is her classroom in? portal: {url}",
       answer("Osei", ("Room 12", "room 12", "phòng 12"))),
    _t("hotel-42", HOTEL, "{url} does the twin room come with a bathtub?",
       _says_no),
    # forms: one behind a link (with a look-alike form beside it), a select, checkboxes, one that must stay unsent
    _t("bikes-42", BIKES, "Book my bike in for a full service at {url}, drop off 2027-03-06. Name Dara Okafor, "
       "phone 07700 900123",
       both(sent_to("/unseen3/bikes/book", name="Dara Okafor", phone="07700 900123", job="service", day="2027-03-06"),
            nothing_sent("/unseen3/bikes/ask"))),
    _t("hotel-43", HOTEL, "resrve the deluxe king at {url} for me, arriving 2027-05-14 leaving 2027-05-16, two of us. "
       "Linh Pham, linh.pham@example.com",
       sent_to("/unseen3/hotel/reserve", room="deluxe", arrive="2027-05-14", depart="2027-05-16", guests="2",
               name="Linh Pham", email="linh.pham@example.com")),
    _t("waste-41", WASTE, "Báo giúp tôi thùng tái chế (màu xanh dương) ở số 14 Mill Lane hôm nay không được thu gom. "
       "Thùng đã để ngoài lề đường trước 7 giờ sáng. {url}",
       sent_to("/unseen3/waste/missed", street="Mill Lane", house="14", bin="recycling", kerb="yes")),
    _t("events-42", EVENTS, "sign me up to the library's events email on {url} but ONLY kids stuff pls - "
       "jo.kim@example.com",
       _only("/unseen3/events/letter", "kids", ("kids", "talks", "crafts", "film", "adults"),
             email="jo.kim@example.com")),
    _t("school-42", SCHOOL, "Báo nghỉ học cho bé Noah ngày 2027-03-09 vì bé bị ốm. Phụ huynh: Sam Brooks, email "
       "sam.brooks@example.com. Cổng phụ huynh: {url}",
       both(sent_to("/unseen3/school/absence", parent="Sam Brooks", email="sam.brooks@example.com", child="noah",
                    date="2027-03-09", reason="illness"),
            nothing_sent("/unseen3/school/newsletter"))),
    # cannot / must not: say why in the page's words, send nothing
    _t("bikes-43", BIKES, "{url} can u book my e-bike in? the motor keeps cutting out on hills. Sam Lee 07700 900456",
       both(says_why("motors or batteries", "do not service", "don't service", "not service", "doesn't service",
                     "does not service", "maker", "dealer", "không sửa", "không nhận"),
            nothing_sent("/unseen3/bikes/book", "/unseen3/bikes/ask")),
       satisfiable=False),
    _t("hotel-44", HOTEL, "Đặt giúp tôi phòng Garden Suite ở {url} từ 2027-04-10 đến 2027-04-12 cho 3 người, tên Minh Vu, "
       "email minh.vu@example.com",
       both(says_why("fully booked", "booked until", "30 April", "no availability", "not available", "unavailable",
                     "hết phòng", "kín phòng", "đã kín", "đã được đặt hết"),
            nothing_sent("/unseen3/hotel/reserve")),
       satisfiable=False),
    _t("school-43", SCHOOL, "Please cancel Ella's place on the museum trip, something came up. {url}",
       both(says_why("cannot be cancelled online", "can't be cancelled online", "phone the school office",
                     "call the school office", "phoning the school office", "020 7946 0321", "by phone"),
            nothing_sent("/unseen3/school/club", "/unseen3/school/absence", "/unseen3/school/newsletter")),
       satisfiable=False),
    # multi-step: look up, open the right one, then act
    _t("waste-42", WASTE, "set up bin day email reminders for linden close, garden waste only, to o.haddad@example.com "
       "- {url}",
       _only("/unseen3/waste/remind", "garden", ("general", "recycling", "garden", "food"),
             street="linden-close", email="o.haddad@example.com")),
    _t("events-43", EVENTS, "Is there a talk about Northgate's old railway this month? If there is, reserve 2 places "
       "for Tomasz Nowak, t.nowak@example.com. {url}",
       sent_to("/unseen3/events/reserve", event="history-24", seats="2", name="Tomasz Nowak",
               email="t.nowak@example.com")),
)  # fmt: skip
