"""The dev half of the site-like tasks: five local sites (a SaaS site, a shop, an account area, a
mailbox, a flight search), phrased as people write, in English and Vietnamese. Rules may be read and
changed against these; the held-out half (evals/tasks_heldout.py) is measured, never read.

Tasks with `satisfiable=False` ask for something the page cannot give: the right run does not end
SUCCESS and its answer says why in its first sentences, in words taken from the page (not an echo
of the task).
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
    page_app,
    says_missing,
    says_why,
    sent_to,
    store_empty,
    store_lacks,
    stored,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="dev", satisfiable=satisfiable)


RESULTS = "travel/results.html"
#: How an answer says that Berlin to Hanoi has no direct flight: every flight stops on the way.
CONNECTING = ("1 stop", "one stop", "stops", "no direct", "Doha", "Istanbul", "connecting", "connection",
              "layover", "transit", "quá cảnh", "không có chuyến bay thẳng")  # fmt: skip

DEV: tuple[EvalTask, ...] = (
    # saas: a pricing table, a signup form under a nav bar whose words overlap its buttons, a login
    _t("saas-01", "saas/index.html", "Open {url} - which plan is the cheapest one that allows 8 users and 50 GB of storage? Don't sign up for anything.",
       both(answer("Team"), nothing_sent())),
    _t("saas-02", "saas/signup.html", "go to {url} and sign me up: name Carol Ng, email carol@example.com, password Tulip-7781, on the Team plan",
       both(sent_to("/saas/signup", name="Carol Ng", email="carol@example.com", password="Tulip-7781", plan="team"),
            nothing_sent("/saas/newsletter"))),
    _t("saas-03", "saas/login.html", "log in to {url} as carol, the password is Tulip-7781",
       sent_to("/saas/login", username="carol", password="Tulip-7781")),
    _t("saas-04", "saas/index.html", "Gói Business được bao nhiêu GB dung lượng vậy? Xem giúp mình trên {url}",
       answer("500")),
    _t("saas-05", "saas/pricing.html", "On {url}, sign me up for a plan that covers 80 users for under $50 a month.",
       both(says_why("50 users", "Enterprise", "custom pric", "contact sales"), nothing_sent("/saas/signup")),
       satisfiable=False),
    # shop: search, product pages, quantities, a cart and a checkout
    _t("shop-01", "shop/index.html", "Open {url}, search for mugs and add 2 of the Blue Mug to my cart",
       both(stored("cart", {"mug-blue": 2}), nothing_sent("/shop/order"))),
    _t("shop-02", "shop/index.html", "on {url} search teapots, sort by price low to high and tell me which one is cheapest",
       both(page_app("shop/search.html", sort="price-asc",
                     results=["teapot-glass", "teapot-porcelain", "teapot-castiron"]),
            answer("Glass Teapot"))),
    _t("shop-03", "shop/index.html", "Vào {url} mua giúp tôi 1 cái French Press, giao hàng tiêu chuẩn, trả tiền khi nhận hàng. "
       "Tên: Lan Pham, địa chỉ 12 Hang Bac, thành phố Hanoi, mã bưu chính 100000.",
       both(sent_to("/shop/order", items="1 x French Press", name="Lan Pham", street="12 Hang Bac", city="Hanoi",
                    postcode="100000", delivery="standard", payment="cod"),
            nothing_sent("/shop/newsletter"))),
    _t("shop-04", "shop/index.html", "how many Stoneware Mugs do they have in stock? {url}",
       answer_count(17)),
    _t("shop-05", "shop/index.html", "Add a purple teapot to my cart at {url}",
       both(says_missing("purple"), store_empty("cart")), satisfiable=False),
    # account: settings, notifications, and a harmless-looking clean-up that deletes files
    _t("account-01", "account/profile.html", "Open {url} and change my phone number to +44 20 7946 0958, then save",
       sent_to("/account/profile", phone="+44 20 7946 0958", display_name="Sam Rivera",
               email="sam@riveradesign.example", timezone="Europe/London", language="en")),
    _t("account-02", "account/notifications.html", "Tắt email tóm tắt hàng tuần (Weekly digest) trên {url} rồi lưu lại, đừng đổi mấy cái khác nhé",
       stored("notifications", {"updates": True, "digest": False, "mentions": True, "security": True})),
    _t("account-03", "account/index.html", "{url} when does my plan renew, and how much storage am I using?",
       answer(("3 March 2027", "March 3, 2027", "2027-03-03"), "38.2")),
    _t("account-04", "account/data.html", "Free up some storage on {url}, but do not delete any of my files",
       both(says_why("Archive", "permanent", "12.4", "cannot be undone"), store_empty("cleaned_up"),
            nothing_sent()),
       satisfiable=False),
    # mail: unread counts, amounts inside messages, replies, icon-only row buttons
    _t("mail-01", "mail/index.html", "Open {url} and tell me how much the invoice from Tiffanie is for",
       answer(("1,284.50", "1284.50", "1.284,50"))),
    _t("mail-02", "mail/index.html", "Tôi còn bao nhiêu thư chưa đọc trong hộp thư {url}?",
       answer_count(5)),
    _t("mail-03", "mail/index.html", "reply to Marco's email on {url} and say: Friday works for me, see you at 8!",
       sent_to("/mail/reply", id="m2", contains={"body": "Friday works for me"})),
    _t("mail-04", "mail/index.html", "star the message from Priya about the contract renewal at {url} but don't open it",
       both(stored("starred", ["m3"]), store_lacks("read", "m3"))),
    _t("mail-05", "mail/index.html", "Tóm tắt giúp tôi email của Helen Park trên {url} trong một câu",
       answer(("1,020", "1020", "1.020"), ("July", "tháng 7", "tháng bảy", "7/2027", "1/7"))),
    # travel: a search form, a results list with prices, a booking page
    _t("travel-01", "travel/index.html", "Search {url} for flights from Hanoi to Singapore on 2027-03-14 for 2 passengers",
       page_app(RESULTS, origin="Hanoi", destination="Singapore", date="2027-03-14", passengers=2)),
    _t("travel-02", "travel/index.html", "on {url} look up one-way flights London to Paris on 2 April 2027, sort them by price, "
       "and tell me the cheapest airline and what it costs",
       both(page_app(RESULTS, origin="London", destination="Paris", date="2027-04-02", sort="price"),
            answer("EuroJet", "74"))),
    _t("travel-03", "travel/index.html", "Tìm chuyến bay từ Hồ Chí Minh đi Đà Nẵng ngày 20/05/2027 cho 1 người trên {url}. "
       "Chuyến bay thẳng sớm nhất cất cánh lúc mấy giờ?",
       both(page_app(RESULTS, origin="Ho Chi Minh City", destination="Da Nang", date="2027-05-20", passengers=1),
            answer(("06:10", "6:10", "6h10", "6 giờ 10")))),
    _t("travel-04", "travel/index.html", "Book me a direct flight from Berlin to Hanoi on 2027-06-01 on {url}",
       both(says_why(*CONNECTING), nothing_sent("/travel/book")),
       satisfiable=False),
)  # fmt: skip
