"""While no_submit holds, no value Waypost typed leaves the browser, whatever the page does.

The submit guard stops form submissions and state-changing methods; a page can still carry a typed
value out in a GET form, an image beacon, a link, a fetch or a redirect. This guard sits in the
session's context route (the browser layer: page script cannot turn it off) and refuses every
request whose URL or body holds a typed value in any of its encodings (common/secrecy.secret_forms).
A value typed into a search field is not personal: a GET search form stays usable.
"""

from __future__ import annotations

from urllib.parse import unquote, unquote_plus

from common.secrecy import SecretRedactor

#: Shorter values would match by accident ("a", "no"); they are still typed, never matched.
MIN_LENGTH = 3

#: True for a search field: type=search, role=searchbox, a search form or a query-like name; never a
#: field whose type or autocomplete says it holds personal data (an email field named `q` is not one).
IS_SEARCH_FIELD = """e => {
  const type = (e.type || "").toLowerCase();
  const personal = ["email", "tel", "password", "url", "number", "date"].includes(type)
    || !/^(|on|off)$/i.test((e.getAttribute("autocomplete") || "").trim());
  return !personal && (type === "search"
    || (e.getAttribute("role") || "") === "searchbox"
    || !!e.closest("[role=search]")
    || /^(q|query|search|s|keywords?|term|search_query)$/i.test(e.getAttribute("name") || ""));
}"""


#: Origin+path prefixes whose requests are measurement, not a leak: only the eval harness adds one
#: (its pages report their state to the local eval server) and removes it when the suite ends.
_MEASUREMENT: set[str] = set()


def allow_measurement(prefix: str) -> None:
    _MEASUREMENT.add(prefix)


def end_measurement(prefix: str) -> None:
    _MEASUREMENT.discard(prefix)


def measuring(url: str) -> bool:
    """A request the eval harness's own measurement sends: no guard holds it."""
    return any(url.startswith(prefix) for prefix in _MEASUREMENT)


class TypedValues:
    """The personal values typed into the session's pages; answers whether a request carries one."""

    def __init__(self) -> None:
        self._matcher = SecretRedactor()
        self.any = False  #: whether a personal value was typed in this session

    def __repr__(self) -> str:  # never print the values
        return f"TypedValues({self._matcher!r})"

    def add(self, value: str) -> None:
        if len(value.strip()) >= MIN_LENGTH:
            self._matcher.add(value)
        self.any = True  # even a short value is typed: the worker guard holds the workers

    def carried_by(self, url: str, body: bytes | None, referer: str | None = None) -> str | None:
        """Where a typed value sits in this request ("URL", "body" or "Referer"), or None: a page
        that wrote the value into its own address (history.replaceState) sends it as the Referer."""
        if measuring(url):
            return None
        for where, address in (("URL", url), ("Referer", referer or "")):
            for text in (address, unquote(address), unquote_plus(address)):
                if text and self._matcher.contains(text):
                    return where
        if body and self._matcher.contains(body.decode("utf-8", "replace")):
            return "body"
        return None
