"""Context and understanding: entities, constraints, payload, risk flags, and secrets held apart."""

from __future__ import annotations

import pytest

from planner.context import build_context, detect_language
from planner.models import Intent, RiskFlag
from planner.secrets import extract_secrets, luhn_ok, redact
from planner.understand import understand


def test_context_pack_from_tab_and_files() -> None:
    ctx = build_context(
        "tóm tắt trang này", url="https://a.vn/x", title="X", selection=" chọn ", files=["/tmp/report.pdf"]
    )
    assert ctx.active_tab.url == "https://a.vn/x" and ctx.active_tab.selection_text == "chọn"
    assert ctx.attached_files[0].name == "report.pdf"
    assert ctx.attached_files[0].mime_type == "application/pdf"
    assert ctx.locale == "vi"


@pytest.mark.parametrize(
    ("task", "lang"),
    [
        ("So sánh giá vàng", "vi"),
        ("so sanh gia vang cho toi va ban", "vi"),
        ("Compare gold prices", "en"),
        ("Search the library for audiobooks by Tô Hoài", "en"),
        ("Tìm sách của Tô Hoài trên thư viện", "vi"),
        ("Book a table at Bếp Nhà for Nguyễn Văn An", "en"),
        ("Đặt Bàn Cho Tôi", "vi"),
    ],
)
def test_language(task: str, lang: str) -> None:
    assert detect_language(task) == lang


@pytest.mark.parametrize(
    "task",
    [
        "Open x.com/form and fill it, don't submit",
        "Open x.com/form and fill it but do not send it",
        "Mở x.vn/form điền sẵn, đừng submit",
        "Mở x.vn/form điền sẵn nhưng không gửi",
        "mo x.vn/form dien san, dung gui",
        "Mở x.vn/form điền sẵn, chưa gửi nhé",
    ],
)
def test_no_submit_phrasings(task: str) -> None:
    assert understand(task).spec.constraints.no_submit


def test_submit_request_is_not_no_submit() -> None:
    assert not understand("Open x.com/form, fill it and submit").spec.constraints.no_submit


@pytest.mark.parametrize(
    ("task", "payload"),
    [
        (
            "Open x.com/f and fill the form with name Alice, email a@b.co and company Acme",
            {"name": "Alice", "email": "a@b.co", "company": "Acme"},
        ),
        (
            "Mở x.vn/f và điền tên Nguyễn Văn An, email an@x.vn, công ty ABC Corp (đừng submit)",
            {"name": "Nguyễn Văn An", "email": "an@x.vn", "company": "ABC Corp"},
        ),
        (
            "Dien form x.vn/f voi ten Tran Binh, sdt 0901234567 va cong ty FinAI",
            {"name": "Tran Binh", "phone": "0901234567", "company": "FinAI"},
        ),
        (
            'Open x.com/f and fill: name = "Bob Smith"; email: bob@x.com; message: Hello there.',
            {"name": "Bob Smith", "email": "bob@x.com", "message": "Hello there"},
        ),
        ("Research company Acme then open acme.com/signup", {}),
    ],
)
def test_payload(task: str, payload: dict[str, str]) -> None:
    assert understand(task).spec.payload == payload


def test_research_only_task_has_no_payload() -> None:
    assert understand("Compare company Acme and company Initech with sources").spec.payload == {}


def test_entities_budget_and_deadline() -> None:
    spec = understand("Find a laptop under $1,200 and compare Dell XPS vs MacBook Air by Friday").spec
    kinds = {(e.kind, e.value) for e in spec.entities}
    assert ("budget", "$1,200") in kinds
    assert ("product", "Dell XPS") in kinds and ("product", "MacBook Air") in kinds
    assert spec.constraints.max_price == 1200.0
    assert spec.constraints.deadline == "by Friday"


def test_vietnamese_amounts_and_dates() -> None:
    spec = understand("Tìm vé máy bay dưới 5 triệu trước 20/12").spec
    assert spec.constraints.max_price == 5_000_000
    assert spec.constraints.deadline == "20/12"
    assert spec.domain_hint == "travel"


