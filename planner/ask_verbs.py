"""The verbs a clause opens with and the reader each one calls (planner/ask_reader.py), English and
Vietnamese; typed with diacritics, a Vietnamese verb is matched with them ("mô tả" is not "mở")."""

from __future__ import annotations

import re

from common.lazy import lazy_pattern
from planner._text import fold, has_vietnamese_marks, strip_quotes
from planner.ask_commerce import adding, buying, searching, sorting, trip_fields
from planner.ask_forms import advancing, creating, filling, renaming, saving, saying, setting, submitting
from planner.ask_words import HERE, URL, Reader, cut_where, fact_kind, noun_phrase
from planner.asks import (
    AnswerAsk,
    Ask,
    ChooseAsk,
    DownloadAsk,
    FillAsk,
    OpenAsk,
    PressAsk,
    SubmitAsk,
    ToggleAsk,
)

#: A fill verb inside what is opened: Vietnamese runs "open X fill Y" together without a comma.
_EMBEDDED_FILL = lazy_pattern(r"(?i)(?<=\w)\s+(?P<verb>điền sẵn|điền|nhập|prefill|fill in|fill)\s+")


def _opening(verb: str, rest: str) -> list[Ask] | None:
    after = re.match(r"(?i)^\s*URL\s+(?P<more>\S.*)$", rest)
    if after is not None and verb_of(after.group("more")) is not None:
        more = verb_of(after.group("more"))
        assert more is not None
        return more[1](more[0], more[2])  # "vào URL mua ...": the page, then what to do there
    if (
        URL.search(rest)
        or re.search(r"\bURL\b", rest)
        or not rest.strip()
        or HERE.fullmatch(rest.strip(" ."))
    ):
        return []  # opening the page the task names: where the step starts, not an ask
    embedded = _EMBEDDED_FILL.search(rest)
    if embedded is not None:  # "mở trang đăng ký điền sẵn form": the page, then what to do on it
        then = filling(embedded.group("verb"), rest[embedded.end() :])
        opened = _opening(verb, rest[: embedded.start()])
        return None if then is None or opened is None else [*opened, *then]
    obj, where = cut_where(rest)
    obj = noun_phrase(obj)
    if re.fullmatch(r"(?i)(?:the\s+)?next(?:\s+(?:step|page|screen))?|bước tiếp(?: theo)?", obj):
        return [PressAsk(what="next")]
    if not obj:
        return None
    return [OpenAsk(what=obj, where=where)]


def _toggling(on: bool) -> Reader:
    def read(verb: str, rest: str) -> list[Ask] | None:
        obj, where = cut_where(rest)
        obj = re.sub(r"(?i)\s+(?:box|checkbox|check box|switch|toggle|setting|option)$", "", noun_phrase(obj))
        obj = re.sub(r"(?i)^(?:the\s+)?(?:box|checkbox)\s+(?:for|of)\s+", "", obj)
        # "product updates and the mentions emails": two switches; "terms and conditions" is one
        names = [noun_phrase(n) for n in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+(?=the\s|my\s)", obj)]
        return [ToggleAsk(what=n, on=on, where=where) for n in names if n] or None

    return read


def _choosing(verb: str, rest: str) -> list[Ask] | None:
    obj, where = cut_where(rest)
    as_ = re.match(r"(?i)(?P<opt>.+?)\s+(?:as|for)\s+(?:the\s+|my\s+|your\s+)?(?P<among>.+)$", obj)
    if as_:
        return [
            ChooseAsk(
                option=noun_phrase(as_.group("opt")), among=noun_phrase(as_.group("among")), where=where
            )
        ]
    plan = re.fullmatch(
        r"(?i)(?:the\s+)?(?P<opt>.+?)\s+(?P<among>plan|tier|package|option|size|colou?r|class|day|date)", obj
    )
    if plan:
        return [ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower(), where=where)]
    obj = noun_phrase(obj)
    return [ChooseAsk(option=obj, where=where)] if obj else None


def _pressing(verb: str, rest: str) -> list[Ask] | None:
    obj, where = cut_where(rest)
    obj = noun_phrase(obj)
    return [PressAsk(what=obj, where=where)] if obj else None


def _on_item(verb: str, rest: str) -> list[Ask] | None:
    """ "archive the ShopCo newsletter", "star the message about the invoice": a control that acts on
    one item (in its row, or once the item is open)."""
    item = noun_phrase(re.sub(r"(?i)\s+as\s+(?:read|unread|spam|important)$", "", rest))
    return [PressAsk(what=verb, item=item)] if item else None


