"""The four demo flows (modes A, B, C and D, docs/architecture.md), offered in the window as examples."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ExampleTask:
    key: str
    title: str
    text: str


EXAMPLE_TASKS: tuple[ExampleTask, ...] = (
    ExampleTask(
        "A",
        "A · Research with sources",
        "Research the datafeed packages on the demo site and compare their prices, with sources",
    ),
    ExampleTask(
        "B",
        "B · Prefill a form",
        "Open the signup page and prefill the form with name Alice Nguyen, email alice@example.com, "
        "company Acme; don't submit",
    ),
    ExampleTask(
        "C",
        "C · Research, then act",
        "Research the datafeed packages, recommend one for a small fintech, then open the signup page "
        "and prefill the form for it, don't submit",
    ),
    ExampleTask(
        "D",
        "D · Read state, then explain",
        "Open my account page, read my current plan, then explain what it includes with sources",
    ),
)