def test_urls_emails_phones() -> None:
    spec = understand("open github.com/foo and email a@b.co, phone 0901 234 567").spec
    kinds = {(e.kind, e.value) for e in spec.entities}
    assert {("url", "https://github.com/foo"), ("email", "a@b.co"), ("phone", "0901 234 567")} <= kinds


def test_intent_and_risks() -> None:
    spec = understand("Log in to x.com with password hunter2 and pay the invoice").spec
    assert spec.intent is Intent.ACTION
    assert {RiskFlag.LOGIN, RiskFlag.PAYMENT, RiskFlag.IRREVERSIBLE, RiskFlag.PII} <= set(spec.risk_flags)
    research = understand("What is the best way to pay off a loan?").spec
    assert research.intent is Intent.RESEARCH and research.risk_flags == []


@pytest.mark.parametrize(
    ("task", "name", "value"),
    [
        ("Log in with username bob and password hunter2, then download", "password", "hunter2"),
        ('đăng nhập mật khẩu là "abc 123" rồi tải hóa đơn', "password", "abc 123"),
        ("mat khau: Xy9!z rồi tải", "password", "Xy9!z"),
        ("use api key sk-abcdefghijklmnop1234 to call it", "api_key", "sk-abcdefghijklmnop1234"),
        ("token is ghp_aaaaaaaaaaaaaaaaaaaa", "token", "ghp_aaaaaaaaaaaaaaaaaaaa"),
        ("pay with card 4111 1111 1111 1111 on x.com", "card_number", "4111111111111111"),
    ],
)
def test_secrets_become_placeholders(task: str, name: str, value: str) -> None:
    u = understand(task)
    assert u.secrets[name].get_secret_value() == value
    dumped = u.spec.model_dump_json()
    assert value not in dumped and "{{secret:" + name + "}}" in dumped
    assert value not in repr(u) and value not in str(u.secrets)
    assert any(ref.name == name for ref in u.spec.secrets)


@pytest.mark.parametrize(
    "task", ["open the password reset page", "pass the test", "the token expired", "call 0901234567"]
)
def test_not_secrets(task: str) -> None:
    assert extract_secrets(task).refs == []


def test_card_needs_luhn() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert extract_secrets("order 4111 1111 1111 1112").refs == []


def test_same_secret_twice_is_one_ref_and_redact_catches_leaks() -> None:
    scan = extract_secrets("password hunter2 and again pwd=hunter2")
    assert [r.name for r in scan.refs] == ["password"]
    assert redact("model echoed hunter2", scan.values) == "model echoed {{secret:password}}"


def test_addresses_keep_commas_and_names_are_not_products() -> None:
    spec = understand(
        "Please prefill the quote request at https://ins.example.com/quote: full name: Tran Van B; "
        "phone: +84 912 345 678; address: 12 Ly Thuong Kiet, Ha Noi"
    ).spec
    assert spec.payload == {
        "name": "Tran Van B",
        "phone": "+84 912 345 678",
        "address": "12 Ly Thuong Kiet, Ha Noi",
    }
    assert not [e for e in spec.entities if e.kind == "product"]
    assert ("name", "Tran Van B") in {(e.kind, e.value) for e in spec.entities}


def test_short_names_and_model_numbers() -> None:
    vi = understand(
        "dang ky tai khoan o example.vn voi email an@x.vn, mat khau: abc12345, ten An, khong gui"
    ).spec
    assert vi.payload == {"email": "an@x.vn", "password": "{{secret:password}}", "name": "An"}
    assert vi.constraints.no_submit
    en = understand("Compare iPhone 16 Pro and Galaxy S24 Ultra cameras, with sources, by next Friday").spec
    assert {e.value for e in en.entities if e.kind == "product"} == {"iPhone 16 Pro", "Galaxy S24 Ultra"}
    assert en.constraints.deadline == "next Friday"
