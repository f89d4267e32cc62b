"""The fourth unseen split: tasks written by a helper on pages of new shapes again (a pharmacy with a
sign-in, opening hours behind a link and a repeat-prescription form, a council's skip permit with its
fees behind a tab and a parking permit form, a car rental search with sorting, a filter and a
review-then-confirm booking, a podcast directory with a search and show pages, a power network's
outage map with a postcode lookup and a report form), never shown to whoever changes the rules. Run
them (`waypost eval --tasks unseen4`) and quote the figure; read only the per-family figures and the
kinds of failure, never the goals, pages or checks, or the figure stops being honest. Pages are
under evals/pages/unseen4/.
"""

from __future__ import annotations

from evals.checks import (
    Check,
    EvalTask,
    Observed,
    answer,
    both,
    make,
    nothing_sent,
    on_page,
    page_app,
    says_missing,
    sent_to,
)


def _t(
    task_id: str,
    page: str,
    goal: str,
    check: Check,
    *,
    satisfiable: bool = True,
    secrets: dict[str, str] | None = None,
) -> EvalTask:
    return make(task_id, page, goal, check, split="unseen4", satisfiable=satisfiable, secrets=secrets)


def _unticked(path: str, *boxes: str) -> Check:
    """Every post to `path` left these boxes unticked (what the person said they did not want)."""
    return lambda seen: not any(p.path == path and p.form.get(b) for p in seen.sent for b in boxes)


def _searched(path: str, word: str) -> Check:
    """The results page was reached with a query holding `word` (any casing, any other words)."""

    def check(seen: Observed) -> bool:
        query = str(dict(seen.page(path).get("app") or {}).get("query") or "")
        return word.casefold() in query.casefold()

    return check


PHARMACY = "unseen4/pharmacy/index.html"
PERMITS = "unseen4/permits/index.html"
PARKING = "unseen4/permits/parking.html"
CARHIRE = "unseen4/carhire/index.html"
RESULTS = "unseen4/carhire/results.html"
HANOI = RESULTS + "?loc=han&pickup=2027-06-03&dropoff=2027-06-07"
PODCASTS = "unseen4/podcasts/index.html"
OUTAGES = "unseen4/outages/index.html"

PASSWORD = "fern-Lantern-82"