def _replying(verb: str, rest: str) -> list[Ask] | None:
    m = re.match(
        r"(?i)(?:to\s+)?(?P<who>.+?)\s*(?:,\s*)?(?:saying|with|:|that says|writing)\s+(?P<msg>.+)$",
        rest.strip(),
    )
    if m is None:
        who = noun_phrase(re.sub(r"(?i)^to\s+", "", rest.strip()))
        return [OpenAsk(what=who), PressAsk(what="reply")] if who else None
    who = noun_phrase(m.group("who"))
    return [OpenAsk(what=who), PressAsk(what="reply"),
            FillAsk(field="message", value=strip_quotes(m.group("msg").strip().rstrip("."))),
            SubmitAsk(purpose="reply")]  # fmt: skip


def _asking(verb: str, rest: str) -> list[Ask] | None:
    """ "compare the plans ...", "summarize this page", "recommend one": a question to answer."""
    question = f"{verb} {rest}".strip().rstrip(".")
    return [AnswerAsk(question=question, expects=fact_kind(question))]


def composes(question: str) -> bool:
    """ "Compare the plans", "summarize the page", "find a good course": a piece of writing from
    what was read (a comparison, a gist, a recommendation), not one fact a page states."""
    found = verb_of(question)
    return found is not None and found[1] in (_asking, _finding)


def _finding(verb: str, rest: str) -> list[Ask] | None:
    """ "Find flights Bangkok to Singapore on ...": a trip is searched for on the site; any other
    "find" is a question."""
    return searching(verb, rest) if trip_fields(rest) else _asking(verb, rest)


def _downloading(verb: str, rest: str) -> list[Ask] | None:
    return [DownloadAsk(what=noun_phrase(rest))]


def _closing(verb: str, rest: str) -> list[Ask] | None:
    m = re.search(r"(?i)\b(?:by\s+)?(?:accepting|choosing|picking|selecting|with)\s+(?P<what>.+)$", rest)
    if m:
        return [PressAsk(what=noun_phrase(m.group("what")), where=noun_phrase(rest[: m.start()]))]
    return [PressAsk(what="close", where=noun_phrase(rest))]


