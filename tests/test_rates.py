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
    assert _work("How much for 5 carts and 4 carts?", [(TIERS, TIERS)]) == []  # two counts for the tiers
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


FEE_TIERS = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area or "
             "tunnels not exceeding 25 feet in length; and $0.25 for each additional square foot in the case of "
             "excavations, or lineal foot in the case of tunnels; but not to exceed $100.00 for any permit.")
CARTS = ("by paying (i) a fee for the removal of the carts) in the amount of twenty dollars and no cents ($20.00) for "
         "each of the first three (3) carts and forty dollars and no cents ($40.00) for each additional cart thereafter "
         "and (ii) a fee for the storage of the cart(s) in the amount of five dollars and no cents ($5.00) per cart per "
         "day.")


@pytest.mark.parametrize("question, sentence, result", [
    ("We need to bore a 60 foot tunnel under the street. What's the permit fee?", FEE_TIERS, "10.75"),
    ("Excavation in the alley, about 10 ft by 7 ft. What's the permit fee?", FEE_TIERS, "13.25"),  # an area
    ("A 500-foot tunnel: what's the permit fee?", FEE_TIERS, "100.00"),  # the ceiling
    ("How much for 5 carts?", TIERS, "140.00"),  # 3 x $20 + 2 x $40
    ("The city took 5 of our carts and they sat in storage 3 days. How much to get them back?", CARTS, "215.00"),
])
def test_a_fee_in_tiers_for_the_users_one_quantity(question, sentence, result):
    (w,) = _work(question, [(sentence, sentence)])
    assert (w.kind, w.result) == ("tiered", Decimal(result))
    text = phrasing.rate_worked(w)
    assert invented_numbers(text, [], [w.call()["arguments"], w.call()["result"]]) == []


@pytest.mark.parametrize("question, sentence", [
    ("We are digging a trench 30 feet long across the street, what is the permit fee?", FEE_TIERS),  # no tunnel
    ("A 60 foot tunnel and a 10 by 7 ft pit. What's the fee?", FEE_TIERS),  # a measure of no tier's thing
    ("The city took 5 of our carts. How much to get them back?", CARTS),  # storage days not given
])
def test_no_tier_fee_when_the_question_does_not_fit_one_tier_whole(question, sentence):
    assert _work(question, [(sentence, sentence)]) == []


SUBSEQUENT = ("An individual who violates paragraph a. of this subsection shall be subject to a fine of one hundred "
              "($100.00) dollars for a first offense and two hundred ($200.00) dollars for any subsequent offense.")
WARNING_FIRST = ("A violation shall be subject to the issuance of a warning for a first offense, a fine of twenty-five "
                 "dollars and no cents ($25.00) for a second offense, and a fine of fifty dollars and no cents ($50.00) "
                 "for any third or subsequent offense.")


SKATEBOARDS = "Skateboards on city property. No person shall operate a skateboard on the stairs of city hall. "
CART_RULES = "Shopping carts. A business establishment shall keep its shopping carts on its premises. "


@pytest.mark.parametrize("question, sentence, section, result", [
    ("My son got ticketed 3 separate times this fall for skateboarding. What's the total in fines for all three?",
     SUBSEQUENT, SKATEBOARDS, "500.00"),
    ("It's our second violation for the skateboard. What fine are we looking at for this one?", SUBSEQUENT,
     SKATEBOARDS, "200.00"),
    ("The store was cited four separate times over its shopping carts. What is the total of the four citations?",
     WARNING_FIRST, CART_RULES, "125.00"),
    ("Our fifth offense with the carts: what is the fine?", WARNING_FIRST, CART_RULES, "50.00"),  # "third or subsequent"
])
def test_fines_that_rise_with_each_offense(question, sentence, section, result):
    (w,) = _work(question, [(sentence, section + sentence)])
    assert (w.kind, w.result) == ("graduated", Decimal(result))
    text = phrasing.rate_worked(w)
    assert invented_numbers(text, [], [w.call()["arguments"], w.call()["result"]]) == []


