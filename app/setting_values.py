"""What each setting's value must be, checked when the settings are read (app/settings.py).

A value that is wrong in kind (a model endpoint that is not a web address, a search template without
its `{query}`) used to pass through and trip a run deep inside, as a traceback. Here each is refused
with the reason; `Sources` names the setting the way the person wrote it (environment variable, flag
or settings file), so the sentence says what to change. The browser path is checked where it is
used: a missing program is ChromiumNotFound with the install advice (which `waypost doctor` must
still be able to show), one that is no Chromium is BrowserDidNotStart (browser/launch.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

WEB = ("http", "https")
BROWSER_ENDPOINT = ("http", "https", "ws", "wss")


def web_address(value: str, schemes: tuple[str, ...] = WEB) -> str:
    """`value` when it is an absolute URL of one of `schemes` with a host; ValueError otherwise."""
    try:
        parts = urlsplit(value)
        host = parts.hostname
    except ValueError as exc:  # an unclosed [ in the host, a port that is no number
        raise ValueError(f"not a web address ({exc})") from None
    if parts.scheme.lower() not in schemes or not host:
        wanted = " or ".join(f"{s}://" for s in schemes)
        raise ValueError(f"not a web address (expected {wanted} and a host)")
    return value


def search_template(value: str, provider: str) -> str:
    """The search URL as its provider needs it: a results-page template with `{query}` (browser), a
    SearXNG address (searxng) or a folder (local)."""
    if provider == "local":
        if not Path(value).expanduser().is_dir():
            raise ValueError("not a folder (search provider local reads a folder)")
        return value
    web_address(value.replace("{query}", "q"))
    if provider == "browser" and "{query}" not in value:
        raise ValueError(
            "no {query} placeholder: the search words go there (for example https://search.example/?q={query})"
        )
    return value


@dataclass(frozen=True, kw_only=True)
class Sources:
    """Where the settings came from: the environment, flags (or the window's values), the file."""

    env: Mapping[str, str]
    env_names: Mapping[str, str]
    flags: Mapping[str, object]
    file: Path

    def first_problem(self, exc: ValidationError, values: Mapping[str, Any]) -> str:
        """The first problem, naming the setting as the person set it: `WAYPOST_SEARCH_URL='...': ...`."""
        error = exc.errors()[0]
        loc = error.get("loc", ())
        message = str(error.get("msg", exc)).removeprefix("Value error, ")
        key = str(loc[0]) if loc else ("search_url" if values.get("search_url") else "")
        if not key:
            return f"invalid settings ({self.file}): {message}"
        shown = "[hidden]" if key == "api_key" else repr(values.get(key))
        return f"{self._named(key, shown)}: {message}"

    def _named(self, key: str, shown: str) -> str:
        """`key` as the person set it: the flag's value, else the environment variable, else the file."""
        if key in self.flags:
            return f"{_FLAGS.get(key, key)} {shown}"
        for var, name in self.env_names.items():
            if name == key and self.env.get(var):
                return f"{var}={shown}"
        return f"{key} = {shown} in {self.file}"


#: Settings that a flag sets under another name.
_FLAGS = {"headless": "--headed", "safe_mode": "--unsafe", "runs_dir": "--runs-dir", "approve": "--approve"}
