"""The demo walkthroughs (flow C and modes A, B, D) whose plans are kept as golden files."""

from __future__ import annotations

from typing import NamedTuple


class Golden(NamedTuple):
    name: str
    task: str
    url: str | None


GOLDEN: list[Golden] = [
    Golden(
        "s3c_datafeed",
        "Nghiên cứu gói datafeed Vietstock phù hợp cho FinAI rồi mở trang đăng ký điền sẵn form "
        "(đừng submit).",
        "https://dichvu.vietstock.vn/du-lieu-tai-chinh/datafeed---du-lieu-tai-chinh-tich-hop-chuyen-nghiep",
    ),
    Golden(
        "mode_a_compare",
        "So sánh các gói datafeed của Vietstock và giải thích nên chọn gói nào, có nguồn.",
        None,
    ),
    Golden(
        "mode_b_prefill",
        "Vào link https://dichvu.vietstock.vn/dang-ky điền form với tên công ty FinAI, email "
        "contact@finai.vn, đừng submit.",
        None,
    ),
    Golden(
        "mode_d_current_plan",
        "Xem tài khoản của tôi đang dùng gói gì rồi so sánh với các gói khác.",
        "https://dichvu.vietstock.vn/tai-khoan",
    ),
]
