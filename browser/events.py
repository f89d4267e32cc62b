"""What the browser reports beside actions: dialogs it answered and requests its guards refused."""

from __future__ import annotations

from typing import Literal

from browser.models import Contract


class DialogEvent(Contract):
    """An alert/confirm/prompt/beforeunload the page raised and what the policy answered."""

    type: Literal["alert", "confirm", "prompt", "beforeunload"]
    message: str
    accepted: bool
    url: str


class GuardEvent(Contract):
    """Something a browser-layer guard refused: a URL (policy), a form submission or typed value
    (no_submit), a request that would change something which its action was not cleared for, or
    anything a page sent while its network was quarantined (browser/quarantine.py)."""

    kind: Literal["url", "submit", "effect", "quarantine"]
    detail: str
    url: str
    navigation: bool = False  # a document load (a refused image or script does not block an action)
