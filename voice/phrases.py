"""The task phrasings the offline language model is built from.

They follow the tasks Waypost's planner handles (research and compare, fill a form without
submitting, read account state and explain, open and summarise a page), so the recogniser expects
these words in these orders. Sentences outside this vocabulary are heard as the nearest task words.
"""

from __future__ import annotations

from itertools import product

#: The example tasks of the window and the demo flows, as a person would say them.
EXAMPLES: tuple[str, ...] = (
    "Research the datafeed packages on the demo site and compare their prices with sources",
    "Research the datafeed packages and compare their prices",
    "Open the signup page and prefill the form with name Alice Nguyen email alice at example dot com "
    "company Acme don't submit",
    "Research the datafeed packages recommend one for a small fintech then open the signup page "
    "and prefill the form for it don't submit",
    "Open my account page read my current plan then explain what it includes with sources",
)

_RESEARCH_VERBS = ("research", "compare", "find", "look up", "search for", "check", "summarize", "review")
_THINGS = (
    "the datafeed packages",
    "the pricing plans",
    "the prices",
    "the plans",
    "the best laptops",
    "the cheapest flights to Hanoi",
    "the news about interest rates",
    "the weather in Berlin",
    "the opening hours of the library",
    "the reviews of this product",
    "the terms of service",
    "the market data providers",
    "the recipes for dinner",
    "the hotels in Paris",
    "the train times to London",
)
_ENDINGS = (
    "",
    "and compare their prices",
    "and compare their features",
    "with sources",
    "and cite your sources",
    "and give me a summary",
    "and recommend one",
    "and tell me which one is cheapest",
    "on the demo site",
)
_PAGES = (
    "the signup page",
    "the account page",
    "my account page",
    "the checkout page",
    "the contact form",
    "the settings page",
    "the home page",
    "this page",
    "the first result",
)
_PAGE_TASKS = (
    "open {page}",
    "go to {page}",
    "open {page} and read it",
    "open {page} and summarize it",
    "open {page} and prefill the form",
    "open {page} and fill in the form but don't submit",
    "fill in the form on {page} with my name and email",
    "read {page} then explain what it says",
    "read my current plan on {page} then explain what it includes",
    "click the sign in button on {page}",
    "scroll down {page} and find the price",
    "download the report from {page}",
)
_EXTRA: tuple[str, ...] = (
    "what does this page say",
    "summarize this page with sources",
    "explain what my plan includes",
    "recommend a plan for a small fintech",
    "recommend one for a small team",
    "which package is cheapest",
    "how much does the pro plan cost per month",
    "compare the basic plan and the pro plan",
    "find the contact email on this site",
    "fill in the name Alice Nguyen and the company Acme",
    "don't submit the form",
    "do not submit anything",
    "stop",
    "cancel that",
    "search the web for the latest news about the stock market",
    "book a table for two tonight but ask me before paying",
    "add the cheapest package to the cart but don't pay",
    "sign up for the newsletter with my work email",
    "delete the old draft but ask me first",
    "send the message to the support team",
    "translate this page into english",
    "find the price of the datafeed pro package",
    "list the features of each package in a table",
)


def task_sentences() -> list[str]:
    """Every phrasing, expanded from the templates (a few hundred sentences)."""
    out = list(EXAMPLES)
    out += [
        f"{verb} {thing} {end}".strip() for verb, thing, end in product(_RESEARCH_VERBS, _THINGS, _ENDINGS)
    ]
    out += [template.format(page=page) for template, page in product(_PAGE_TASKS, _PAGES)]
    out += list(_EXTRA)
    return out
