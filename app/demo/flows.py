"""The four demo flows (modes A, B, C, D) on the bundled demo site, with the rule-based planner."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DemoFlow:
    mode: str
    title: str
    template: str  # {base} is the demo site's address

    def task(self, base: str) -> str:
        return self.template.format(base=base)


FLOWS: tuple[DemoFlow, ...] = (
    DemoFlow(
        "A",
        "Research with citations",
        "Research the datafeed packages on {base}/datafeed.html and compare their prices, with sources",
    ),
    DemoFlow(
        "B",
        "Prefill a form, no submit",
        "Open {base}/signup.html and prefill the form with name Alice Nguyen, email alice@example.com, "
        "company Acme; don't submit",
    ),
    DemoFlow(
        "C",
        "Research, recommend, prefill",
        "Research the datafeed packages on {base}/datafeed.html, recommend one for a small fintech, "
        "then open {base}/signup.html and prefill the form for it with name Alice Nguyen, "
        "email alice@example.com, company Acme; don't submit",
    ),
    DemoFlow(
        "D",
        "Read the account, then explain",
        "Open my account page {base}/account.html, read my current plan, then explain what it includes "
        "with sources",
    ),
)
