"""Answering a question from a page's text without a model: the fact the question asks for, with
the line it stands on (docs/architecture.md, "What was asked").

The page's own words decide: a table answers "which is the cheapest", "how many notebooks are in
stock" and "the cheapest plan that allows 8 users and 50 GB" from its numbers; a "Label: value" line
answers a question about that label; otherwise the lines that share most words with the question
are searched for a fact of the kind asked for (a date for "when", an amount for "how much", an
address for "email address"). No fact of that kind means no answer: the caller says so, never
pastes the page instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from planner._text import fold
from planner.asks import FactKind

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|tháng\\s*\\d{1,2}"
)
_DATE = re.compile(
    rf"\b(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\.?(?:\s+\d{{4}})?|"
    rf"(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:,?\s+\d{1,2}\s+\w+)?|"
    r"ngày\s+\d{1,2}(?:/\d{1,2})?(?:/\d{4})?)\b",
    re.I,
)
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\b", re.I)
_MONEY = re.compile(
    r"(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:EUR|USD|GBP|VND|đ|₫|€|\$|dollars?|euros?)(?![\w])|"
    r"\d+[.,]\d{2}(?![\d]))",
    re.I,
)
_UNIT_WORDS = (
    "%|percent|metres|meters|metre|meter|m|km|kilometres|kilometers|miles|mi|cm|mm|kg|g|lb|lbs|tons|"
    "minutes|minute|mins|min|hours|hour|hrs|h|seconds|secs|s|days|day|weeks|week|months|month|years|year|"
    "gb|mb|tb|kb|users|user|people|seats|items|pieces|pcs|lanes|floors|storeys|stories|degrees|°c|°f|"
    "employees|staff|members|pages|calls|requests|projects|units|phút|giờ|ngày|năm|người|tháng"
)
_NUMBER = re.compile(rf"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s?(?:{_UNIT_WORDS})(?![\w]))?", re.I)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PERSON = re.compile(r"\b[A-Z][a-zà-ỹ'-]+(?:\s+[A-Z][a-zà-ỹ'-]+){1,3}\b")
_ASKING = re.compile(
    r"(?i)\b(?:tell|me|what|what's|whats|which|when|who|whom|whose|where|how|is|are|was|were|does|do|did|"
    r"the|a|an|of|on|in|at|to|for|shown|shows|show|listed|page|site|according|this|that|it|its|"
    r"please|take|takes|taking|place|happen|happens|there|cho|tôi|biết|là|gì|nào|bao|nhiêu|khi)\b"
)
_CHEAP = re.compile(r"(?i)\b(?:cheapest|least expensive|lowest price|lowest cost|rẻ nhất)\b")
_DEAR = re.compile(r"(?i)\b(?:most expensive|priciest|highest price|đắt nhất)\b")
_MOST = re.compile(
    r"(?i)\b(?:most|largest|biggest|highest|greatest|maximum|nhiều nhất|lớn nhất)\s+(?P<what>[\w ]+?)\b"
)
_LEAST = re.compile(r"(?i)\b(?:fewest|least|smallest|lowest|minimum|ít nhất|nhỏ nhất)\s+(?P<what>[\w ]+?)\b")
#: Units of a need ("a team of 8", "50 GB") and the column words that hold them.
_UNITS: dict[str, tuple[str, ...]] = {
    "users": ("user", "users", "people", "person", "persons", "seats", "seat", "members", "member", "team of",
              "người", "thành viên"),
    "gb": ("gb", "gigabytes", "storage"),
    "tb": ("tb", "terabytes"),
    "projects": ("projects", "project", "dự án"),
}  # fmt: skip
_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "fifty": 50}  # fmt: skip


@dataclass(frozen=True)
class Fact:
    """The answer (`value`), the page line it stands on, and whether the page could satisfy the
    question (False: a recommendation no row meets, an item the page does not list)."""

    value: str
    line: str
    kind: FactKind
    satisfied: bool = True
    because: str = ""


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def column(self, words: str) -> int | None:
        want = set(_words(words))
        best = (0.0, None)
        for i, name in enumerate(self.header):
            have = set(_words(name))
            if want & have:
                score = len(want & have) / len(want | have)
                if score > best[0]:
                    best = (score, i)
        return best[1]


def _words(text: str) -> list[str]:
    out = []
    for w in re.findall(r"[a-z0-9]+", fold(text.lower())):
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


#: Vietnamese words of a question with the English a page uses for them.
_GLOSS = (
    ("dung lượng", "storage"), ("thư chưa đọc", "unread"), ("chưa đọc", "unread"), ("hộp thư", "inbox"),
    ("giá", "price"), ("người dùng", "users"), ("còn hàng", "in stock"), ("tồn kho", "in stock"),
    ("hóa đơn", "invoice"), ("gói", "plan"), ("chuyến bay", "flight"), ("thẳng", "direct"),
    ("cất cánh", "departs"), ("hạ cánh", "arrives"), ("ngày gia hạn", "renewal date"), ("gia hạn", "renew"),
)  # fmt: skip


def topic(question: str) -> list[str]:
    """The question's own subject words ("team offsite", "notebooks in stock"); Vietnamese words
    also in the English a page shows for them."""
    text = question
    for vi, en in _GLOSS:
        if vi in text.lower():
            text = f"{text} {en}"
    return [w for w in _words(_ASKING.sub(" ", text)) if len(w) > 1]


def number(text: str) -> float | None:
    m = re.search(r"-?\d[\d,]*(?:\.\d+)?", text.replace("\u00a0", " "))
    if m is None:
        return None
    raw = m.group(0)
    if raw.count(",") == 1 and "." not in raw and len(raw.split(",")[1]) == 2:
        raw = raw.replace(",", ".")
    try:
        return float(raw.replace(",", ""))
    except ValueError:
        return None


def tables(text: str) -> list[Table]:
    """Blocks of tab-separated lines (a table's innerText) as tables; the first line is the header."""
    out: list[Table] = []
    current: Table | None = None
    for line in text.splitlines():
        if "\t" in line:
            cells = [c.strip() for c in line.split("\t")]
            if current is None:
                current = Table(header=cells)
                out.append(current)
            else:
                current.rows.append(cells)
        else:
            current = None
    return [t for t in out if t.rows]


def _lines(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.replace("\t", "  ").split())
        if not line:
            continue
        out.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line) if s.strip())
    return out


