"""Which element of an observation a person's words mean, the way a careful person would decide.

Words are compared as sets of folded tokens (case, accents, punctuation and filler words such as
"the", "button", "field" do not count): the same words score 1.0, the element's name holding all of
the person's words (more words of its own) a little less, a shorter name inside the person's words
less again, a partial overlap or a near spelling less still. Then context decides between close
candidates: a control inside the form being worked on beats one outside it (a nav bar's "Sign up" is
never the form's submit), the control's type breaks ties (a "Password" label prefers
`type=password`), the main content beats a nav bar or a footer. Two candidates that still tie are
ambiguous, and the answer names them in words instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from browser.models import ElementInfo, Observation
from planner._text import fold
from planner.booking_fields import BOOKING_FIELD_WORDS
from planner.payload import FIELD_WORDS
from planner.synonyms import alternatives

#: Words that never tell two elements apart.
FILLER = frozenset((
    "the", "a", "an", "my", "your", "our", "his", "her", "their", "its", "this", "that", "these", "those",
    "of", "for", "to", "in", "on", "at", "by", "with", "from", "and", "or", "please", "button", "btn",
    "link", "icon", "field", "box", "input", "checkbox", "option", "item", "entry", "cái", "nút", "ô",
    "trường", "của",
))  # fmt: skip
#: Words that say what kind of element is meant, not which one: used as a role hint.
KIND_WORDS = {
    "tab": ("tab",), "dialog": ("button", "link"), "menu": ("button", "link", "menuitem"),
    "page": ("link",), "section": ("button", "link", "tab"), "panel": ("tab", "button"),
    "window": ("button",), "modal": ("button",), "calendar": ("button",),
}  # fmt: skip
MATCH = 0.6
#: How much better the best candidate must be than the next to be picked without asking.
MARGIN = 0.04
_FILLABLE_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}
_NOT_FILLABLE = {"submit", "button", "reset", "hidden", "checkbox", "radio", "file", "image"}
_WORDS_OF = {**FIELD_WORDS, **BOOKING_FIELD_WORDS}
_KEY_OF = {fold(w): k for k, words in _WORDS_OF.items() for w in (k, *words)}


def tokens(text: str) -> list[str]:
    """Folded words without filler; a plural's final s dropped so "mugs" meets "mug"."""
    out, raw = [], []
    for word in re.findall(r"[a-z0-9@.]+", fold(text.lower()).replace("-", " ").replace("'s ", " ")):
        word = word.strip(".")
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        if not word or (len(word) == 1 and word.isalpha()):
            continue  # the s of "Marco's", a stray letter
        raw.append(word)
        if word not in FILLER:
            out.append(word)
    return out or raw  # "From", "To": a label made only of small words is still a label


def words_score(wanted: str, shown: str) -> float:
    """How well an element's words `shown` stand for the person's words `wanted` (0..1)."""
    want, have = tokens(wanted), tokens(shown)
    if not want or not have:
        return 0.0
    w, h = set(want), set(have)
    if w == h:
        return 1.0
    if w <= h:
        return max(0.7, 0.92 - 0.03 * (len(h) - len(w)))
    if h <= w:
        return max(0.6, 0.85 - 0.05 * (len(w) - len(h)))
    common = len(w & h)
    if common:
        return 0.45 + 0.3 * common / len(w | h)
    fuzzy = SequenceMatcher(None, " ".join(want), " ".join(have)).ratio()
    return fuzzy * 0.75 if fuzzy >= 0.8 else 0.0


def synonyms(field: str) -> list[str]:
    """The person's field words plus the other words for the same field ("e-mail" for "email")."""
    key = _KEY_OF.get(fold(field.lower().strip()))
    extra = _WORDS_OF.get(key, ()) if key else ()
    return list(dict.fromkeys([field, *extra]))


def fillable(el: ElementInfo) -> bool:
    if not el.visible or not el.enabled or el.input_type in _NOT_FILLABLE:
        return False
    return el.tag in ("input", "textarea", "select") or (el.role or "") in _FILLABLE_ROLES


def pressable(el: ElementInfo) -> bool:
    return el.visible and el.enabled and not fillable(el) and el.input_type not in ("checkbox", "radio")


def toggleable(el: ElementInfo) -> bool:
    return (
        el.visible
        and el.enabled
        and (el.input_type in ("checkbox", "radio") or (el.role or "") in ("checkbox", "switch", "radio"))
    )


@dataclass(frozen=True)
class Pick:
    """A grounding: the element, or why there is none (a sentence a person reads)."""

    element: ElementInfo | None
    score: float = 0.0
    why: str = ""
    candidates: list[ElementInfo] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.element is not None


