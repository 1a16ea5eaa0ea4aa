"""Arithmetic a quoted sentence asks for, with the user's one count or amount (rates.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from assistant.answering import phrasing, rates
from assistant.answering.guards import invented_numbers
from assistant.answering.reading import read_slots

FINE = ("Whoever violates any of the provisions of this chapter shall be fined not more than five hundred dollars "
        "($500.00) or imprisoned not more than six months or both.")
FINE_PASSAGE = FINE + " Each day such violation continues shall constitute a separate offense."
RACKS = "An annual fee of $25.00 per newsrack authorized shall be paid to the city."
PENALTY = ("Each such person shall be liable to the city for the cost of such work, plus a penalty of 10% of such "
           "cost.")
SHARE = "The property owner will be assessed 50% of the cost of sidewalk reconstruction."
TIERS = ("by paying a fee in the amount of twenty dollars ($20.00) for each of the first three (3) carts and forty "
         "dollars ($40.00) for each additional cart thereafter")


def _work(question: str, picked: list[tuple[str, str]]):
    return rates.work_out(question, read_slots(question), picked)


def test_a_rate_per_unit_times_the_users_count():
    (w,) = _work("We want 7 newsracks downtown. How much do we pay a year?", [(RACKS, RACKS)])
    assert (w.kind, w.result, w.maximum) == ("per_unit", Decimal("175.00"), False)
    assert "7 newsracks (“7 newsracks”) × $25.00" in phrasing.rate_worked(w)


def test_a_fine_per_offense_with_each_day_a_separate_offense_is_at_most_days_times_the_ceiling():
    (w,) = _work("The walk was torn up for 6 days. What's the most the fines could add up to?", [(FINE, FINE_PASSAGE)])
    assert w.result == Decimal("3000.00") and w.maximum
    assert "at most **$3,000.00**" in phrasing.rate_worked(w)


def test_a_percent_of_the_users_amount_and_the_cost_plus_its_penalty():
    (w,) = _work("Public Works spent $850 clearing the walk. How much is the owner liable for?", [(PENALTY, PENALTY)])
    assert w.result == Decimal("935.00") and w.steps[-1] == "$850.00 + $85.00 = $935.00"
    (s,) = _work("The estimate came to $4,286.50. What part of that do I actually pay?", [(SHARE, SHARE)])
    assert s.result == Decimal("2143.25")


def test_nothing_is_worked_out_when_it_is_not_one_way():
    assert _work("We want 7 newsracks. Where do they go?", [(RACKS, RACKS)]) == []  # no amount asked
    assert _work("How much for 5 carts?", [(TIERS, TIERS)]) == []  # tiers
    assert _work("Estimates: $3,412.60 for the house and $2,077.30 for the rental. What do I pay?",
                 [(SHARE, SHARE)]) == []  # two amounts
    racks_plus = "In addition to the certificate fee, an annual fee of $25.00 per newsrack shall be paid."
    assert _work("We want 7 newsracks. How much do we pay?", [(racks_plus, racks_plus)]) == []  # not all owed
    per_day = "a storage fee of five dollars ($5.00) per cart per day"
    assert _work("5 carts for 4 days: what do we owe?", [(per_day, per_day)]) == []  # two counts


def test_every_figure_of_the_working_comes_from_its_call():
    (w,) = _work("Public Works spent $850 clearing the walk. How much is the owner liable for?", [(PENALTY, PENALTY)])
    call = w.call()
    assert invented_numbers(phrasing.rate_worked(w), [], [call["arguments"], call["result"]]) == []


def test_insurance_limits_and_shares_divided_again_are_never_worked_out():
    cover = "The certificate shall show coverage of $1,000,000 per person and $2,000,000 each accident."
    assert _work("Two people were hurt. How much coverage do we need in total?", [(cover, cover)]) == []
    both = ("When new sidewalks are installed on one side of the street, 100% of the assessment shall be "
            "distributed equally between property owners on both sides of the street.")
    assert _work("The assessment is $54,000. How much do I pay?", [(both, both)]) == []
    blocks = "If 60% of a property owner's sidewalk blocks are defective, the whole walk is replaced."
    assert _work("My bill is $3,000. How much do I owe?", [(blocks, blocks)]) == []


def test_a_provision_with_several_percentages_gets_no_share_worked_out():
    section = SHARE + " When new sidewalks are installed, 100% of the assessment is shared. Owners pay 50% of replacement costs."
    assert _work("The estimate came to $4,286.50. What part of that do I actually pay?", [(SHARE, section)]) == []


GUARANTEE = ("If such bill is not paid within 30 days, the amount thereof shall be charged to the financial guarantee "
             "provided by the owner and the balance thereof shall be released by the Town to the property owner.")


def test_a_sum_held_settled_against_a_cost_the_user_gives_both_of():
    (w,) = _work("We posted a $1,500 guarantee. The Town billed us $640, which we never paid. What do we get back?",
                 [(GUARANTEE, GUARANTEE)])
    assert (w.kind, w.result) == ("difference", Decimal("860.00"))
    assert "left of the sum held" in w.steps[0] and "Worked out from the provision quoted below" in phrasing.rate_worked(w)
    (w,) = _work("I put down $3,800 up front; the final bill came to $4,325. How much more do I owe?",
                 [(GUARANTEE, GUARANTEE)])
    assert w.result == Decimal("525.00") and "owed over the sum held" in w.steps[0]
    call = w.call()
    assert invented_numbers(phrasing.rate_worked(w), [], [call["arguments"], call["result"]]) == []


def test_no_settlement_when_the_words_do_not_say_which_sum_is_held():
    assert _work("I have $1,500 and $640. What do we get back?", [(GUARANTEE, GUARANTEE)]) == []
    assert _work("We each left $1,500; his bill was $420 and mine $260. What does each of us get back?",
                 [(GUARANTEE, GUARANTEE)]) == []  # three amounts: one settlement per party is not read here
    heading = "Inspection for Return of Guarantee."
    assert _work("We posted a $1,500 guarantee and were billed $640. What do we get back?", [(heading, heading)]) == []


def test_a_or_an_makes_a_rate_only_right_after_the_amount():
    deposit = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in "
               "a paved area.")
    assert _work("Water service repair on a paved street. How much money do I need to bring?", [(deposit, deposit)]) == []
    racks = "An annual fee of $25.00 a newsrack authorized shall be paid."
    (w,) = _work("We want 7 newsracks downtown. How much do we pay a year?", [(racks, racks)])
    assert w.result == Decimal("175.00")


def test_a_percentage_charged_per_period_of_the_users_amount():
    """"a service charge of one and one-half percent per month" and "billed $2,400": the charge of
    one month (the percentage written in words, the period said in the working)."""
    late = ("On past-due invoices a service charge of one and one-half percent per month will be allowed on accounts "
            "30 days past due.")
    (w,) = _work("We were billed $2,400 and we're late paying it. What's the late charge each month?", [(late, late)])
    assert (w.kind, w.result) == ("percent", Decimal("36.00"))
    text = phrasing.rate_worked(w)
    assert "1.5% a month of $2,400.00 (“$2,400”) = $36.00 a month" in text
    assert invented_numbers(text, [], [part for part in (w.call()["arguments"], w.call()["result"])]) == []
    # two amounts: which one is owed is not guessed
    assert _work("We were billed $2,400 and paid $400. What's the late charge each month?", [(late, late)]) == []


SITUATIONS = ("The property owner will be assessed 50% of the cost of sidewalk reconstruction based on current cost "
              "estimates. When new sidewalks are installed on one side of the street without sidewalks on either side, "
              "100% of the assessment shall be distributed equally between property owners on both sides of the street.")
RECONSTRUCTION = SITUATIONS.split(". ")[0] + "."


@pytest.mark.parametrize("question, worked", [
    ("The Village is redoing the sidewalk along our lot, and the estimate came in at $7,380. How much lands on us?",
     Decimal("3690.00")),  # the question names the first situation ("redoing": reconstruction)
    ("The Village is installing a new sidewalk on our side only; the cost is $7,380. How much do we pay?", None),
    ("The sidewalk work in front of our house costs $7,380. How much do we pay?", None),  # no situation named
])
def test_of_several_percentages_the_one_whose_situation_the_question_names(question, worked):
    got = _work(question, [(RECONSTRUCTION, SITUATIONS)])
    assert ([w.result for w in got] or [None]) == [worked]


def test_a_pronoun_count_competes_with_the_named_one():
    """'we have 140 newsracks and want 7 of them': which count the fee is for is not guessed."""
    assert _work("We have 140 newsracks and want 7 of them downtown. How much do we pay a year?", [(RACKS, RACKS)]) == []