def _of_kind(kind: FactKind, line: str, question: str) -> str | None:
    if kind == "date":
        m = _DATE.search(line)
        return m.group(0) if m else None
    if kind == "time":
        m = _TIME.search(line)
        return m.group(0) if m else None
    if kind == "price":
        m = _MONEY.search(line)
        return m.group(0).strip() if m else None
    if kind == "email":
        m = _EMAIL.search(line)
        return m.group(0) if m else None
    if kind in ("count", "number"):
        asked = set(_words(question))
        for m in _NUMBER.finditer(line):
            if kind == "count" and not re.fullmatch(r"\d[\d,]*(?:\s?\D.*)?", m.group(0).strip()):
                continue  # "4.8" counts nothing
            if kind == "count" and re.match(r"\d+\.\d", m.group(0)):
                continue
            if not set(_words(m.group(0))) <= asked:
                return m.group(0).strip()
        return None
    if kind == "person":
        asked = set(_words(question))
        for m in _PERSON.finditer(line):
            if not set(_words(m.group(0))) & asked:
                return m.group(0)
        return None
    return None


#: Words that name the kind of fact, not what it is about ("the email address", "the price").
_GENERIC = frozenset(
    _words("email e-mail address date time price cost phone number amount day when contact url")
)


def _named_words(question: str) -> list[str]:
    """Words of the names the question gives (capitalised, past its first word): "Stoneware Mugs"."""
    names = re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*", question.strip())
    return [w for n in names for w in _words(n) if w not in _GENERIC]


def _score(line: str, words: Sequence[str]) -> float:
    have = set(_words(line))
    return sum(1.0 for w in set(words) if w in have) / (len(set(words)) or 1) if have else 0.0


def find_fact(question: str, kind: FactKind, text: str) -> Fact | None:
    """The fact `question` asks for on this page, or None when the page does not hold one."""
    for table in tables(text):
        found = table_fact(question, kind, table)
        if found is not None:
            return found
    words = topic(question)
    listed = _cheapest_listed(question, text)
    if listed is not None:
        return listed
    pairs = _labelled(text, words, kind, question)
    if pairs is not None:
        return pairs
    lines = _lines(text)
    if kind == "text" and _SUMMARY.search(question):
        line = summary_sentence(text)
        return Fact(value=line, line=line, kind=kind) if line else None
    if kind in ("text", "yes_no", "item"):
        ranked = sorted(
            ((_score(line, words), i) for i, line in enumerate(lines)), key=lambda p: (-p[0], p[1])
        )
        if ranked and ranked[0][0] >= (0.5 if len(words) > 1 else 1.0):
            line = lines[ranked[0][1]]
            return Fact(value=line, line=line, kind=kind)
        return None
    # A fact of the kind asked for, on the line that shares most words with the question; a line
    # sharing none is taken only when it is the page's one fact of that kind.
    typed = [(i, v) for i, line in enumerate(lines) if (v := _of_kind(kind, line, question))]
    if not typed:
        return None
    scored = sorted(((_score(lines[i], words), i, v) for i, v in typed), key=lambda p: (-p[0], p[1]))
    best, i, value = scored[0]
    specific = [w for w in words if w not in _GENERIC]
    named = _named_words(question)
    near = " ".join([*lines[max(0, i - 3) : i + 1], *lines[:5]])  # its card, or a page about it (title)
    if named and not set(named) <= set(_words(near)):
        return None  # "how many Stoneware Mugs": a line that does not name them answers another question
    if best == 0 and (specific or len({v for _, v in typed}) > 1):
        return None  # the only date on the page is not an answer when it shares nothing with the question
    return Fact(value=value, line=lines[i], kind=kind)


