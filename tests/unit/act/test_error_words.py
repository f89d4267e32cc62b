"""A browser error reads as a sentence: the first line of Playwright's message, and a network error
code as what it means, with the code kept in brackets."""

from __future__ import annotations

from playwright.async_api import Error

from browser.error_words import error_line
from executor.act.outcomes import ActionResult, reason


def test_network_codes_in_words() -> None:
    refused = Error("Page.goto: net::ERR_CONNECTION_REFUSED at http://127.0.0.1:1/\nCall log:\n  - x")
    assert error_line(refused) == "nothing is listening at that address (net::ERR_CONNECTION_REFUSED)"
    odd = Error("Page.goto: net::ERR_QUIC_PROTOCOL_ERROR at http://a.test/")
    assert error_line(odd) == "the browser could not open it (net::ERR_QUIC_PROTOCOL_ERROR)"
    assert error_line(Error("Locator.click: Target closed\nCall log:")) == "Locator.click: Target closed"


def test_a_navigation_that_failed_names_the_address() -> None:
    said = "the host name does not exist or cannot be looked up (net::ERR_NAME_NOT_RESOLVED)"
    result = ActionResult(
        action={"kind": "navigate", "url": "http://x.invalid/"}, status="error", message=said
    )
    assert reason(result) == f"could not open http://x.invalid/: {said}"
