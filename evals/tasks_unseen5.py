"""The fifth unseen split: tasks written by a helper on pages of new shapes again (a restaurant's
booking form with party size, date and time pickers, a physiotherapy clinic's booking with radio time
slots and a call-back form with a time input, a florist with a basket and a checkout beside a
newsletter box, a lighting catalogue filtered by selects and checkboxes outside any form, a
lighthouse's information pages of facts), never shown to whoever changes the rules. Run them
(`waypost eval --tasks unseen5`) and quote the figure; read only the per-family figures and the kinds
of failure, never the goals, pages or checks, or the figure stops being honest. Pages are under
evals/pages/unseen5/.
"""

from __future__ import annotations

from evals.checks import (
    NOT_FOUND,
    Check,
    EvalTask,
    Observed,
    answer,
    app,
    both,
    make,
    nothing_sent,
    opening,
    says_why,
    sent_to,
    store_empty,
    stored,
    unticked,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="unseen5", satisfiable=satisfiable)


#: How an answer says the page is silent on a question, beyond the suite's own "not found" words.
_SILENT = (*NOT_FOUND, "no information", "doesn't say", "does not say", "doesn't mention", "does not mention",
           "not mentioned", "not say", "không nói", "không đề cập", "không có thông tin")  # fmt: skip


def _unanswered(*subjects: str) -> Check:
    """The answer names the subject and says, up front, that the pages do not tell."""

    def check(seen: Observed) -> bool:
        head = opening(seen.answer).casefold()
        return any(s.casefold() in head for s in subjects) and any(w.casefold() in head for w in _SILENT)

    return check


TRATTORIA = "unseen5/trattoria/index.html"
PHYSIO = "unseen5/physio/index.html"
FLORIST = "unseen5/florist/index.html"
LAMPS = "unseen5/lamps/index.html"
LIGHTHOUSE = "unseen5/lighthouse/index.html"

UNSEEN5: tuple[EvalTask, ...] = (
    # trattoria: a booking with a party-size select, a date input and a time select in "7:30 PM" labels
    _t("trattoria-61", TRATTORIA, "can you book us a table at {url} for 4 people on 14 May 2027 at 7.30pm, name "
       "Priya Nair, mobile 07700 900418",
       sent_to("/unseen5/trattoria/book", party="4", date="2027-05-14", time="19:30", guest="Priya Nair",
               phone="07700 900418")),
    _t("trattoria-62", TRATTORIA, "đặt giúp mình 1 bàn 2 người tối thứ Sáu 11/6/2027 lúc 8 giờ tối, ngồi ngoài "
       "terrace nha, tên Trần Minh Thư sđt 0912 345 678, ko cần nhận khuyến mãi qua tin nhắn {url}",
       both(sent_to("/unseen5/trattoria/book", party="2", date="2027-06-11", time="20:00", seating="terrace",
                    guest="Trần Minh Thư", phone="0912 345 678"),
            unticked("/unseen5/trattoria/book", "offers"))),
    _t("trattoria-63", TRATTORIA, "pls reserve a table for 6 on sat 15 may 2027 at 10pm, under Jonas Berg "
       "07700 900552 {url}",
       both(says_why("9:30", "21:30", "last seating", "not available", "unavailable", "not offered"),
            nothing_sent("/unseen5/trattoria/book")),
       satisfiable=False),
    # physio: radio time slots, a call-back form with a time input and a marketing box ticked already
    _t("physio-61", PHYSIO, "book me a sports massage at {url} on april 9th 2027, the 10:15 one. Tom Okafor, "
       "tom.okafor@example.com - I've been there before",
       sent_to("/unseen5/physio/book", treatment="massage", day="2027-04-09", slot="10:15", patient="Tom Okafor",
               email="tom.okafor@example.com", visit="returning")),
    _t("physio-62", PHYSIO, "I'd like the physio place to ring me back on 6 April 2027 at about quarter to six in "
       "the evening. Dana Whitfield, 07700 900871, it's about my knee. no marketing stuff pls {url}",
       both(sent_to("/unseen5/physio/callback", contains={"about": "knee"}, name="Dana Whitfield",
                    phone="07700 900871", date="2027-04-06", time="17:45"),
            unticked("/unseen5/physio/callback", "news"))),
    _t("physio-63", PHYSIO, "Đặt lịch khám đánh giá vật lý trị liệu ngày 12/4/2027 lúc 1 giờ chiều (13:00) cho "
       "tôi, tên Phạm Quốc Bảo, email bao.pham@example.com {url}",
       both(says_why("12:30", "14:00", "lunch", "nghỉ trưa", "11:30", "not available", "unavailable",
                     "không có", "không còn"),
            nothing_sent("/unseen5/physio/book")),
       satisfiable=False),
    # florist: a basket in the site's store, a checkout with a delivery choice made already and a
    # newsletter form beside it, a sold-out wreath
    _t("florist-61", FLORIST, "send the Peony Posy to my mum Helen Marsh, 7 Orchard Row, Whitby YO21 3PL, next day "
       "delivery please. I don't want to sign up to anything {url}",
       both(sent_to("/unseen5/florist/order", items="1 x Peony Posy", recipient="Helen Marsh",
                    street="7 Orchard Row", town="Whitby", postcode="YO21 3PL", delivery="nextday"),
            nothing_sent("/unseen5/florist/club"))),
    _t("florist-62", FLORIST, "cho 3 bó hoa hướng dương (Sunflower Bunch) vào giỏ hàng giùm mình, chưa thanh toán "
       "đâu nha {url}",
       both(stored("basket", {"sunflower-bunch": 3}), nothing_sent())),
    _t("florist-63", FLORIST, "Order the White Lily Wreath from {url} to go to Sam Greer at 3 Mill Lane, Ripon "
       "HG4 1AA, standard delivery is fine",
       both(says_why("sold out", "out of stock", "back in stock", "not available", "unavailable", "hết hàng"),
            nothing_sent("/unseen5/florist/order"), store_empty("basket")),
       satisfiable=False),
    # lamps: filters as selects and checkboxes outside any form, a cheapest-of-a-kind question
    _t("lamps-61", LAMPS, "on {url} only show me the brass desk lamps that are dimmable",
       app(type="desk", finish="brass", dimmable=True)),
    _t("lamps-62", LAMPS, "trên {url} cái đèn thả trần (pendant) nào rẻ nhất vậy, giá bao nhiêu?",
       answer("Rattan", "48")),
    # lighthouse: facts on pages behind links, a two-part question, one the pages do not answer
    _t("lighthouse-61", LIGHTHOUSE, "{url} how tall is the lighthouse and how many steps to the top",
       answer(("36 m", "36m", "36 metre", "36 meter", "36-metre", "36 mét"), "172")),
    _t("lighthouse-62", LIGHTHOUSE, "đi phà ra đảo hải đăng mất bao lâu vậy? xem giúp trên {url}",
       answer(("25 min", "25 phút", "25-min", "twenty-five min", "25min"))),
    _t("lighthouse-63", LIGHTHOUSE, "can I bring my dog on the ferry to the lighthouse island? {url}",
       _unanswered("dog", "chó"), satisfiable=False),
)  # fmt: skip