def describe(el: ElementInfo) -> str:
    """An element as a person would name it: 'the "Create account" button in the sign-up form'."""
    kind = "field" if fillable(el) else (el.role or el.tag)
    if el.input_type in ("checkbox", "radio"):
        kind = el.input_type
    name = el.name or el.placeholder or "(no name)"
    where = f" in the row {el.context[:40]!r}" if el.context else ""
    area = f" in the {el.area}" if el.area else ""
    return f'the {kind} "{name}"{where}{area}'


def choose(scored: Iterable[tuple[float, ElementInfo]], what: str, *, threshold: float = MATCH) -> Pick:
    """The best candidate, or None with the reason: nothing close enough, or a tie to ask about."""
    ranked = sorted(((s, e) for s, e in scored if s > 0), key=lambda p: (-p[0], p[1].index))
    if not ranked or ranked[0][0] < threshold:
        close = [e for s, e in ranked[:3]]
        hint = "; the closest: " + ", ".join(describe(e) for e in close) if close else ""
        return Pick(None, why=f"nothing on the page matches {what}{hint}", candidates=close)
    best, el = ranked[0]
    ties = [e for s, e in ranked[1:] if best - s < MARGIN and not _same_thing(e, el)]
    if ties:
        listed = [el, *ties][:4]
        return Pick(
            None,
            best,
            why=f"{len(listed)} elements match {what}: " + ", ".join(describe(e) for e in listed),
            candidates=listed,
        )
    return Pick(el, best)


def _same_thing(a: ElementInfo, b: ElementInfo) -> bool:
    """A label and its control, or a link wrapping a button, read the same: not a real tie."""
    return (
        a.name == b.name
        and a.context == b.context
        and a.form == b.form
        and a.href == b.href
        and (a.tag == b.tag)
        and a.input_type == b.input_type
    ) or (bool(a.href) and a.href == b.href and a.tag == b.tag == "a")


Scorer = Callable[[ElementInfo], float]


def _texts(el: ElementInfo) -> list[str]:
    return [t for t in (el.name, el.placeholder or "") if t]


def name_score(wanted: str, el: ElementInfo) -> float:
    return max((words_score(w, t) for w in alternatives(wanted) for t in _texts(el)), default=0.0)


def field_score(field_words: str, el: ElementInfo, value: str = "") -> float:
    """A field for the person's field words; the input's type breaks ties and fills gaps."""
    best = max((name_score(s, el) for s in synonyms(field_words)), default=0.0)
    typed = _type_hint(field_words, value, el)
    if best >= MATCH:
        return best + 0.05 * typed  # above 1.0 on purpose: the right type wins a tie of names
    return 0.7 if typed > 0 and best == 0.0 else best


def _type_hint(field_words: str, value: str, el: ElementInfo) -> int:
    """+1 when the input's type is what the field words or the value's shape ask for."""
    words = set(tokens(field_words))
    t = el.input_type or ""
    if t == "password" and words & {"password", "passcode", "pin", "khau"}:
        return 1
    if t == "email" and ("email" in words or "@" in value):
        return 1
    if t == "email" and value:
        return -2  # "12 Hang Bac" for "địa chỉ" is not for the footer's "Email address"
    if t == "tel" and words & {"phone", "tel", "mobile"}:
        return 1
    if t == "date" and (words & {"date", "day"} or re.fullmatch(r"\d{4}-\d{2}-\d{2}", value)):
        return 1
    if t == "time" and "time" in words:
        return 1
    if t == "search" and words & {"search", "query", "find"}:
        return 1
    if t == "password":
        return -2  # a password box takes only what is called a password
    return 0


def find_field(obs: Observation, field_words: str, value: str = "", *, form: int | None = None) -> Pick:
    """The field a person calls `field_words`; inside the form being worked on when there is one."""

    def score(el: ElementInfo) -> float:
        s = field_score(field_words, el, value)
        if s and form is not None:  # "Work email" in the sign-up form being filled, not the footer's
            s += (0.03 if s < MATCH else 0.1) if el.form == form else -0.03
        if s and el.area in ("nav", "header", "footer"):
            s -= 0.05
        return s

    return choose(((score(e), e) for e in obs.elements if fillable(e)), f'a field for "{field_words}"')


#: Words that say what kind of switch it is, not which one ("the mentions emails" on an email page).
_SWITCH_KIND = re.compile(r"(?i)\s+(?:e-?mails?|notifications?|alerts?|settings?|messages?)$")


