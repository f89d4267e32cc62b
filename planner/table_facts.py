"""Facts from a table's numbers: the cheapest or largest row, the cell a question names, and the
option that meets stated needs ("8 users and 50 GB for under $50"), with why (docs/architecture.md,
"What was asked")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from planner._text import fold
from planner.asks import FactKind
from planner.fact_words import (
    CHEAP,
    DEAR,
    LEAST,
    MONEY,
    MOST,
    UNITS,
    WORD_NUMBERS,
    Fact,
    Table,
    number,
    topic,
    words_of,
)

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
    for word, n in WORD_NUMBERS.items():
        q = re.sub(rf"\b{word}\b", str(n), q)
    out: list[tuple[float, str]] = []
    for unit, spellings in UNITS.items():
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
    words = UNITS.get(unit, (unit,))
    for i, name in enumerate(table.header):
        if any(w in words_of(name) or fold(w) in fold(name.lower()) for w in words):
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
        if all(MONEY.search(r[i]) for r in table.rows if i < len(r)):
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
    cheap, dear = CHEAP.search(question), DEAR.search(question)
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
    for pattern, pick_fn, word in ((MOST, max, "most"), (LEAST, min, "fewest")):
        m = pattern.search(question)
        col = table.column(m.group("what")) if m else None
        if col is not None and col > 0:
            rows = [r for r in table.rows if col < len(r) and number(r[col]) is not None]
            if rows:
                pick = pick_fn(rows, key=lambda r: number(r[col]) or 0.0)
                said = f"{_row_name(pick)} has the {word} {table.header[col].lower()} ({pick[col]})"
                return Fact(value=said, line=" | ".join(pick), kind="item")
    return _cell(question, kind, table, price)


def _cell(question: str, kind: FactKind, table: Table, price: int | None) -> Fact | None:
    """ "how many notebooks are in stock", "the price of the stapler": the row it names, the column
    its other words (or its kind) name."""
    words = topic(question)
    scored = [(sum(1 for w in words_of(_row_name(r)) if w in words), r) for r in table.rows]
    scored = [(s, r) for s, r in scored if s > 0]
    if not scored:
        return None
    best = max(s for s, _ in scored)
    rows = [r for s, r in scored if s == best]
    if len(rows) != 1:
        return None
    row = rows[0]
    rest = " ".join(w for w in words if w not in words_of(_row_name(row)))
    col = _unit_column_named(table, question) or (table.column(rest) if rest else None)
    if col is None or col == 0:
        col = price if kind == "price" else None
    if col is None and kind in ("count", "number"):
        # the row's number in a column the question names a word of ("in stock" -> "In stock"); a
        # number in some other column (a date, a room) counts something else
        asked = set(words)
        col = next(
            (i for i in range(1, len(row)) if number(row[i]) is not None and not MONEY.search(row[i])
             and asked & set(words_of(table.header[i]))),
            None,
        )  # fmt: skip
    if col is None or col >= len(row):
        return None
    value = row[col]
    return Fact(value=f"{_row_name(row)}: {table.header[col]} {value}" if kind == "text" else value,
                line=f"{_row_name(row)} | {table.header[col]}: {value}", kind=kind)  # fmt: skip


def _unit_column_named(table: Table, question: str) -> int | None:
    """ "how many GB does Business get": the column whose values carry the unit the question names."""
    asked = set(words_of(question))
    for unit in UNITS:
        if unit in asked or any(fold(s) in asked for s in UNITS[unit] if " " not in s):
            col = _unit_column(table, unit)
            if col is not None and col > 0:
                return col
    return None


def _offer(cell: str, header: str) -> str:
    """ "100 GB storage", "Up to 10 users" (a cell that already says its unit keeps its own words)."""
    return cell if set(words_of(header)) & set(words_of(cell)) else f"{cell} {header.lower()}"


def _cost(row: Sequence[str], price: int) -> float:
    """A row's price for sorting; a row without one sorts last."""
    value = number(row[price]) if price < len(row) else None
    return value if value is not None else float("inf")


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
            _offer(biggest[c], table.header[c]) for _, _, c in usable if c is not None and c < len(biggest)
        )
        return Fact(value=f"None of the options meets {said}", line=" | ".join(biggest), kind="item",
                    satisfied=False, because=why)  # fmt: skip
    if price is not None:
        fitting.sort(key=lambda r: _cost(r, price))
    pick = fitting[0]
    offers = ", ".join(
        _offer(pick[c], table.header[c]) for _, _, c in usable if c is not None and c < len(pick)
    )
    cost = f" for {pick[price]}" if price is not None and price < len(pick) else ""
    others = [r for r in table.rows if r is not pick and not meets(r)]
    short = "; ".join(f"{_row_name(r)} offers too little" for r in others[:3])
    value = f"{_row_name(pick)} is the {'cheapest ' if price is not None else ''}option that meets {said}"
    return Fact(value=value, line=f"{_row_name(pick)}: {offers}{cost}", kind="item",
                because=f"it offers {offers}{cost}" + (f"; {short}" if short else ""))  # fmt: skip