def test_no_fine_by_offense_for_a_warning_or_two_readings():
    assert _work("This is our first offense with the carts, what is the fine?",
                 [(WARNING_FIRST, CART_RULES + WARNING_FIRST)]) == []
    # a count and an nth both given: which is asked is not guessed
    assert _work("Our third skateboard offense, and 3 tickets in all: what is the total?",
                 [(SUBSEQUENT, SKATEBOARDS + SUBSEQUENT)]) == []


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


GRADE = ("Safe vehicular access is defined as a paved driveway of sufficient width and a slope not to exceed 12% at any "
         "such point.")
CROSS = "The walk shall have a uniform cross slope of one-quarter inch per foot of width toward the curb."


@pytest.mark.parametrize("question, sentence, shown, most", [
    ("The driveway runs 60 feet from the road to the garage at an even grade. How much higher than the road can the "
     "garage apron sit?", GRADE, "7.2 feet", True),
    ("New walk will be 5 feet wide. How much lower does the street-side edge end up than the house-side edge?", CROSS,
     "1.25 inches", False),
])
def test_a_rise_a_quoted_slope_gives_over_the_users_length(question, sentence, shown, most):
    (w,) = _work(question, [(sentence, sentence)])
    assert (w.kind, w.shown(), w.maximum) == ("rise", shown, most)
    text = phrasing.rate_worked(w)
    assert "the slope quoted below" in text and f"**{shown}**" in text
    assert invented_numbers(text, [], [w.call()["arguments"], w.call()["result"]]) == []


def test_no_rise_without_one_length_or_with_several_slopes():
    assert _work("How much higher can the apron sit?", [(GRADE, GRADE)]) == []  # no run given
    assert _work("It runs 60 feet, or 70 feet by the survey. How much higher can it sit?", [(GRADE, GRADE)]) == []
    two = "The slope shall not exceed 12%, and 8% on a curve."
    assert _work("The driveway runs 60 feet. How much higher can the apron sit?", [(two, two)]) == []


def test_a_pronoun_count_competes_with_the_named_one():
    """'we have like 140 carts ... picked up 5 of ours': which count the fee is for is not guessed."""
    q = ("I manage a grocery store (we have like 140 carts). The city picked up 5 of ours and they sat in storage "
         "4 days. How much do I pay to get them back?")
    assert _work(q, [(CARTS, CARTS)]) == []
    assert _work("We have 140 newsracks and want 7 of them downtown. How much do we pay a year?", [(RACKS, RACKS)]) == []


@pytest.mark.parametrize("q", [
    "Excavation in the alley, about 10 ft by 7 ft. What's the fee and how much do I pay altogether with the deposit?",
    "I need to cut a 6 by 10 foot hole in a paved street. What's the permit fee, what deposit do I leave with the "
    "clerk, and what's that together?",
    "Cutting an 8 ft by 10 ft patch out of the asphalt. Between the permit fee and the cash deposit, how much do I bring?",
])
def test_a_tier_fee_is_not_the_answer_when_more_is_asked_altogether(q):
    assert _work(q, [(FEE_TIERS, FEE_TIERS)]) == []


def test_fines_by_offense_only_for_what_the_provision_is_about():
    carts_fines = ("A violation of CBC 16-12.8A regarding shopping carts shall be subject to the issuance of a warning "
                   "for a first offense, a fine of twenty-five dollars ($25.00) for a second offense, and a fine of "
                   "fifty dollars ($50.00) for any third or subsequent offense.")
    segway = "Our company runs Segway tours and got written up after dusk; it's our second violation. What fine?"
    assert _work(segway, [(carts_fines, carts_fines)]) == []
    store = "Our store got its second violation for shopping carts blocking the door. What fine?"
    assert [w.result for w in _work(store, [(carts_fines, carts_fines)])] == [Decimal("25.00")]


def test_a_total_of_the_tiers_own_charges_is_worked_out():
    # "the total" with nothing else named: the removal tiers and the storage per cart per day are the total
    q = ("The city hauled off 5 of our carts and they sat in storage for 4 days before I went to pick them up. "
         "What's the total I should expect to pay to get them back?")
    (w,) = _work(q, [(CARTS, CARTS)])
    assert (w.kind, w.result) == ("tiered", Decimal("240.00"))
