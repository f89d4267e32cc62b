"""The routing table: task phrasings (Vietnamese with and without diacritics, English) and their mode.

Shared by tests/unit/planner/test_routing.py and benchmarks/planner_latency.py.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    task: str
    mode: str
    url: str | None = None


TAB = "https://shop.example.com/account"

CASES: list[Case] = [
    # --- A: research only ---------------------------------------------------------------------
    Case("Compare the pricing of Notion and Obsidian with sources", "A"),
    Case("What is the difference between TCP and UDP?", "A"),
    Case("Summarize the latest news about the Fed interest rate decision", "A"),
    Case("Research the best budget laptops under $800 in 2025", "A"),
    Case("Explain how vector databases work, with citations", "A"),
    Case("Which is better for a small team: Slack or Microsoft Teams?", "A"),
    Case("Find out what the Vietstock datafeed packages include", "A"),
    Case("Give me an overview of the EU AI Act and its deadlines", "A"),
    Case("Summarize this page", "A", "https://blog.example.com/post/42"),
    Case("What are the pros and cons of index funds?", "A"),
    Case("How much does a Tesla Model 3 cost in Germany?", "A"),
    Case("How to register a company in Vietnam?", "A"),
    Case("Look up reviews of the Sony WH-1000XM5 headphones", "A"),
    Case("Analyze the revenue trends of FPT over the last 5 years", "A"),
    Case("Should I buy a MacBook Air or a Dell XPS for programming?", "A"),
    Case("Is open source software safe for banks? Give sources", "A"),
    Case("So sánh gói cước 4G của Viettel và Vinaphone", "A"),
    Case("Tổng hợp tin tức mới nhất về thị trường chứng khoán hôm nay", "A"),
    Case("Nghiên cứu các gói datafeed của Vietstock, có nguồn", "A"),
    Case("Giải thích lạm phát là gì", "A"),
    Case("Tìm hiểu lãi suất gửi tiết kiệm ngân hàng nào cao nhất", "A"),
    Case("Phân tích ưu nhược điểm của xe điện VinFast", "A"),
    Case("Tóm tắt bài viết này giúp tôi", "A", "https://vnexpress.net/bai-viet-123"),
    Case("Có nên mua iPhone 16 không?", "A"),
    Case("so sanh gia vang SJC va PNJ hom nay", "A"),
    Case("tim hieu cach dang ky kinh doanh online", "A"),
    Case("giai thich blockchain la gi", "A"),
    Case("Đánh giá khóa học Python nào tốt nhất cho người mới", "A"),
    Case("Mô tả quy trình xin visa Nhật Bản", "A"),
    Case("Tra cứu tỷ giá USD/VND hôm nay", "A"),
    # --- B: action only -----------------------------------------------------------------------
    Case(
        "Open https://forms.example.com/contact and fill the form with name Alice, email a@b.co "
        "and company Acme, don't submit",
        "B",
    ),
    Case("Go to example.com/signup and sign up with email bob@example.com", "B"),
    Case("Fill in the contact form on this page with my name Bob and phone 0901234567", "B", TAB),
    Case("Click the 'Download report' button on this page", "B", TAB),
    Case("Log in to portal.example.com with username bob and password hunter2 and download the invoice", "B"),
    Case("Download the PDF from https://example.com/report", "B"),
    Case("Open github.com/waypost/waypost and star the repository", "B"),
    Case("Add the blue T-shirt to the cart on shop.example.com", "B"),
    Case("Book a table for two at https://resto.example.com tomorrow at 7pm, just do it", "B"),
    Case("Submit the feedback form on this page with message: Great service", "B", TAB),
    Case("Delete the draft post at https://blog.example.com/admin/drafts/7", "B"),
    Case("Send an email to ceo@example.com via https://mail.example.com saying the report is ready", "B"),
    Case(
        "Mở trang https://dangky.example.vn và điền tên Nguyễn Văn An, email an@example.vn, đừng submit", "B"
    ),
    Case("Vào trang example.vn/lien-he điền form với tên Lan, số điện thoại 0912345678", "B"),
    Case("Đăng nhập vào portal.example.vn bằng tên đăng nhập lan và mật khẩu: Abc@123 rồi tải hóa đơn", "B"),
    Case("Điền form trên trang này với công ty FinAI, email sales@finai.vn (không gửi)", "B", TAB),
    Case("Bấm nút Đăng ký trên trang này", "B", TAB),
    Case("mo trang example.vn/dang-ky va dien ten Minh, email minh@example.vn", "B"),
    Case("dien form o trang nay voi ten Hoa, cong ty ABC, dung submit", "B", TAB),
    Case("Tải về báo cáo PDF từ https://example.vn/bao-cao.pdf", "B"),
    Case("Thêm vào giỏ tai nghe Sony trên shop.example.vn, làm luôn không cần tìm hiểu", "B"),
    Case("Xóa bài nháp tại https://blog.example.vn/admin/7", "B"),
    # --- C: research then action -------------------------------------------------------------
    Case(
        "Nghiên cứu gói datafeed Vietstock phù hợp cho FinAI rồi mở trang đăng ký điền sẵn form "
        "(đừng submit).",
        "C",
        "https://dichvu.vietstock.vn/du-lieu-tai-chinh/datafeed",
    ),
    Case("Research the cheapest flight from Hanoi to Tokyo next week and open the booking page", "C"),
    Case(
        "Compare the Pro and Team plans of Linear, then fill the signup form with the best one for "
        "a 5-person team, email ops@acme.io, don't submit",
        "C",
    ),
    Case("Find the best-rated hotel near Hoan Kiem lake under $100 and book it", "C"),
    Case("Look up the official visa form for Japan and prefill it with name Tran Binh", "C"),
    Case(
        "Research which VPS provider is cheapest, then go to its signup page and register with email "
        "dev@acme.io",
        "C",
    ),
    Case("Find a good Python course and sign up for it on this page", "C", TAB),
    Case("Tìm hiểu gói cước internet FPT phù hợp cho văn phòng rồi điền form đăng ký, không gửi", "C"),
    Case("So sánh các gói bảo hiểm xe máy rồi mở trang mua gói rẻ nhất", "C"),
    Case("Tìm khách sạn gần biển Đà Nẵng dưới 1 triệu rồi đặt phòng", "C"),
    Case(
        "Nghiên cứu phần mềm kế toán phù hợp cho công ty nhỏ rồi đăng ký dùng thử với email ketoan@abc.vn",
        "C",
    ),
    Case("nghien cuu goi datafeed vietstock roi mo trang dang ky dien san form, dung submit", "C"),
    Case("tim ve may bay re nhat di Da Lat roi dat ve", "C"),
    Case("Đánh giá các khóa học tiếng Anh online rồi điền form tư vấn với tên Mai, sđt 0987654321", "C"),
    # --- D: action then research (state first) ------------------------------------------------
    Case("Which plan am I using on my vercel.com account and what does it include?", "D"),
    Case("Check my subscription on this page and explain whether a cheaper plan fits", "D", TAB),
    Case("Open my account at https://cloud.example.com and compare my current plan with the others", "D"),
    Case("Look at my orders on shop.example.com and summarize what I spent this month", "D"),
    Case("What settings am I currently using in my dashboard here? Explain each one", "D", TAB),
    Case("Xem tài khoản của tôi trên trang này đang dùng gói nào và so sánh với gói khác", "D", TAB),
    Case("Kiểm tra gói hiện tại của tôi ở https://cloud.example.vn rồi giải thích các giới hạn", "D"),
    Case("Vào tài khoản của tôi ở shop.example.vn xem đơn hàng của tôi và tổng hợp chi tiêu", "D"),
    Case("toi dang dung goi nao tren trang nay, giai thich giup", "D", TAB),
    Case("Mở trang https://bank.example.vn xem tài khoản của tôi đang dùng gói gì", "D"),
    # --- CLARIFY: no intent, or an action with nowhere to act -----------------------------------
    Case("hello", "CLARIFY"),
    Case("Acme Corp", "CLARIFY"),
    Case("thanks!", "CLARIFY"),
    Case("xin chào", "CLARIFY"),
    Case("cái này", "CLARIFY"),
    Case("ok", "CLARIFY"),
    Case("Fill the form with name Alice and email a@b.co", "CLARIFY"),
    Case("Log in and download my invoice", "CLARIFY"),
    Case("Pay the electricity bill", "CLARIFY"),
    Case("Điền form với tên Lan và email lan@example.vn", "CLARIFY"),
    Case("Đăng nhập rồi thanh toán hóa đơn điện", "CLARIFY"),
    Case("Check which plan I am using and explain it", "CLARIFY"),
    Case("Xóa tài khoản của tôi", "CLARIFY"),
    Case("tuesday 3pm", "CLARIFY"),
]