UNSEEN4: tuple[EvalTask, ...] = (
    # pharmacy: a sign-in with a declared secret then a fact behind it, a fact one link away, a form
    _t("pharmacy-51", PHARMACY, "Sign in to {url} as r.adeyemi with password {{{{secret:pw}}}} and tell me when my "
       "amlodipine is next due for a refill",
       both(sent_to("/unseen4/pharmacy/signin", username="r.adeyemi", password=PASSWORD),
            answer("14 March")),
       secrets={"pw": PASSWORD}),
    _t("pharmacy-52", PHARMACY, "what time does {url} close on saturdays",
       answer(("13:00", "1 pm", "1pm", "1:00 pm", "1:00pm", "1.00pm", "1 p.m.", "13h"))),
    _t("pharmacy-53", PHARMACY, "Đặt lại thuốc định kỳ cho mẹ tôi trên {url}: tên Nguyễn Thị Lan, ngày sinh "
       "1958-07-22, số đơn thuốc RX-448120, thuốc Metformin 500 mg, nhận ở chi nhánh Riverside. Không cần nhắn "
       "tin báo khi thuốc sẵn sàng.",
       both(sent_to("/unseen4/pharmacy/refill", contains={"medicine": "metformin"}, name="Nguyễn Thị Lan",
                    dob="1958-07-22", rx="RX-448120", branch="riverside"),
            _unticked("/unseen4/pharmacy/refill", "sms"))),
    # permits: a long chatty application, a form that must stay unsent, a fee behind a tab
    _t("permits-51", PERMITS, "Hi! We're finally getting the kitchen redone and the builders say they need a skip "
       "outside the house. Could you apply for the permit for me on {url}? It's going at 27 Orchard Row, delivered "
       "on 2027-04-12 and staying for 10 days. It'll sit on the road, not on the pavement (the pavement is far too "
       "narrow). I'm Priya Raman, priya.raman@example.com. Thanks so much!",
       sent_to("/unseen4/permits/skip", contains={"address": "27 Orchard Row"}, name="Priya Raman",
               email="priya.raman@example.com", start="2027-04-12", days="10", placement="road")),
    _t("permits-52", PARKING, "fill in the resident parking permit at {url} but DON'T submit it, I want to check it "
       "first. Tom Becker, 8 Linden Terrace, reg KX19 PLM, zone C, 12 months",
       both(on_page(PARKING, **{"p-name": "Tom Becker", "p-address": "8 Linden Terrace", "p-reg": "KX19 PLM",
                                "p-zone": "c", "p-12m": True}),
            nothing_sent())),
    _t("permits-53", PERMITS, "Xin giấy phép đặt thùng xà bần (skip) trên đường trong 2 tuần ở {url} thì phí là "
       "bao nhiêu?",
       answer(("£70", "70 pounds", "70 GBP", "GBP 70", "70.00", "70 bảng"))),
    # car hire: a search, a sort, a filter, then a booking with a review step before it is confirmed
    _t("carhire-51", CARHIRE, "Search {url} for a car at Da Nang airport, pick up 2027-07-02, drop off 2027-07-09",
       page_app(RESULTS, loc="dad", pickup="2027-07-02", dropoff="2027-07-09")),
    _t("carhire-52", HANOI, "{url} sort by price, cheapest first",
       page_app(RESULTS, sort="price-asc", loc="han")),
    _t("carhire-53", HANOI, "only show me the automatics on {url}",
       page_app(RESULTS, automatic=True, loc="han")),
    _t("carhire-54", HANOI, "Đặt giúp tôi chiếc xe 7 chỗ rẻ nhất ở {url} (nhận ở sân bay Nội Bài 2027-06-03, trả "
       "2027-06-07). Người lái: Trần Văn Minh, email minh.tran@example.com, điện thoại 0912 345 678. Xác nhận đặt "
       "xe luôn nhé.",
       sent_to("/unseen4/carhire/confirm", car="xpander", loc="han", name="Trần Văn Minh",
               email="minh.tran@example.com", phone="0912 345 678", pickup="2027-06-03", dropoff="2027-06-07")),
    # podcasts: a search, a show that is not there, facts on a show's own page
    _t("podcasts-51", PODCASTS, "look up gardening podcasts on {url}",
       _searched("unseen4/podcasts/search.html", "garden")),
    _t("podcasts-52", PODCASTS, "How many episodes has Midnight Chess Club put out so far? It should be on {url}",
       says_missing("Midnight Chess Club"), satisfiable=False),
    _t("podcasts-53", PODCASTS, "{url} who hosts The Tidewater Hour, and how long is the newest episode?",
       answer("Solberg", ("48 min", "48-min", "48 phút"))),
    # outages: a postcode lookup, a report form, a count with a prohibition
    _t("outages-51", OUTAGES, "hi our electricity went off about an hour ago and the fridge is full, we're at "
       "HX3 7QT. is it a known fault and when are they saying it'll be back on?? {url}",
       answer(("16:30", "4:30 pm", "4:30pm", "4.30pm", "4.30 pm", "16h30"))),
    _t("outages-52", OUTAGES, "Báo mất điện giúp tôi trên {url}: nhà ở 5 Quarry Lane, mã bưu chính HX3 9BD, tên Lê "
       "Hoàng, điện thoại 07700 900777. Hàng xóm cũng bị mất điện. Nhà không có ai dùng thiết bị y tế.",
       both(sent_to("/unseen4/outages/report", contains={"address": "5 Quarry Lane"}, name="Lê Hoàng",
                    phone="07700 900777", postcode="HX3 9BD", neighbours="yes"),
            _unticked("/unseen4/outages/report", "medical"))),
    _t("outages-53", OUTAGES, "just tell me how many customers are off supply in Brookfield right now - don't "
       "report anything. {url}",
       both(answer(("1,240", "1240", "1.240")), nothing_sent())),
)  # fmt: skip
