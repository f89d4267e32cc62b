"""The words the rule planner reacts to, in English and Vietnamese (one place, so routing stays explainable).

Vietnamese terms are written with diacritics; `_text.search_terms` also matches them in text typed
without diacritics. Ambiguous bare words ("vào", "chọn") are only listed inside longer phrases.
"""

from __future__ import annotations

# fmt: off

RESEARCH = (
    "research", "compare", "comparison", "summarize", "summarise", "summary", "analyze", "analyse",
    "analysis", "explain", "find out", "look up", "investigate", "overview", "pros and cons", "review",
    "reviews", "recommend", "recommendation", "which is better", "what is", "what are", "what's", "why",
    "how does", "how do", "how much", "how many", "sources", "citations", "cite", "evaluate", "assess",
    "learn about", "tell me about", "best", "vs", "versus", "difference", "latest news", "news about",
    "trends", "report on", "search for", "search the web", "find", "search", "look for", "should i",
    "worth it", "worth buying", "how to", "how can i", "how do i", "nghiên cứu", "tìm hiểu", "so sánh",
    "tổng hợp", "phân tích", "giải thích", "tìm kiếm", "tra cứu", "đánh giá", "là gì", "tốt nhất",
    "nào tốt", "tại sao", "vì sao", "có nguồn", "trích dẫn", "đề xuất", "gợi ý", "tư vấn", "bao nhiêu",
    "như thế nào", "thế nào", "tóm tắt", "khác nhau", "tin tức", "xu hướng", "mô tả", "phù hợp nhất",
    "ưu nhược điểm", "tìm thông tin", "tìm", "phù hợp", "nên mua", "có nên", "cách", "làm sao",
    "làm thế nào", "hướng dẫn",
)

#: A question about how to do something asks for research, not for the doing (mode A with a guide).
HOWTO = (
    "how to", "how do i", "how can i", "how should i", "cách", "làm sao", "làm thế nào", "hướng dẫn",
)

#: Phrases blanked before looking for action verbs: the verb inside them is not an action.
NOT_ACTION = (
    "open source", "open-source", "in order to", "order of", "type of", "types of", "blog post", "a book",
    "the book", "books", "how to", "how do i", "how can i", "how should i", "should i buy",
    "worth buying", "to buy?", "gửi tiết kiệm", "nên mua", "có nên mua", "cách đăng ký", "cách mở",
    "làm sao để", "làm thế nào để", "hướng dẫn", "post-", "mua gì", "open questions", "open problems",
    "nhập khẩu", "nhập môn", "thu nhập", "ngôn ngữ lập trình", "open ai", "openai",
    "order history", "order status", "order number", "data set", "set of", "a set",
    "bảng điều khiển thanh toán", "lịch sử thanh toán", "vay mua",
)

ACTION = (
    "open", "go to", "navigate", "visit", "fill", "fill in", "fill out", "prefill", "pre-fill", "type",
    "enter", "click", "press", "submit", "send", "book", "order", "buy", "purchase", "sign up", "signup",
    "register", "log in", "login", "sign in", "log into", "download", "upload", "tick", "check the box",
    "add to cart", "to the cart", "to cart", "to my cart", "star the", "checkout", "check out", "delete",
    "remove", "unsubscribe", "subscribe", "apply for", "post", "reply to", "pay", "cancel my", "book a",
    "mở", "truy cập", "vào trang", "vào link", "vào web", "vào website", "vào site", "vào mục",
    "vào tài khoản", "điền", "điền sẵn", "nhập", "bấm", "nhấn", "nhấp", "click vào", "gửi", "đặt vé",
    "đặt phòng", "đặt hàng", "đặt mua", "đặt lịch", "đăng ký", "đăng kí", "đăng nhập", "tải về",
    "tải xuống", "tải lên", "mua", "thanh toán", "xóa", "xoá", "hủy", "huỷ", "điền form", "đăng bài",
    "trả lời email", "thêm vào giỏ", "vào giỏ", "tải hóa đơn", "tải báo cáo", "tải tệp", "tải file",
)

#: Verbs that only take the person somewhere: navigation in order to read, not a change (mode A
#: when reading follows; part of an action only when it follows research: "then open the booking page").
NAVIGATE = (
    "open", "go to", "navigate", "visit", "head to", "browse to", "mở", "truy cập", "vào trang",
    "vào link", "vào web", "vào website", "vào site", "vào mục", "vào tài khoản",
)

#: Verbs that change something on a page (or its owner's data): the action part of B, C and D.
CHANGE = (
    *(a for a in ACTION if a not in NAVIGATE),
    "sign me up", "sign us up", "subscribe me", "enroll", "enrol", "reserve", "start a trial",
    "start a free trial", "start the trial", "vote", "set", "select", "change my", "change the",
    "switch to", "turn on", "turn off", "enable", "disable", "upgrade", "downgrade", "add", "put",
    "đặt bàn", "đặt tour", "đăng ký cho tôi", "đổi tên", "đổi mật khẩu", "đổi sang", "thay đổi",
    "bật chế độ", "tắt chế độ", "bật thông báo", "tắt thông báo", "bật tính năng", "tắt tính năng",
    "nâng cấp", "hạ cấp",
)

#: Reading and asking, beyond the research verbs: what the person wants to know or see.
READING = (
    "tell me", "give me", "show me", "list", "read", "key points", "takeaways", "check which",
    "check whether", "check if", "check what", "check how", "see which", "see whether", "figure out",
    "work out", "pick", "choose", "decide", "what", "which", "who", "whose", "when", "where", "how",
    "is there", "are there", "cho tôi biết", "cho mình biết", "ý chính", "đọc", "kinh nghiệm", "ai là",
    "khi nào", "ở đâu", "nào", "gì", "có những", "liệt kê", "kiểm tra xem", "có đủ", "có hỗ trợ",
)