_SUMMARY = re.compile(r"(?i)\b(?:summari[sz]e|sum up|gist|tl;?dr|in one sentence|tóm tắt|tom tat)\b")
_GREETING = re.compile(
    r"(?i)^(?:hi|hello|hey|dear|good (?:morning|afternoon)|best|regards|kind regards|best regards|thanks|"
    r"thank you|cheers|sincerely|chào|kính gửi|thân|trân trọng)\b"
)


def summary_sentence(text: str) -> str | None:
    """The sentence that says most: in the body (greetings and sign-offs skipped), the one holding
    the most facts (numbers, dates, names), earlier ones first on a tie."""
    best: tuple[float, int, str] | None = None
    for i, line in enumerate(_lines(text)):
        if len(line) < 40 or _GREETING.match(line):
            continue
        facts = len(re.findall(r"\d[\d,.]*", line)) + len(_DATE.findall(line)) + len(_MONEY.findall(line))
        score = facts + min(len(line), 240) / 240
        if best is None or score > best[0]:
            best = (score, i, line)
    return best[2] if best else None


_EARLY = re.compile(r"(?i)\b(?:earliest|first|soonest|sớm nhất|đầu tiên)\b")
_LATE = re.compile(r"(?i)\b(?:latest|last|muộn nhất|cuối cùng)\b")
_DIRECT = re.compile(r"(?i)\b(?:direct|non-?stop|thẳng|bay thẳng)\b")


def _cheapest_listed(question: str, text: str) -> Fact | None:
    """ "Which one is cheapest", "the earliest direct flight" over a list of cards: each card's
    price (or time), its name on a line above it, and what the question requires of it (direct)."""
    cheap, dear = _CHEAP.search(question), _DEAR.search(question)
    early, late = _EARLY.search(question), _LATE.search(question)
    if not (cheap or dear or early or late):
        return None
    pattern = _MONEY if cheap or dear else _TIME
    lines = _lines(text)
    found: list[tuple[float, str, str, str]] = []
    for i, line in enumerate(lines):
        m = pattern.search(line)
        if m is None or (pattern is _TIME and not re.match(r"\s*\d", line)):
            continue
        amount = _clock(m.group(0)) if pattern is _TIME else number(m.group(0))
        if amount is None:
            continue
        card = lines[max(0, i - 3) : i + 3]
        if _DIRECT.search(question) and not any(re.search(r"(?i)\bdirect\b|non-?stop", c) for c in card[2:5]):
            continue
        above = [lines[j] for j in range(i - 1, max(-1, i - 4), -1) if not pattern.search(lines[j])]
        name = next((a for a in above if _letters(a) >= 0.5), None)  # the nearest line of words above
        if name and 2 <= len(name) <= 60:
            found.append((amount, name, m.group(0).strip(), line))
    if len(found) < 2:
        return None
    lowest = bool(cheap or early)
    amount, name, shown, line = (min if lowest else max)(found, key=lambda f: f[0])
    word = {True: "cheapest" if cheap else "earliest"}.get(lowest) or ("most expensive" if dear else "latest")
    if pattern is _TIME:
        return Fact(value=f"{shown}: {name} is the {word}", line=f"{name}: {line}", kind="time")
    return Fact(value=f"{name} is the {word} ({shown})", line=f"{name}: {shown}", kind="item")


def _clock(text: str) -> float | None:
    m = re.match(r"\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", text, re.I)
    if m is None:
        return None
    hour = (
        int(m.group(1)) % 12 + (12 if (m.group(3) or "").lower() == "pm" else 0)
        if m.group(3)
        else int(m.group(1))
    )
    return hour * 60 + int(m.group(2) or 0)


def _letters(line: str) -> float:
    """How much of a line is words: an airline's name beats a line of times and durations."""
    return sum(c.isalpha() for c in line) / max(1, len(line))


