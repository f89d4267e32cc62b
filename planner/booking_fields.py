"""The fields a booking asks for beside a name and an email: the time, the day and how many it is
for (docs/architecture.md, "What was asked"). A task says "a table for 4 at 7pm on Friday"; a form
calls them "Time", "Day", "Party size" and offers "7:00 PM" or "19:00" in a list. These words and
the option matching let the values land in such a form instead of being left unread."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from planner.slots import clock_value, date_value, long_date

#: The field words for each booking value (read beside planner/payload.py's FIELD_WORDS, which also
#: reads values out of a task's text; these are only looked for on the page).
BOOKING_FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "time": ("time", "arrival time", "start time", "time slot", "slot", "giờ", "thời gian"),
    "guests": ("guests", "number of guests", "party size", "people", "persons", "diners", "covers",
               "party", "số người", "số khách"),
    "day": ("day", "weekday", "ngày", "thứ"),
}  # fmt: skip
_NUMBER_WORDS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
                 "nine": "9", "ten": "10"}  # fmt: skip


def party_size(said: str) -> str:
    """ "four" -> "4": the number a party-size field takes."""
    return _NUMBER_WORDS.get(said.lower(), said)


_WEEKDAYS = (
    ("monday", "thứ hai"), ("tuesday", "thứ ba"), ("wednesday", "thứ tư"), ("thursday", "thứ năm"),
    ("friday", "thứ sáu"), ("saturday", "thứ bảy"), ("sunday", "chủ nhật"),
)  # fmt: skip


def weekday_of(text: str) -> int | None:
    """Monday is 0: "Friday", "Fri", "thứ Sáu" -> 4; None when the text names no single day."""
    said = " ".join(text.lower().split())
    days = {i for i, (en, vi) in enumerate(_WEEKDAYS) if re.search(rf"\b(?:{en}|{en[:3]}|{vi})\b", said)}
    return days.pop() if len(days) == 1 else None


def option_for(value: str, options: Sequence[str], score: Callable[[str, str], float]) -> str | None:
    """The option standing for `value`: the same time of day or weekday however it is written
    ("7:00 PM" for "19:00", "Thursday" for "thứ Năm"; None when no option is that slot), else the best
    scoring by `score`; None when there are no options."""
    same = [o for o in options if same_slot(value, o)]
    if same or _is_slot(value):  # "2027-03-13" shares most of "2027-03-12"'s words and is another day
        return same[0] if same else None
    return max(options, key=lambda o: score(value, o), default=None)


def _is_slot(value: str) -> bool:
    """A time of day, a date or a weekday: matched by what it means, never by shared words."""
    return bool(date_value(value) or long_date(value) or clock_value(value)) or weekday_of(value) is not None


def _clock_part(option: str) -> str:
    """ "7:00 PM (2 tables left)" -> "7:00 PM"."""
    m = re.search(r"(?i)\d{1,2}(?:[:.h]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h|giờ)?", option)
    return m.group(0) if m else option


def same_slot(a: str, b: str) -> bool:
    """Two ways of writing one time of day ("7:00 PM", "19:00"), one date ("12 March 2027",
    "2027-03-12") or one weekday ("Thursday", "thứ Năm")."""
    iso = date_value(a) or long_date(a)
    if iso is not None:
        return iso == (date_value(b) or long_date(b))
    clock = clock_value(_clock_part(a))
    if clock is not None:
        return clock == clock_value(_clock_part(b))
    day = weekday_of(a)
    return day is not None and day == weekday_of(b)