#: Nouns for state only the person's own account shows ("my latest invoice"), English, one word each.
STATE_NOUNS_EN = (
    "account", "plan", "subscription", "settings", "setting", "billing", "bill", "invoice", "charges",
    "charge", "dashboard", "usage", "profile", "policy", "policies", "order", "orders", "inbox", "cart",
    "statement", "storage", "seats", "add-ons", "notifications", "privacy", "security", "membership",
    "balance", "quota", "limits", "tier", "package", "fees", "devices", "sessions", "history",
)

#: The same in Vietnamese, folded (no diacritics), matched before "của tôi" / "của mình".
STATE_NOUNS_VI = (
    "tai khoan", "goi", "goi cuoc", "cai dat", "hoa don", "don hang", "ho so", "gio hang", "hop thu",
    "bang dieu khien", "chinh sach", "thong bao", "phi", "khoan phi", "lich su", "dung luong", "so du",
)

#: Reading state that only exists behind the UI (narrowed to the person's own state).
STATE_FIRST = (
    "my account", "my plan", "my subscription", "my settings", "my profile", "my dashboard", "my orders",
    "my order", "my billing", "my inbox", "am i using", "am i on", "am i subscribed",
    "i'm using", "i am using", "currently using", "currently subscribed", "current plan",
    "current subscription", "which plan i", "what plan i", "đang dùng", "đang sử dụng", "đang bật",
    "đang đăng ký", "tài khoản của tôi", "tài khoản của mình", "gói hiện tại", "gói của tôi",
    "gói của mình", "cài đặt của tôi", "đơn hàng của tôi", "hồ sơ của tôi", "giỏ hàng của tôi",
    "hộp thư của tôi",
)

#: "Just do it": the person says research is not wanted (mode B).
NO_RESEARCH = (
    "just do it", "no research", "no need to research", "don't research", "without research", "làm luôn",
    "không cần tìm hiểu", "không cần nghiên cứu", "khỏi tìm hiểu", "làm ngay",
)

NO_SUBMIT = (
    "don't submit", "do not submit", "dont submit", "without submitting", "no submit", "don't send",
    "do not send", "dont send", "without sending", "don't press submit", "not submit", "not send",
    "stop before submit", "stop before submitting", "đừng submit", "không submit", "chưa submit",
    "đừng gửi", "không gửi", "chưa gửi", "đừng bấm gửi", "đừng nhấn gửi", "không bấm gửi",
    "không nhấn gửi", "dừng trước khi gửi", "dừng trước submit", "đừng bấm submit", "không được submit",
    "không được gửi",
)

CITATIONS = (
    "sources", "source", "citations", "cite", "references", "có nguồn", "nguồn", "trích dẫn",
)

SUBMIT_WORDS = (
    "submit", "send it", "send the", "and send", "gửi đi", "bấm gửi", "nhấn gửi", "gửi form", "book it",
    "book a", "book the", "reserve", "sign up for", "sign up with", "register with", "register for",
    "register me", "đặt phòng", "đặt vé", "đặt bàn", "đặt lịch", "đăng ký dùng thử", "đăng ký tài khoản",
    "đăng ký cho tôi",
)

LOGIN_VERBS = (
    "log in", "login", "sign in", "log into", "log on", "đăng nhập",
)

LOGIN_WORDS = (
    "log in", "login", "sign in", "log into", "đăng nhập", "password", "mật khẩu",
)

PAYMENT_WORDS = (
    "pay", "payment", "checkout", "check out", "credit card", "card number", "buy", "purchase", "order",
    "thanh toán", "mua", "đặt hàng", "đặt mua", "thẻ tín dụng", "số thẻ", "chuyển khoản", "chuyển tiền",
    "transfer money",
)

DELETE_WORDS = (
    "delete", "remove", "erase", "cancel my", "unsubscribe", "close my account", "xóa", "xoá", "hủy",
    "huỷ",
)

SEND_WORDS = (
    "send", "email to", "reply to", "post", "gửi", "đăng bài", "trả lời email",
)

DOWNLOAD_WORDS = (
    "download", "tải về", "tải xuống", "tải hóa đơn", "tải báo cáo", "tải tệp", "tải file",
)

FORM_WORDS = (
    "form", "fill", "prefill", "điền", "nhập", "biểu mẫu", "sign up", "signup", "register", "đăng ký",
)

PII_WORDS = (
    "passport", "ssn", "social security", "date of birth", "birthday", "id number", "cmnd", "cccd",
    "căn cước", "hộ chiếu", "ngày sinh", "address", "địa chỉ", "phone", "số điện thoại",
)

DATA_WORDS = (
    "price", "prices", "pricing", "table", "package", "packages", "plan", "plans", "tier", "cost", "fee",
    "data", "statistics", "numbers", "limit", "limits", "quota", "quotas",
    "giá", "bảng giá", "bảng", "gói", "chi phí", "phí", "số liệu",
    "dữ liệu", "thống kê",
)

COMPARE_WORDS = (
    "compare", "comparison", "vs", "versus", "which is better", "so sánh", "nào tốt", "khác nhau",
)

NEWS_WORDS = (
    "news", "latest", "recent", "today", "this week", "tin tức", "mới nhất", "gần đây", "hôm nay",
)

THIS_PAGE = (
    "this page", "this article", "this site", "this tab", "current page", "the page i'm on", "trang này",
    "bài này", "bài viết này", "tab này", "trang hiện tại",
)
# fmt: on
