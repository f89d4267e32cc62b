"""Playwright's errors in a sentence a person reads: the first line of the message (the rest is a
call log), and for a page that would not load, what the browser's network error code means
("nothing is listening at that address") instead of `Page.goto: net::ERR_CONNECTION_REFUSED at ...`.
The code stays in brackets for whoever debugs it."""

from __future__ import annotations

import re

from playwright.async_api import Error

_NET_ERROR = re.compile(r"net::(ERR_[A-Z_]+)")
#: Chromium's network error codes a person meets most, in words (net/base/net_error_list.h).
_NET_WORDS = {
    "ERR_CONNECTION_REFUSED": "nothing is listening at that address",
    "ERR_UNSAFE_PORT": "the browser refuses that port, which is kept for other protocols",
    "ERR_NAME_NOT_RESOLVED": "the host name does not exist or cannot be looked up",
    "ERR_CONNECTION_TIMED_OUT": "the server did not answer in time",
    "ERR_TIMED_OUT": "the server did not answer in time",
    "ERR_CONNECTION_RESET": "the server cut the connection",
    "ERR_CONNECTION_CLOSED": "the server closed the connection",
    "ERR_EMPTY_RESPONSE": "the server sent nothing back",
    "ERR_ADDRESS_UNREACHABLE": "there is no network route to that address",
    "ERR_INTERNET_DISCONNECTED": "this computer is not connected to a network",
    "ERR_NETWORK_CHANGED": "the network changed while the page was loading",
    "ERR_PROXY_CONNECTION_FAILED": "the proxy does not answer",
    "ERR_SSL_PROTOCOL_ERROR": "the secure connection could not be set up",
    "ERR_CERT_AUTHORITY_INVALID": "its certificate is not from an authority the browser trusts",
    "ERR_CERT_COMMON_NAME_INVALID": "its certificate is for another site",
    "ERR_CERT_DATE_INVALID": "its certificate has expired or is not yet valid",
    "ERR_TOO_MANY_REDIRECTS": "it redirects in a loop",
    "ERR_INVALID_URL": "the address is not a valid URL",
}


def error_line(exc: Error) -> str:
    """The error's first line, or the meaning of its network error code."""
    lines = (exc.message or str(exc)).strip().splitlines()
    line = lines[0][:300] if lines else type(exc).__name__
    code = _NET_ERROR.search(line)
    if code is None:
        return line
    words = _NET_WORDS.get(code.group(1))
    return f"{words} ({code.group(0)})" if words else f"the browser could not open it ({code.group(0)})"
