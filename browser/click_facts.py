"""What a click (or Enter in a field) would do, read from the element itself before it happens
(docs/architecture.md, "Risk by effect").

A label can say anything ("Continue"); the facts that decide what happens cannot lie so easily: the
link the element sits in (its resolved href), the form a submit control sends (action and method,
a button's own formaction/formmethod overriding the form's) and the URLs written into an inline
click handler. The risk judge (executor/act/effects.py) reads these; the browser's click refuses a
`javascript:` link or form action outright, because it would run the page's script, not open a page.
"""

from __future__ import annotations

import re

from playwright.async_api import Error, Locator

from browser.models import Target
from browser.session import BrowserSession
from browser.targets import resolve
from common.contracts import Contract

#: How long the judge waits for an element that is not there yet: the click itself waits longer.
PROBE_MS = 1_000

_FACTS_JS = """e => {
  const tag = e.tagName.toLowerCase();
  const type = (e.getAttribute("type") || (tag === "button" ? "submit" : "")).toLowerCase();
  const submitter = (tag === "button" && type === "submit")
    || (tag === "input" && ["submit", "image"].includes(type));
  const form = submitter ? (e.form || e.closest("form")) : null;
  const field = tag === "input" && !submitter
    && !["button", "reset", "checkbox", "radio", "file", "hidden", "range", "color"].includes(type);
  const enterForm = field ? e.form : null;  // Enter in a one-line field sends its form
  const link = e.closest("a[href], area[href]");
  const byIds = (ids) => (ids || "").split(/\\s+/).filter(Boolean)
    .map((id) => { const r = document.getElementById(id); return r ? r.textContent : ""; }).join(" ");
  const buttonLike = tag === "input" && ["submit", "button", "reset", "image"].includes(type);
  return {
    tag, role: e.getAttribute("role") || "", input_type: tag === "input" ? type : "",
    text: ((tag === "input" ? (buttonLike ? e.value : "") : e.innerText) || "").trim().slice(0, 200),
    aria_label: (e.getAttribute("aria-label") || "").trim(),
    labelled_by: byIds(e.getAttribute("aria-labelledby")).trim().slice(0, 200),
    title: (e.getAttribute("title") || "").trim(),
    href: link ? (link.getAttribute("href") || "").trim() : "",
    href_resolved: link ? link.href : "",
    submits_form: !!form,
    form_action: form ? ((e.hasAttribute("formaction") ? e.formAction : form.action) || "") : "",
    form_action_raw: form ? ((e.hasAttribute("formaction") ? e.getAttribute("formaction")
                                                          : form.getAttribute("action")) || "") : "",
    form_method: form ? ((e.hasAttribute("formmethod") ? e.formMethod : form.method) || "get") : "",
    form_has_password: form ? !!form.querySelector("input[type=password]") : false,
    enter_form_action: enterForm ? (enterForm.action || "") : "",
    enter_form_method: enterForm ? (enterForm.method || "get") : "",
    handler: (e.getAttribute("onclick") || (link ? link.getAttribute("onclick") : "") || "").slice(0, 1000),
  };
}"""

_JS_SCHEME = re.compile(r"^[\x00-\x20]*j[\s]*a[\s]*v[\s]*a[\s]*s[\s]*c[\s]*r[\s]*i[\s]*p[\s]*t[\s]*:", re.I)
_QUOTED = re.compile(r"""["'`]([^"'`\s]{1,300})["'`]""")


class ClickFacts(Contract):
    """The element a click means, as the browser sees it (not as the page describes it)."""

    tag: str = ""
    role: str = ""
    input_type: str = ""
    text: str = ""
    aria_label: str = ""
    labelled_by: str = ""
    title: str = ""
    href: str = ""
    href_resolved: str = ""
    submits_form: bool = False
    form_action: str = ""
    form_action_raw: str = ""
    form_method: str = ""
    form_has_password: bool = False
    #: A one-line field's form, which Enter in the field sends.
    enter_form_action: str = ""
    enter_form_method: str = ""
    handler: str = ""

    @property
    def names(self) -> list[str]:
        """Every name the element shows a person or a screen reader."""
        return [n for n in (self.text, self.aria_label, self.labelled_by, self.title) if n]

    def handler_urls(self) -> list[str]:
        """Quoted strings in an inline click handler that look like a place to go."""
        return [u for u in _QUOTED.findall(self.handler) if u.startswith(("/", "http:", "https:", "./"))]


def is_javascript_url(url: str) -> bool:
    """`javascript:` in any disguise browsers accept (leading control characters, inner whitespace)."""
    return bool(_JS_SCHEME.match(url))


def javascript_refusal(facts: ClickFacts) -> str | None:
    """Why a click must not happen: it would run a `javascript:` URL in the page."""
    if facts.href and is_javascript_url(facts.href):
        return "refused: the link is a javascript: URL; it runs the page's script instead of opening a page"
    if facts.submits_form and is_javascript_url(facts.form_action_raw):
        return "refused: the form's action is a javascript: URL, which runs the page's script"
    return None


async def read_facts(locator: Locator, timeout_ms: float) -> ClickFacts:
    return ClickFacts.model_validate(await locator.evaluate(_FACTS_JS, None, timeout=timeout_ms))


async def probe(session: BrowserSession, target: Target) -> ClickFacts | None:
    """The facts of the one element `target` means now (declared secrets redacted), or None when it
    does not resolve to one or the page went away while reading (the judge then uses what it has)."""
    try:
        found = await resolve(session.page, target, PROBE_MS)
        if not found.ok or found.locator is None:
            return None
        facts = await read_facts(found.locator, PROBE_MS)
    except Error:  # a navigation in flight, a detached element, a timeout
        return None
    redact = session.vault.redact
    texts = {k: redact(v) for k, v in facts.model_dump().items() if isinstance(v, str)}
    return facts.model_copy(update=texts)
