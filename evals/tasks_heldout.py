"""The held-out half of the site-like tasks. DO NOT READ THIS FILE while changing planning,
grounding or answer rules: it is the honest figure of how the rules do on tasks nobody tuned them
for (as tests/data/routing_heldout.jsonl is for routing). Run it (`waypost eval --tasks heldout`) and
read only its per-family figures. Pages used by these tasks alone are under evals/pages/heldout/,
with their tests in tests/integration/act/test_eval_heldout_checkers.py: do not read those either.
"""

from __future__ import annotations

from evals.checks import (
    Check,
    EvalTask,
    answer,
    both,
    landed,
    make,
    nothing_sent,
    page_app,
    says_missing,
    says_why,
    sent_to,
    store_empty,
    stored,
)


def _t(task_id: str, page: str, goal: str, check: Check, *, satisfiable: bool = True) -> EvalTask:
    return make(task_id, page, goal, check, split="heldout", satisfiable=satisfiable)


RESULTS = "travel/results.html"
HELDOUT: tuple[EvalTask, ...] = (
    # saas
    _t("saas-11", "saas/index.html", "we're 12 people and need roughly 200 GB. cheapest plan that works on {url}? just tell me, dont sign up for anything",
       both(answer("Business"), nothing_sent())),
    _t("saas-12", "saas/index.html", "Create a Cloudlet account on {url} for Minh Tran (minh.tran@example.com), password Lotus-2468, Starter plan",
       both(sent_to("/saas/signup", name="Minh Tran", email="minh.tran@example.com", password="Lotus-2468", plan="starter"),
            nothing_sent("/saas/newsletter"))),
    _t("saas-13", "saas/index.html", "Đăng nhập vào {url} bằng tài khoản carol, mật khẩu Tulip-7781",
       sent_to("/saas/login", username="carol", password="Tulip-7781")),
    _t("saas-14", "saas/signup.html", "subscribe ana@example.com to the Cloudlet newsletter at {url} - I don't want an account",
       both(sent_to("/saas/newsletter", email="ana@example.com"), nothing_sent("/saas/signup"))),
    _t("saas-15", "heldout/sales.html", "Ask for an Enterprise quote on {url}: company Orbit Labs, 120 seats, email ines@orbitlabs.example, "
       "and tell them we need SSO and about 2 TB",
       both(sent_to("/heldout/sales", company="Orbit Labs", seats="120", email="ines@orbitlabs.example",
                    contains={"message": "SSO"}),
            nothing_sent("/heldout/demo"))),
    # shop
    _t("shop-11", "shop/index.html", "put 3 tea towels in my basket on {url} and go to the checkout, but don't place the order yet",
       both(stored("cart", {"towel-tea": 3}), landed("shop/checkout.html"), nothing_sent("/shop/order"))),
    _t("shop-12", "shop/index.html", "Tìm 'kettle' trên {url}, sắp xếp giá từ cao xuống thấp rồi mở sản phẩm đầu tiên",
       both(page_app("shop/search.html", sort="price-desc", results=["kettle-copper", "kettle-electric", "kettle-steel"]),
            landed("shop/product.html", "id=kettle-copper"))),
    _t("shop-13", "shop/index.html", "which costs more at {url}, the Travel Mug or the French Press? and by how much",
       answer("French Press", ("8.00", "8 EUR", "€8", "8 euro", "EUR 8"))),
    _t("shop-14", "shop/index.html", "add the Copper Kettle to my cart on {url}",
       both(says_why("out of stock", "sold out", "six weeks", "unavailable", "not available", "hết hàng"),
            store_empty("cart")),
       satisfiable=False),
    _t("shop-15", "heldout/returns.html", "The Glass Teapot from order W1042 arrived broken. Start a return on {url}, I want my money back "
       "not an exchange. My email is lan.pham@example.com",
       both(sent_to("/heldout/returns", order="W1042", email="lan.pham@example.com", item="teapot-glass",
                    reason="damaged", outcome="refund"),
            nothing_sent("/shop/newsletter"))),
    # account
    _t("account-11", "account/notifications.html", "turn off product updates and the mentions emails on {url}, leave everything else as it is, and save",
       stored("notifications", {"updates": False, "digest": True, "mentions": False, "security": True})),
    _t("account-12", "account/index.html", "Đổi tên hiển thị thành Minh Anh và múi giờ sang Hồ Chí Minh trên {url}, rồi lưu lại",
       sent_to("/account/profile", display_name="Minh Anh", timezone="Asia/Ho_Chi_Minh", email="sam@riveradesign.example",
               phone="+44 20 7946 0000", language="en")),
    _t("account-13", "account/index.html", "sign the old iPad out of my account ({url}). Don't touch anything else",
       both(stored("devices_removed", ["ipad"]), store_empty("cleaned_up"), nothing_sent())),
    _t("account-14", "account/profile.html", "change my username to sam.r on {url}",
       both(says_why("can't be changed", "cannot be changed", "can not be changed", "not be changed",
                     "no username field", "not editable", "không thể"),
            nothing_sent("/account/profile")),
       satisfiable=False),
    # mail
    _t("mail-11", "mail/index.html", "trash the Kitchen Weekly newsletter in {url}",
       stored("trashed", ["m7"])),
    _t("mail-12", "mail/index.html", "Trả lời email của Helen Park trên {url}: Cảm ơn chị, em đồng ý với mức giá mới.",
       sent_to("/mail/reply", id="m6", contains={"body": "Cảm ơn chị"})),
    _t("mail-13", "mail/index.html", "when's my SkyWays flight and what's the booking code? {url}",
       answer(("22 May", "May 22", "2027-05-22"), "QX7L2P")),
    _t("mail-14", "mail/index.html", "reply to Daniel Okafor's email on {url} saying thanks, got it",
       both(says_missing("Daniel"), nothing_sent("/mail/reply")), satisfiable=False),
    _t("mail-15", "mail/index.html", "give me the gist of Priya's contract renewal email at {url}",
       answer(("2,400", "2400"), ("30 April", "20 April", "April 30", "April 20"))),
    # travel
    _t("travel-11", "travel/index.html", "find flights Bangkok to Singapore on 2027-03-03 for 3 adults in business class on {url}",
       page_app(RESULTS, origin="Bangkok", destination="Singapore", date="2027-03-03", passengers=3, cabin="business")),
    _t("travel-12", "travel/index.html", "Tìm vé rẻ nhất từ Hà Nội đi Bangkok ngày 10/03/2027 cho 2 người trên {url} rồi chọn chuyến đó",
       both(stored("selected", {"flight": "VS 931", "date": "2027-03-10", "passengers": 2, "cabin": "economy", "total": 168}),
            nothing_sent("/travel/book"))),
    _t("travel-13", "travel/index.html", "Paris to Berlin on July 14 2027: which flight is the fastest and how long is it? ({url})",
       both(page_app(RESULTS, origin="Paris", destination="Berlin", date="2027-07-14"),
            answer(("CA 712", "Channel Air"), ("1h 45", "1 h 45", "1 hour 45", "105 min", "1:45")))),
    _t("travel-14", "travel/index.html", "Tìm chuyến bay Hà Nội - Đà Nẵng ngày 2027-04-30 cho 8 người trên {url}",
       both(says_why("up to 6", "6 passengers", "maximum", "at most", "six", "7 or more", "3555 0199", "tối đa",
                     "6 người", "6 hành khách"),
            nothing_sent("/travel/book")),
       satisfiable=False),
)  # fmt: skip
