"""Risk is judged by what an action does. Found: navigate actions were never classified, so a model
obeying a page could open `/account/remove-now` directly after one generic approval."""

from __future__ import annotations

from browser.models import parse_action
from executor.act.risk import Risk, classify


def test_navigating_to_a_removal_url_is_a_delete() -> None:
    action = parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/account/remove-now?x=1"})
    assert classify(action, None) is Risk.DELETE
    checkout = parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/shop/checkout"})
    assert classify(checkout, None) is Risk.PAYMENT


def test_navigating_to_a_plain_page_is_not_risky() -> None:
    assert classify(parse_action({"kind": "navigate", "url": "http://127.0.0.1:9/prices.html"}), None) is None
