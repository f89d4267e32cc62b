"""The eval's checkers read what they say they read: a fact in the first sentence, a reason up front,
a post the site accepted, the page the run ended on."""

from __future__ import annotations

from evals.checks import (
    Observed,
    Sent,
    answer,
    answer_count,
    landed,
    nothing_sent,
    says_missing,
    says_why,
    sent_to,
    stored,
)


def seen(answer: str = "", sent: tuple[Sent, ...] = (), last: str = "", **store: object) -> Observed:
    return Observed(state={}, answer=answer, posts=len(sent), sent=sent, store=dict(store), last=last)


def test_a_count_is_a_whole_number_in_the_first_sentence() -> None:
    five = answer_count(5)
    assert five(seen("You have 5 unread messages.")) and five(seen("Five are unread."))
    assert not five(seen("You have 15 unread messages.")) and not five(seen("It costs 5.50 EUR."))
    assert not five(seen("Here is your inbox. You have 5 unread messages."))


def test_a_fact_may_be_written_several_ways() -> None:
    amount = answer(("1,284.50", "1284.50"))
    assert amount(seen("It is for €1284.50.")) and not amount(seen("It is invoice #4471."))


def test_a_reason_counts_only_in_the_answers_first_sentences() -> None:
    why = says_why("out of stock")
    assert why(seen("Not done: the add step failed. The Copper Kettle is out of stock."))
    pasted = "Not done. Kettle & Co. Mugs Teapots. Search. " + "Filler text. " * 3 + "Out of stock."
    assert not why(seen(pasted))
    missing = says_missing("purple")
    assert missing(seen("There is no purple teapot in the shop."))
    assert not missing(seen("I added a purple teapot.")) and not missing(seen("Not found."))


def test_only_an_accepted_post_with_every_value_counts() -> None:
    ok = Sent("/saas/login", {"username": "carol", "password": "x"}, 200)
    refused = Sent("/saas/login", {"username": "", "password": "x"}, 422)
    check = sent_to("/saas/login", username="carol")
    assert check(seen(sent=(ok,))) and not check(seen(sent=(refused,)))
    assert not sent_to("/saas/login", username="carol", contains={"password": "y"})(seen(sent=(ok,)))
    assert nothing_sent("/saas/signup")(seen(sent=(ok,))) and not nothing_sent()(seen(sent=(refused,)))


def test_the_page_the_run_ended_on_and_the_shared_store() -> None:
    there = landed("shop/product.html", "id=kettle-copper")
    assert there(seen(last="/shop/product.html?id=kettle-copper"))
    assert not there(seen(last="/shop/product.html?id=kettle-steel"))
    assert not there(seen(last="/shop/cart.html"))
    assert stored("cart", {"mug-blue": 2})(seen(cart={"mug-blue": 2}))
    assert not stored("cart", {"mug-blue": 2})(seen(cart={"mug-blue": 2, "mug-red": 1}))
