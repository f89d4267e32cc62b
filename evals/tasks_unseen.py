"""The unseen split: tasks written by a helper on pages of new shapes (a library catalogue, a power
bill in Vietnamese, a club with two look-alike forms, switch-button settings, a council report form,
a ticket wizard), never shown to whoever changes the rules. Run them (`waypost eval --tasks unseen`)
and quote the figure; read only the per-family figures and the kinds of failure, never the goals,
pages or checks, or the figure stops being honest. Pages are under evals/pages/unseen/.
"""

from __future__ import annotations

from evals.checks import (
    Check,
    EvalTask,
    Observed,
    answer,
    answer_count,
    both,
    make,
    nothing_sent,
    page_app,
    says_why,
    sent_to,
    store_empty,
    stored,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="unseen", satisfiable=satisfiable)


#: The settings page as it loads: saving it unchanged does no harm, saving any change does.
PREFS = {"twostep": False, "indexed": True, "marketing": True, "tips": False, "letter": "monthly"}


def _prefs_untouched(seen: Observed) -> bool:
    return seen.store.get("prefs") in (None, PREFS)


LIB = "unseen/library/index.html"
LIB_RESULTS = "unseen/library/results.html"
POWER = "unseen/power/index.html"
UNSEEN: tuple[EvalTask, ...] = (
    # questions: the answer is on the page or one click away
    _t("power-21", POWER, "Hoá đơn tiền điện tháng 11 của mình bao nhiêu tiền, hạn chót thanh toán ngày nào? {url}",
       answer(("1.248.600", "1,248,600", "1248600"),
              ("15/12/2026", "15/12", "15 December", "December 15", "2026-12-15", "15 tháng 12"))),
    _t("power-22", POWER, "what's the power outage notice on {url} about? short version pls",
       answer(("20/12", "20 December", "December 20", "2026-12-20", "20 tháng 12"), ("07:30", "7:30", "7h30", "7.30"))),
    _t("library-21", LIB, "how many books have i got out on loan right now? {url}",
       answer_count(3)),
    _t("club-21", "unseen/club/index.html", "whats the guest wifi pasword at the climbing wall? {url}",
       answer("Kestrel-2291")),
    # forms: labels without for=, look-alike fields in two forms, switches, a search form
    _t("club-22", "unseen/club/index.html", "Book me a free taster session at {url} - Nguyen Thi Mai, mai.nguyen@example.com, "
       "Saturday 9 January, evening slot. I'm not joining yet",
       both(sent_to("/unseen/club/taster", name="Nguyen Thi Mai", email="mai.nguyen@example.com", date="2027-01-09", slot="evening"),
            nothing_sent("/unseen/club/join"))),
    _t("council-21", "unseen/council.html", "Báo giúp tôi đèn đường bị hỏng trước nhà 42 Le Loi Street trên {url}. "
       "Mô tả: đèn không sáng 3 đêm nay rồi. Email: an.vo@example.com",
       both(sent_to("/unseen/council/report", category="streetlight", email="an.vo@example.com",
                    contains={"location": "42 Le Loi", "description": "đèn không sáng"}),
            nothing_sent("/unseen/council/reminders"))),
    _t("prefs-21", "unseen/prefs.html", "On {url} switch on two-step sign-in and stop search engines listing my public profile. "
       "Save it, dont change anything else",
       stored("prefs", {"twostep": True, "indexed": False, "marketing": True, "tips": False, "letter": "monthly"})),
    _t("library-22", LIB, "Tìm sách điện tử (e-book) của tác giả Nam Cao trên {url}",
       page_app(LIB_RESULTS, format="ebook", results=["e-chi", "e-lao"])),
    # cannot or must not be done as asked
    _t("library-23", LIB, "renew The Salt Road for me on {url}",
       both(says_why("reserved", "another reader", "on hold", "cannot be renewed"), store_empty("renewed")),
       satisfiable=False),
    _t("power-23", POWER, "pay my latest electricity bill on {url} but NOT with a card, I never type card numbers into websites",
       both(says_why("Visa", "Mastercard", "chỉ nhận thẻ", "cards only"), nothing_sent("/unseen/power/pay")),
       satisfiable=False),
    _t("prefs-22", "unseen/prefs.html", "Set the Ledgerly newsletter to weekly on {url}",
       both(says_why("daily", "monthly"), _prefs_untouched),
       satisfiable=False),
    # several steps: search then open, filter then answer, a wizard
    _t("library-24", LIB, "find The Night Ferry by Ha Linh on {url} (the book, not the film) and place a hold on it",
       stored("holds", ["b-ferry"])),
    _t("library-25", LIB, "search {url} for gardening, show only DVDs, and tell me which one I could borrow today",
       both(page_app(LIB_RESULTS, format="dvd", results=["d-year", "d-allot"]), answer("Allotment Diaries"))),
    _t("tix-21", "unseen/tix/index.html", "Mua 2 vé sinh viên xem múa rối nước (Water Puppets) tối thứ Sáu 8/1/2027 trên {url}. "
       "Tên Le Van Hung, email hung.le@example.com",
       sent_to("/unseen/tix/order", show="water-puppets", date="2027-01-08", qty="2", type="student",
               name="Le Van Hung", email="hung.le@example.com")),
)  # fmt: skip
