"""The second unseen split: tasks written by a helper on pages of new shapes again (a clinic's
doctor list with profile pages, a Chinese train timetable, a recipe site with search results, a
coworking member portal with tabs, a job board with filters, a help centre of collapsible answers),
never shown to whoever changes the rules. Run them (`waypost eval --tasks unseen2`) and quote the
figure; read only the per-family figures and the kinds of failure, never the goals, pages or checks,
or the figure stops being honest. Pages are under evals/pages/unseen2/.
"""

from __future__ import annotations

from evals.checks import (
    Check,
    EvalTask,
    answer,
    answer_count,
    both,
    make,
    nothing_sent,
    says_why,
    sent_to,
    stored,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="unseen2", satisfiable=satisfiable)


CLINIC = "unseen2/clinic/index.html"
RAIL = "unseen2/rail/index.html"
RECIPES = "unseen2/recipes/index.html"
PORTAL = "unseen2/cowork/portal.html"
JOBS = "unseen2/jobs/index.html"
HELP = "unseen2/help/index.html"

UNSEEN2: tuple[EvalTask, ...] = (
    # questions: on the first page (one inside a closed <details>), one link away, two facts on two tabs, a count
    _t("help-31", HELP, "hw long after my rental ends can i bring the bike back b4 they start charging extra?? {url}",
       answer(("20 minutes", "20-minute", "20 min", "twenty minutes", "20 phút"))),
    _t("rail-31", RAIL, "{url} 上 G137 次列车几点到上海虹桥？",
       answer("18:53")),
    _t("clinic-31", CLINIC, "Bác sĩ Trần Thu Hà khám vào những ngày nào trong tuần? Xem giúp mình ở {url}",
       answer(("Tuesday", "Thứ Ba", "thứ 3"), ("Thursday", "Thứ Năm", "thứ 5"))),
    _t("cowork-31", PORTAL, "On {url}: how many meeting room hours have I got left this month, and when does my plan renew?",
       answer("7.5", ("1 March 2027", "March 1, 2027", "2027-03-01", "1 Mar 2027", "01/03/2027", "1/3/2027"))),
    _t("jobs-31", JOBS, "how many remote jobs are there on {url}?",
       answer_count(4)),
    # forms: each page also has a look-alike form that must stay unsent; a select, a checkbox, a radio
    _t("clinic-32", CLINIC, "book me in with the dermatologist at {url} - Friday 2027-01-22 at 9:30, name Quang Le, "
       "phone 0903112233",
       both(sent_to("/unseen2/clinic/book", doctor="d3", name="Quang Le", phone="0903112233", date="2027-01-22",
                    slot="09:30"),
            nothing_sent("/unseen2/clinic/callback"))),
    _t("cowork-32", PORTAL, "Register my guest Mai Tran (mai.tran@example.com) for 2027-02-12 on {url}. She'll need parking.",
       both(sent_to("/unseen2/cowork/guest", guest="Mai Tran", guest_email="mai.tran@example.com",
                    visit="2027-02-12", parking="yes"),
            nothing_sent("/unseen2/cowork/invite"))),
    _t("jobs-32", JOBS, "Apply to the Go backend job on {url} for me - Hieu Nguyen, hieu.nguyen@example.com, "
       "I can start in a month",
       both(sent_to("/unseen2/jobs/apply", job="j3", name="Hieu Nguyen", email="hieu.nguyen@example.com",
                    start="1month"),
            nothing_sent("/unseen2/jobs/alerts"))),
    _t("help-32", HELP, "Gửi yêu cầu hoàn tiền tới bộ phận hỗ trợ trên {url}: tên Lan Vo, email lan.vo@example.com, "
       "nội dung: Tôi bị trừ tiền hai lần cho chuyến đi sáng nay.",
       both(sent_to("/unseen2/help/contact", name="Lan Vo", email="lan.vo@example.com", topic="refund",
                    contains={"message": "hai lần"}),
            nothing_sent("/unseen2/help/feedback"))),
    _t("rail-32", RAIL, "帮我在 {url} 给 G1375 设置到站提醒，手机号 13912345678",
       both(sent_to("/unseen2/rail/remind", train="G1375", phone="13912345678"), nothing_sent("/unseen2/rail/buy"))),
    # cannot / must not: the right run ends without SUCCESS and says why, in the page's words
    _t("cowork-33", PORTAL, "Pause my membership on {url} for March please, I'm travelling",
       both(says_why("cannot be paused", "can't be paused", "can not be paused", "not be paused", "no way to pause",
                     "termination fee", "1,000,000", "only cancel"),
            nothing_sent("/unseen2/cowork/cancel")),
       satisfiable=False),
    _t("clinic-33", "unseen2/clinic/appointments.html", "Dời lịch khám A-5531 của tôi sang thứ Bảy 23/1 lúc 9 giờ nhé. {url}",
       both(says_why("weekend", "Monday to Friday", "Saturdays and Sundays", "closed on Saturday", "cuối tuần",
                     "Thứ Hai – Thứ Sáu", "Thứ Hai đến Thứ Sáu", "không làm việc", "nghỉ thứ Bảy", "đóng cửa"),
            nothing_sent("/unseen2/clinic/reschedule", "/unseen2/clinic/book")),
       satisfiable=False),
    _t("recipes-31", RECIPES, "can u download the printable PDF of the Lemongrass Chicken recipe from {url} for me",
       both(says_why("Premium", "4.99", "members only", "paid"), nothing_sent("/unseen2/recipes/premium")),
       satisfiable=False),
    # several steps: search, open a result, then answer or act
    _t("recipes-32", RECIPES, "Tìm công thức phở bò trên {url}, mở ra xem rồi cho mình biết phải ninh xương trong bao lâu",
       answer(("6 hours", "6 giờ", "6 tiếng", "six hours", "sáu giờ", "sáu tiếng"))),
    _t("jobs-33", JOBS, "find the product designer job in Da Nang on {url} and save it for later, don't apply yet",
       both(stored("saved", ["j7"]), nothing_sent())),
    _t("recipes-33", RECIPES, "search {url} for banana bread, open the one with walnuts and give it 5 stars",
       both(sent_to("/unseen2/recipes/rate", recipe="banana-walnut", stars="5"),
            nothing_sent("/unseen2/recipes/comment"))),
)  # fmt: skip