def find_toggle(obs: Observation, what: str) -> Pick:
    pick = choose(
        ((name_score(what, e), e) for e in obs.elements if toggleable(e)), f'a checkbox for "{what}"'
    )
    named = _SWITCH_KIND.sub("", what)
    if pick.element is None and not pick.score and named != what:
        retry = choose(
            ((name_score(named, e), e) for e in obs.elements if toggleable(e)), f'a checkbox for "{what}"'
        )
        return retry if retry.element is not None else pick
    return pick


def find_option(obs: Observation, option: str, among: str = "") -> Pick:
    """A radio, a day in a calendar, or a button that picks `option` (a select is handled apart)."""

    def score(el: ElementInfo) -> float:
        s = name_score(option, el)
        if s and among and words_score(among, f"{el.context} {el.name}") > 0:
            s += 0.03
        if el.input_type == "radio" or (el.role or "") in ("radio", "option", "gridcell"):
            s += 0.02
        return s

    candidates = [e for e in obs.elements if e.visible and e.enabled and not fillable(e)]
    return choose(((score(e), e) for e in candidates), f'the option "{option}"')


def find_select(obs: Observation, option: str, among: str = "") -> tuple[ElementInfo, str] | None:
    """A <select> with an option named `option` (and labelled like `among`, when given). An option the
    person wrote out whole ("e-books") beats one that shares a word with it ("Books"); two options of
    one select that fit equally well are a guess, so neither is taken."""
    best: tuple[float, ElementInfo, str] | None = None
    tied = False
    for el in obs.elements:
        if not (el.visible and el.enabled and el.options):
            continue
        for opt in el.options:
            s = words_score(option, opt)
            if s >= MATCH and _written_out(opt, option):
                s += 0.05
            if among:
                s += 0.1 * (field_score(among, el) >= MATCH)
            if s < MATCH:
                continue
            if best is None or s > best[0]:
                best, tied = (s, el, opt), False
            elif s == best[0] and el is best[1] and tokens(opt) != tokens(best[2]):
                tied = True
    return (best[1], best[2]) if best and not tied else None


def _written_out(shown: str, wanted: str) -> bool:
    """The option's whole text stands in the person's words, as written ("E-books" in "sách (e-book)")."""
    said = re.sub(r"s\b", "", fold(shown.lower()).strip())
    return (
        bool(said) and re.search(rf"(?<![\w-]){re.escape(said)}s?(?![\w-])", fold(wanted.lower())) is not None
    )


def find_control(
    obs: Observation,
    what: str,
    *,
    item: str = "",
    prefer: Sequence[str] = (),
    avoid: Sequence[str] = (),
) -> Pick:
    """A control to press for `what`; with `item`, the one in that item's row; roles in `prefer`
    win ties; names holding a word of `avoid` (what the person forbade) are never picked."""
    hint = next((roles for word, roles in KIND_WORDS.items() if word in tokens(what)), ())
    prefer = tuple(prefer) or hint

    def score(el: ElementInfo) -> float:
        if _forbidden(el, avoid):
            return 0.0
        s = name_score(what, el)
        if not s and what.lower() in (el.name or "").lower():
            s = 0.7
        if s and item:
            s = s * 0.6 + 0.4 * words_score(item_words(item), el.context)
        if s and prefer and (el.role or el.tag) in prefer:
            s += 0.03
        if s and el.area in ("nav", "footer", "header"):
            s -= 0.02
        return s

    label = f'"{what}"' + (f' for "{item}"' if item else "")
    return choose(((score(e), e) for e in obs.elements if pressable(e)), label)


_ITEM_NOUNS = re.compile(
    r"(?i)\b(?:message|email|e-mail|mail|thread|conversation|item|product|one|from|about|by|sent by|regardin"
    r"g|"
    r"titled|called|named|tin nhắn|thư|sản phẩm|của|về)\b"
)


def item_words(what: str) -> str:
    """The words that tell an item apart: "the message from Maria Costa" -> "Maria Costa"."""
    words = _ITEM_NOUNS.sub(" ", what)
    return words if tokens(words) else what


_ITEM_ROLES = frozenset({"link", "a", "row", "tab", "listitem", "option", "gridcell", "treeitem", "menuitem"})


def covers(wanted: str, shown: str) -> bool:
    """Every word that tells the wanted item apart is shown ("purple teapot" is not "Teapots")."""
    want, have = set(tokens(wanted)), set(tokens(shown))
    return bool(want) and len(want - have) == 0