#: Verbs in the order they are tried (longest first within the table), each with its reader.
_VERBS: tuple[tuple[str, Reader], ...] = (
    ("go through", advancing), ("complete the", advancing), ("stop at", advancing),
    ("fill in", filling), ("fill out", filling), ("fill", filling), ("prefill", filling), ("pre-fill",
                                                                                           filling),
    ("enter", filling), ("type", filling), ("write", filling), ("put", filling), ("input", filling),
    ("provide", filling), ("điền", filling), ("nhập", filling), ("ghi", filling),
    ("set", setting), ("change", setting), ("update", setting), ("đổi", setting),
    ("rename", renaming), ("đổi tên", renaming),
    ("tick", _toggling(True)), ("check the", _toggling(True)), ("turn on", _toggling(True)),
    ("enable", _toggling(True)), ("switch on", _toggling(True)), ("opt in to", _toggling(True)),
    ("bật", _toggling(True)), ("đánh dấu", _toggling(True)),
    ("untick", _toggling(False)), ("uncheck", _toggling(False)), ("turn off", _toggling(False)),
    ("disable", _toggling(False)), ("switch off", _toggling(False)), ("opt out of", _toggling(False)),
    ("tắt", _toggling(False)), ("bỏ chọn", _toggling(False)), ("bỏ đánh dấu", _toggling(False)),
    ("choose", _choosing), ("select", _choosing), ("pick", _choosing), ("go with", _choosing), ("chọn",
                                                                                                _choosing),
    ("search", searching), ("look up", searching), ("tìm kiếm", searching), ("tìm", searching),
    ("sort", sorting), ("order the", sorting), ("sắp xếp", sorting),
    ("click on", _pressing), ("click", _pressing), ("press", _pressing), ("tap", _pressing), ("hit",
                                                                                              _pressing),
    ("bấm vào", _pressing), ("bấm", _pressing), ("nhấn", _pressing), ("nhấp", _pressing),
    ("add", adding), ("thêm", adding),
    ("reply", _replying), ("trả lời", _replying),
    ("close", _closing), ("dismiss", _closing), ("đóng", _closing),
    ("download", _downloading), ("tải về", _downloading), ("tải xuống", _downloading),
    ("create", creating), ("tạo", creating),
    ("log in", submitting("login")), ("login", submitting("login")), ("sign in", submitting("login")),
    ("log into", submitting("login")), ("đăng nhập", submitting("login")),
    ("sign up", submitting("signup")), ("register", submitting("signup")), ("đăng ký", submitting("signup")),
    ("sign me up", submitting("signup")), ("sign us up", submitting("signup")), ("register me",
                                                                                 submitting("signup")),
    ("đăng ký cho tôi", submitting("signup")), ("đăng ký giúp tôi", submitting("signup")),
    ("subscribe me", submitting("signup")), ("subscribe", submitting("signup")), ("đăng ký nhận",
                                                                                 submitting("signup")),
    ("say", saying), ("saying", saying), ("write back", saying), ("nói", saying), ("trả lời rằng", saying),
    ("buy", buying), ("purchase", buying), ("order", buying), ("mua", buying), ("đặt mua", buying),
    ("submit", submitting("send")), ("send", submitting("send")), ("gửi", submitting("send")),
    ("book", submitting("book")), ("reserve", submitting("book")), ("make a reservation", submitting("book")),
    ("đặt chỗ", submitting("book")), ("giữ chỗ", submitting("book")),
    ("place the order", submitting("order")), ("place order",
                                                                             submitting("order")),
    ("check out", submitting("order")), ("checkout", submitting("order")), ("đặt", submitting("book")),
    ("save", saving), ("confirm", saving), ("apply", saving), ("lưu", saving), ("xác nhận", saving),
    ("archive", _on_item), ("star", _on_item), ("unstar", _on_item), ("flag", _on_item), ("delete", _on_item),
    ("remove", _on_item), ("trash", _on_item), ("mark", _on_item), ("pin", _on_item), ("like", _on_item),
    ("xóa", _on_item), ("xoá", _on_item), ("lưu trữ", _on_item), ("gắn sao", _on_item),
    ("open", _opening), ("go to", _opening), ("navigate to", _opening), ("visit", _opening),
    ("switch to", _opening), ("head to", _opening), ("view", _opening), ("mở", _opening), ("vào", _opening),
    ("truy cập", _opening), ("chuyển sang", _opening), ("continue", saving), ("next", saving),
    ("tiếp tục", saving),
    ("compare", _asking), ("summarize", _asking), ("summarise", _asking), ("recommend", _asking),
    ("explain", _asking), ("find out", _asking), ("find", _finding), ("research", _asking), ("list", _asking),
    ("read", _asking), ("so sánh", _asking), ("tóm tắt", _asking), ("đề xuất", _asking), ("liệt kê", _asking),
    ("giải thích", _asking), ("tìm hiểu", _asking), ("nghiên cứu", _asking), ("đánh giá", _asking),
    ("tra cứu", _asking), ("evaluate", _asking), ("review", _asking), ("look into", _asking),
    ("mô tả", _asking), ("tìm thông tin", _asking),
)  # fmt: skip


_VERB_RE = lazy_pattern(
    r"^(?P<verb>"
    + "|".join(re.escape(fold(v)) for v, _ in sorted(_VERBS, key=lambda p: -len(p[0])))
    + r")(?![\w])",
)


_READER = {fold(v): r for v, r in _VERBS}


_READER_VERB = {fold(v): v for v, _ in _VERBS}


_ACCENTED = lazy_pattern(
    r"^(?P<verb>" + "|".join(re.escape(v) for v, _ in sorted(_VERBS, key=lambda p: -len(p[0]))) + r")(?![\w])"
)


_READER_ACCENTED = dict(_VERBS)


def verb_of(clause: str) -> tuple[str, Reader, str] | None:
    """(verb as written in the table, its reader, the rest of the clause) when a verb opens it.
    Vietnamese typed with its marks is matched with them ("mô tả" is not "mở")."""
    if has_vietnamese_marks(clause):
        m = _ACCENTED.match(clause.lower())
        if m is None or (
            not has_vietnamese_marks(m.group("verb")) and fold(m.group("verb")) != m.group("verb")
        ):
            m = m if m is not None else None
        if m is None:
            return None
        verb = m.group("verb")
        return verb, _READER_ACCENTED[verb], clause[m.end() :].strip()
    m = _VERB_RE.match(fold(clause.lower()))
    if m is None:
        return None
    key = m.group("verb")
    return _READER_VERB[key], _READER[key], clause[m.end() :].strip()
