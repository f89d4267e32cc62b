"""What the browser layer may do (BrowserPolicy, enforced whatever a prompt says) and how to get a
browser (LaunchOptions). Plain values."""

from __future__ import annotations

from pydantic import Field, model_validator

from common.contracts import Contract


class BrowserPolicy(Contract):
    """Guards the browser layer enforces whatever the prompt said (docs/architecture.md, "Gates")."""

    allowed_schemes: list[str] = Field(default_factory=list)
    allowed_domains: list[str] = Field(default_factory=list)
    no_submit: bool = False
    blocked_actions: list[str] = Field(default_factory=list)
    accept_dialogs: bool = False
    #: The task names a private address itself: a public page may then lead to one
    #: (browser/network_policy.py). Off, a run that opened a public page never reaches 127.0.0.1 & co.
    private_network: bool = False

    @property
    def submit_blocked(self) -> bool:
        return self.no_submit or "submit" in {a.lower() for a in self.blocked_actions}


class LaunchOptions(Contract):
    """How to get a browser: launch one (fresh or persistent profile) or attach to a remote one.

    `cdp_url` attaches over the Chrome DevTools Protocol; `ws_endpoint` connects to a Playwright
    server. Settings (WAYPOST_BROWSER, WAYPOST_CDP_URL, WAYPOST_HEADLESS) map onto these fields.
    """

    headless: bool = True
    executable: str | None = None
    user_data_dir: str | None = None
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    ws_headers: dict[str, str] = Field(default_factory=dict)
    viewport_width: int = Field(default=1280, gt=0)
    viewport_height: int = Field(default=800, gt=0)
    extra_args: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _one_source(self) -> LaunchOptions:
        if self.cdp_url and self.ws_endpoint:
            raise ValueError("give cdp_url or ws_endpoint, not both")
        if (self.cdp_url or self.ws_endpoint) and self.user_data_dir:
            raise ValueError(
                "a persistent profile (user_data_dir) needs a launched browser, not a remote one"
            )
        return self