def find_item(obs: Observation, what: str, *, avoid: Sequence[str] = ()) -> Pick:
    """An item the person names by what it holds ("the message from Maria Costa", "Glass Teapot"):
    links, rows and buttons whose own words or row hold those words."""
    words = item_words(what)

    def score(el: ElementInfo) -> float:
        if _forbidden(el, avoid) or fillable(el) or el.input_type in ("checkbox", "radio"):
            return 0.0
        own = name_score(words, el) if covers(words, el.name or "") else 0.0
        linky = (el.role or el.tag) in _ITEM_ROLES
        row = (
            words_score(words, el.context) * 0.85
            if el.context and linky and covers(words, el.context)
            else 0.0
        )
        s = max(own, row)
        if s and linky:
            s += 0.02
        return s

    return choose(((score(e), e) for e in obs.elements if pressable(e)), f'"{what}"')


_SUBMIT_NAMES = {
    "send": ("send", "submit", "send message", "post", "gửi", "continue", "next", "save"),
    "login": ("sign in", "log in", "login", "signin", "đăng nhập", "continue", "next"),
    "signup": ("create account", "sign up", "register", "join", "get started", "đăng ký", "continue",
               "create"),
    "save": ("save", "apply", "update", "lưu"),
    "confirm": ("confirm", "ok", "yes", "xác nhận"),
    "reply": ("send", "send reply", "post", "gửi"),
    "book": ("book", "reserve", "book now", "confirm", "đặt"),
    "order": ("place order", "pay", "buy", "checkout", "check out", "order", "thanh toán", "đặt hàng"),
}  # fmt: skip


def find_submit(obs: Observation, purpose: str, *, form: int | None, after: int | None = None,
                avoid: Sequence[str] = ()) -> Pick:  # fmt: skip
    """The submit control of the form being worked on: a button inside that form (a link never
    sends a form); with no form element, the first fitting button after the last field filled."""
    names = _SUBMIT_NAMES.get(purpose, _SUBMIT_NAMES["send"])

    def score(el: ElementInfo) -> float:
        if _forbidden(el, avoid) or not _is_button(el):
            return 0.0
        named = max((name_score(n, el) for n in names), default=0.0)
        sends = el.input_type in ("submit", "image") or (el.tag == "button" and el.form is not None)
        s = max(named, 0.65 if sends else 0.0)
        if form is not None:
            s += 0.3 if el.form == form else -0.4
        elif after is not None:
            s += 0.1 if el.index > after else -0.2
        if el.area in ("nav", "header") or (el.area == "footer" and named < MATCH):
            s -= 0.3  # a footer's "Get deals" sends its own newsletter form, never the booking
        return s

    buttons = [e for e in obs.elements if pressable(e)]
    in_form = [e for e in buttons if form is not None and e.form == form and _is_button(e)]
    if len(in_form) == 1 and not _forbidden(in_form[0], avoid):
        return Pick(in_form[0], 1.0)
    return choose(((score(e), e) for e in buttons), f"the {purpose} button of the form")


def filled_form(obs: Observation) -> tuple[int | None, int | None]:
    """(form number, last field index) of the form whose fields hold values: the one being worked on
    when an earlier step filled it."""
    filled = [e for e in obs.elements if fillable(e) and (e.value or e.value_hidden) and e.form is not None]
    if not filled:
        return None, None
    forms = [e.form for e in filled]
    form = max(set(forms), key=forms.count)
    return form, max(e.index for e in filled if e.form == form)


def find_search(obs: Observation) -> Pick:
    """The site's search box: a search input, a box named or placed for searching."""

    def score(el: ElementInfo) -> float:
        s = 0.0
        if el.input_type == "search" or (el.role or "") == "searchbox":
            s = 0.95
        for text in _texts(el):
            if re.search(r"(?i)\b(?:search|find|query|look ?up|tìm)\b", text):
                s = max(s, 0.9)
        if el.area in ("footer",):
            s -= 0.1
        return s

    return choose(((score(e), e) for e in obs.elements if fillable(e) and e.tag != "select"), "a search box")


def find_search_button(obs: Observation, box: ElementInfo) -> ElementInfo | None:
    """The button that runs the search: in the box's form, named for searching, or its only button."""
    near = [
        e for e in obs.elements if pressable(e) and _is_button(e) and (box.form is None or e.form == box.form)
    ]
    named = [e for e in near if re.search(r"(?i)\b(?:search|go|find|tìm)\b|🔍", e.name or "")]
    if named:
        return min(named, key=lambda e: abs(e.index - box.index))
    if box.form is not None and len(near) == 1:
        return near[0]
    return None


def _is_button(el: ElementInfo) -> bool:
    if el.tag == "input":
        return el.input_type in ("submit", "image", "button")
    return el.tag == "button" or (el.role or "") == "button"


def _forbidden(el: ElementInfo, avoid: Sequence[str]) -> bool:
    name = fold((el.name or "").lower())
    return any(re.search(rf"(?<![a-z]){re.escape(fold(w.lower()))}(?![a-z])", name) for w in avoid if w)