def _labelled(text: str, words: Sequence[str], kind: FactKind, question: str) -> Fact | None:
    """A "Label: value" line whose label is the question's subject ("Renewal date: 1 March 2027")."""
    best: tuple[float, str, str] | None = None
    for raw in text.splitlines():
        label, sep, value = raw.partition(":") if ":" in raw else raw.partition("\t")
        label, value = label.strip(), value.strip()
        if not sep or not value or len(label) > 40 or not label:
            continue
        named = set(_words(label))
        score = len(named & set(words)) / len(named) if named else 0.0
        if score >= 0.5 and (best is None or score > best[0]):
            best = (score, " ".join(raw.split()), value)
    if best is None:
        return None
    _, line, value = best
    if kind in ("text", "item", "yes_no"):
        return Fact(value=value, line=line, kind=kind)
    typed = _of_kind(kind, value, question)
    return Fact(value=typed, line=line, kind=kind) if typed else None


# --- tables ---------------------------------------------------------------------------------------


_UNDER = re.compile(r"(?i)\b(?:under|below|less than|at most|no more than|max(?:imum)?|up to|dưới|tối đa)\s*"
                    r"(?:[$€£]\s?)?(?P<n>\d[\d,.]*)\s*(?:[$€£]|usd|eur|dollars?|euros?)?")  # fmt: skip


def _price_cap(question: str) -> float | None:
    """ "for under $50 a month": the most the person will pay."""
    m = _UNDER.search(question)
    if m is None or not re.search(
        r"[$€£]|usd|eur|dollar|euro|price|cost|a month|per month|/mo", question, re.I
    ):
        return None
    return number(m.group("n"))


def _needs(question: str) -> list[tuple[float, str]]:
    """("8 users", "50 GB") as (amount, unit) from "a team of eight people who need about 50 GB"."""
    q = fold(question.lower())
    for word, n in _WORD_NUMBERS.items():
        q = re.sub(rf"\b{word}\b", str(n), q)
    out: list[tuple[float, str]] = []
    for unit, spellings in _UNITS.items():
        for s in spellings:
            s = fold(s)
            m = re.search(rf"(\d[\d,.]*)\s*(?:\w+\s+){{0,2}}?{re.escape(s)}\b", q) or (
                re.search(rf"{re.escape(s)}\s+(\d[\d,.]*)\b", q) if s == "team of" else None
            )
            if m:
                value = number(m.group(1))
                if value is not None and all(u != unit for _, u in out):
                    out.append((value, unit))
    return out


def _unit_column(table: Table, unit: str) -> int | None:
    words = _UNITS.get(unit, (unit,))
    for i, name in enumerate(table.header):
        if any(w in _words(name) or fold(w) in fold(name.lower()) for w in words):
            return i
    for i in range(1, len(table.header)):  # the values say the unit ("100 GB")
        if all(re.search(rf"(?i)\b{unit}\b", r[i]) for r in table.rows if i < len(r)):
            return i
    return None


def _price_column(table: Table) -> int | None:
    for i, name in enumerate(table.header):
        if re.search(r"(?i)price|cost|fee|\$|€|eur|usd|giá|/mo|per month", name):
            return i
    for i in range(1, len(table.header)):
        if all(_MONEY.search(r[i]) for r in table.rows if i < len(r)):
            return i
    return None


def _row_name(row: Sequence[str]) -> str:
    return row[0] if row else ""


def _limitless(cell: str) -> bool:
    return bool(re.search(r"(?i)unlimited|no limit|không giới hạn|∞", cell))


def table_fact(question: str, kind: FactKind, table: Table) -> Fact | None:
    """A fact from a table's numbers: a recommendation under needs, a cheapest/most, or a cell."""
    needs = _needs(question)
    price = _price_column(table)
    cap = _price_cap(question)
    cheap, dear = _CHEAP.search(question), _DEAR.search(question)
    if needs and (cheap or cap is not None or re.search(
        r"(?i)\b(?:suit|fit|recommend|best|need|allow|enough|cover|phù hợp|nên)", question
    )):  # fmt: skip
        return _recommend(table, needs, price, cap)
    if (cheap or dear) and price is not None:
        rows = [r for r in table.rows if price < len(r) and number(r[price]) is not None]
        if rows:
            pick = (min if cheap else max)(rows, key=lambda r: number(r[price]) or 0.0)
            word = "cheapest" if cheap else "most expensive"
            line = f"{_row_name(pick)}: {pick[price]}"
            return Fact(value=f"{_row_name(pick)} is the {word} ({pick[price]})", line=line, kind="item")
    for pattern, pick_fn, word in ((_MOST, max, "most"), (_LEAST, min, "fewest")):
        m = pattern.search(question)
        col = table.column(m.group("what")) if m else None
        if col is not None and col > 0:
            rows = [r for r in table.rows if col < len(r) and number(r[col]) is not None]
            if rows:
                pick = pick_fn(rows, key=lambda r: number(r[col]) or 0.0)
                return Fact(value=f"{_row_name(pick)} has the {word} {table.header[col].lower()} ({pick[col]})",
                            line=" | ".join(pick), kind="item")  # fmt: skip
    return _cell(question, kind, table, price)


