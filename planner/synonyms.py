"""Other words for the same control or option: Vietnamese for what an English page shows ("lưu" is
"save"), options people name differently ("cash on delivery" is "Pay on delivery"), and the words in
parentheses a person adds ("email tóm tắt hàng tuần (Weekly digest)")."""

from __future__ import annotations

import re

#: Vietnamese words for controls and choices, with the English a page shows for them.
_GLOSS = {
    "lưu": "save", "lưu lại": "save", "gửi": "send", "gửi đi": "send", "xác nhận": "confirm",
    "tiếp tục": "continue",
    "đăng ký": "sign up", "đăng nhập": "sign in", "tìm": "search", "tìm kiếm": "search", "xóa": "delete",
    "xoá": "delete", "hủy": "cancel", "huỷ": "cancel", "thanh toán": "checkout", "đặt hàng": "place order",
    "thêm vào giỏ": "add to cart", "giỏ hàng": "cart", "tiêu chuẩn": "standard", "nhanh": "express",
    "trả lời": "reply", "đóng": "close", "mở": "open", "tiếp": "next", "quay lại": "back", "áp dụng": "apply",
}  # fmt: skip


#: Options people name differently from the page ("cash on delivery" is "Pay on delivery").
_SAME_OPTION = (
    ("cash on delivery", "pay on delivery", "cod", "cash"), ("card", "credit card", "debit card"),
    ("bank transfer", "transfer", "wire"), ("standard", "normal", "regular"), ("express", "next day", "fast"),
)  # fmt: skip


def alternatives(wanted: str) -> list[str]:
    """The person's words, their English when they are Vietnamese for a control, and the words in
    parentheses ("email tóm tắt hàng tuần (Weekly digest)" -> "Weekly digest")."""
    out = [wanted]
    inner = re.findall(r"\(([^)]+)\)", wanted)
    out += inner
    if inner:
        out.append(re.sub(r"\s*\([^)]*\)", "", wanted))
    said = " ".join(wanted.lower().split())
    gloss = _GLOSS.get(said)
    if gloss:
        out.append(gloss)
    out += [o for group in _SAME_OPTION if said in group for o in group if o != said]
    return out