def _cell(question: str, kind: FactKind, table: Table, price: int | None) -> Fact | None:
    """ "how many notebooks are in stock", "the price of the stapler": the row it names, the column
    its other words (or its kind) name."""
    words = topic(question)
    scored = [(sum(1 for w in _words(_row_name(r)) if w in words), r) for r in table.rows]
    scored = [(s, r) for s, r in scored if s > 0]
    if not scored:
        return None
    best = max(s for s, _ in scored)
    rows = [r for s, r in scored if s == best]
    if len(rows) != 1:
        return None
    row = rows[0]
    rest = " ".join(w for w in words if w not in _words(_row_name(row)))
    col = _unit_column_named(table, question) or (table.column(rest) if rest else None)
    if col is None or col == 0:
        col = price if kind == "price" else None
    if col is None and kind in ("count", "number"):
        col = next(
            (i for i in range(1, len(row)) if number(row[i]) is not None and not _MONEY.search(row[i])), None
        )
    if col is None or col >= len(row):
        return None
    value = row[col]
    return Fact(value=f"{_row_name(row)}: {table.header[col]} {value}" if kind == "text" else value,
                line=f"{_row_name(row)} | {table.header[col]}: {value}", kind=kind)  # fmt: skip


def _unit_column_named(table: Table, question: str) -> int | None:
    """ "how many GB does Business get": the column whose values carry the unit the question names."""
    asked = set(_words(question))
    for unit in _UNITS:
        if unit in asked or any(fold(s) in asked for s in _UNITS[unit] if " " not in s):
            col = _unit_column(table, unit)
            if col is not None and col > 0:
                return col
    return None


def _recommend(
    table: Table, needs: list[tuple[float, str]], price: int | None, cap: float | None = None
) -> Fact | None:
    columns = [(amount, unit, _unit_column(table, unit)) for amount, unit in needs]
    usable = [(a, u, c) for a, u, c in columns if c is not None]
    if not usable:
        return None
    said = " and ".join(f"{a:g} {u}" for a, u, _ in usable)

    if cap is not None and price is not None:
        said += f" for at most {table.header[price].split()[0].lower()} {cap:g}"

    def meets(row: Sequence[str]) -> bool:
        if cap is not None and price is not None:
            cost = number(row[price]) if price < len(row) else None
            if cost is None or cost > cap:
                return False
        for amount, _, col in usable:
            assert col is not None
            cell = row[col] if col < len(row) else ""
            have = number(cell)
            if not _limitless(cell) and (have is None or have < amount):
                return False
        return True

    fitting = [r for r in table.rows if meets(r)]
    if not fitting:
        biggest = max(
            table.rows,
            key=lambda r: sum(number(r[c]) or 0.0 for _, _, c in usable if c is not None and c < len(r)),
        )
        why = f"no option meets {said}: the largest, {_row_name(biggest)}, offers " + ", ".join(
            f"{biggest[c]} {table.header[c].lower()}"
            for _, _, c in usable
            if c is not None and c < len(biggest)
        )
        return Fact(value=f"None of the options meets {said}", line=" | ".join(biggest), kind="item",
                    satisfied=False, because=why)  # fmt: skip
    if price is not None:
        fitting.sort(
            key=lambda r: number(r[price]) if price < len(r) and number(r[price]) is not None else 1e12
        )
    pick = fitting[0]
    offers = ", ".join(
        f"{pick[c]} {table.header[c].lower()}" for _, _, c in usable if c is not None and c < len(pick)
    )
    cost = f" for {pick[price]}" if price is not None and price < len(pick) else ""
    others = [r for r in table.rows if r is not pick and not meets(r)]
    short = "; ".join(f"{_row_name(r)} offers too little" for r in others[:3])
    value = f"{_row_name(pick)} is the {'cheapest ' if price is not None else ''}option that meets {said}"
    return Fact(value=value, line=f"{_row_name(pick)}: {offers}{cost}", kind="item",
                because=f"it offers {offers}{cost}" + (f"; {short}" if short else ""))  # fmt: skip
