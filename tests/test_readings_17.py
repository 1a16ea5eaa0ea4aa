"""Readings of session 17, for any code: the period a question's dated event is counted by, the date asked for
when none is given, a time of day before its day ("4:30 yesterday afternoon"), a count whose thing comes after a
word or a possessive ("5 of our store's shopping carts"), material for an area at a rate of application, a
quantity at a price per its unit, and the parts of a repair bill no word labels."""

from __future__ import annotations

from datetime import date

import pytest

from assistant.answering import fines, periods, phrasing, rates
from assistant.answering.materials import material_for_area
from assistant.answering.reading import priced, read_slots
from assistant.answering.tiers import tier_fee
from assistant.answering.worked import counts_in

WED = date(2026, 12, 9)


# -- periods ------------------------------------------------------------------------------------------------
SIXTY = ("Plans must be submitted to the superintendent within 60 days of the effective date of this article, and "
         "must include an effective and specific method of retrieving the store's shopping carts.")
THIRTY = "The store shall modify the plan and resubmit it to the superintendent no later than 30 days after the date of its rejection."


def test_the_sentence_counting_from_the_users_event_is_taken_before_one_timing_the_act():
    turn = ("The superintendent rejected our store's shopping cart retrieval plan in writing on Monday, November 23. "
            "What's the last day we can get a revised plan back to them?")
    got = periods.count_from(turn, read_slots(turn, ref=WED), [SIXTY, THIRTY])
    assert [(c.day, c.words) for c in got] == [(date(2026, 12, 23), "no later than 30 days after")]


def test_of_a_sentences_two_periods_the_one_tied_to_the_question_is_counted():
    sentence = ("Auto traffic over the walk at driveways shall not be permitted for forty-eight hours and then only on "
                "planks for seven days after placing concrete.")
    turn = "We placed the concrete on December 14, 2026. By what date can we drive on it without planks?"
    got = periods.count_from(turn, read_slots(turn, ref=WED), [sentence])
    assert [c.day for c in got] == [date(2026, 12, 21)]


def test_a_period_in_hours_from_a_time_said_before_its_day():
    turn = ("The snow finally quit around 4:30 yesterday afternoon. Our gift shop is downtown in the business "
            "district. What's our deadline to have the sidewalk out front cleared?")
    sentence = ("Snow and ice shall be so removed from sidewalks in all business districts within 24 hours after the "
                "cessation of all fall of snow, sleet or freezing rain.")
    got = periods.count_from(turn, read_slots(turn, ref=WED), [sentence])
    assert [c.day.isoformat() for c in got] == ["2026-12-09T16:30:00"]


@pytest.mark.parametrize("turn, event", [
    ("The village turned down my request to skip putting in a sidewalk. What's my last day to appeal?",
     "such official action"),
])
def test_a_day_of_ones_own_asked_without_a_date_asks_for_the_events(turn, event):
    sentence = ("Any person aggrieved by the decision or action of the Chief Administrative Officer may appeal to the "
                "Board of Zoning Appeals within 10 days of such official action.")
    need = periods.day_needed(turn, read_slots(turn, ref=WED), [sentence])
    assert need is not None and need.event == event and need.words == "within 10 days of"


@pytest.mark.parametrize("turn", [
    "What is the deadline to appeal a decision on a sidewalk exception?",  # the rule, not one's own day
    "The village turned down my request on December 1. What's my last day to appeal?",  # a date: counted instead
    "How long do I have to appeal?",  # a period, not a day
])
def test_no_date_is_asked_for_a_rule_a_dated_event_or_a_period(turn):
    sentence = "Any person aggrieved by the decision may appeal to the Board of Zoning Appeals within 10 days of such official action."
    assert periods.day_needed(turn, read_slots(turn, ref=WED), [sentence]) is None


def test_the_date_asked_for_names_the_event_and_the_period():
    text = phrasing.day_needed("such official action", "within 10 days of")
    assert text.startswith("the date of the official action") and "“within 10 days of such official action”" in text


def test_a_time_of_day_before_its_day():
    assert [(s.value, s.span.text) for s in read_slots("it quit around 4:30 yesterday afternoon", ref=WED)
            if s.kind == "time"] == [("16:30", "4:30")]


# -- counts, materials, prices ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, counted", [
    ("ISD impounded 5 of our store's shopping carts", "carts"), ("we own 3 dump trucks", "trucks"),
    ("5 carts was all", "carts"), ("7 newsracks on Highland Ave", "newsracks"), ("2 employees worked", "employees"),
])
def test_what_a_number_counts(text, counted):
    assert [w for _, w, _ in counts_in(text)][:1] == [counted]


CARTS = ("by paying (i) a fee for the removal of the carts) in the amount of twenty dollars and no cents ($20.00) for each "
         "of the first three (3) carts and forty dollars and no cents ($40.00) for each additional cart thereafter and "
         "(ii) a fee for the storage of the cart(s) in the amount of five dollars and no cents ($5.00) per cart per day.")


def test_tiers_and_storage_for_carts_counted_after_a_possessive():
    turn = ("ISD impounded 5 of our store's shopping carts. We're picking them up after they've been in storage for 4 "
            "days. How much do we have to pay to get them back?")
    w = tier_fee(turn, read_slots(turn, ref=WED), CARTS)
    assert w is not None and str(w.result) == "240.00"


CURING = ("The material shall be applied in one or more separate coats with an approved mechanical spray at a minimum "
          "rate of one gallon of material for each 200 square feet of surface treated.")


def test_material_for_an_area_at_a_rate_of_application():
    turn = "Pouring a walk 5 ft wide by 120 ft long. What's the least amount of curing compound I can put down on it?"
    w = material_for_area(turn, read_slots(turn, ref=WED), [CURING])
    assert w is not None and w.shown() == "3 gallons" and "at least 3 gallons" in w.steps[0]
    assert rates.work_out(turn, read_slots(turn, ref=WED), [(CURING, CURING)])[0].shown() == "3 gallons"


@pytest.mark.parametrize("turn", [
    "Pouring a walk 5 ft wide by 120 ft long. How much will the curing compound cost?",  # money asked
    "How much curing compound do I need for my walk?",  # no area
])
def test_no_material_without_an_area_or_when_money_is_asked(turn):
    assert material_for_area(turn, read_slots(turn, ref=WED), [CURING]) is None


def test_a_quantity_at_a_price_per_its_unit_is_one_amount():
    text = "It's two grand in labor, a dozen tons of stone at twenty-five bucks a ton, and six hundred for equipment."
    money = [(s.value, s.span.text) for s in priced(read_slots(text, ref=WED), text) if s.kind == "money"]
    assert money == [("2000", "two grand"), ("300", "a dozen tons of stone at twenty-five bucks a ton"),
                     ("600", "six hundred")]


@pytest.mark.parametrize("turn, asked", [
    ("How much is the city's excavation permit fee going to be?", True),
    ("What's the total we'll owe the city this year?", True),
    ("What is the excavation permit fee?", False),
])
def test_ones_own_amount_asks_the_quantity_a_rate_charges_by(turn, asked):
    sentence = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area; and "
                "$0.25 for each additional square foot.")
    assert (rates.needs_quantity(turn, read_slots(turn, ref=WED), sentence) is not None) is asked


# -- a repair bill ------------------------------------------------------------------------------------------
def test_a_repair_bill_with_material_priced_per_ton(assistant):
    a = assistant.ask("The Village fixed deficiencies on our street opening. It's two grand in labor, a dozen tons of "
                      "stone at twenty-five bucks a ton, and six hundred for equipment. With their administration "
                      "add-on, what's the total?", "brandon")
    assert a.status == "answered" and "**$3,480.00**" in a.answer and "$300.00" in a.answer


def test_a_repair_bill_amount_no_word_labels_is_asked_about_not_taken_as_zero(assistant):
    a = assistant.ask("The Village repaired our faulty street opening: $2,000 labor, $600 equipment and another $450. "
                      "With the administration add-on, what's the total?", "brandon")
    assert a.status == "clarify" and "“$450”" in a.answer and "$3,120.00" not in a.answer


# -- fines by offense ---------------------------------------------------------------------------------------
GRADUATED = ("Any person violating this section shall be subject to a fine of fifty ($50.00) dollars for a first offense "
             "and one hundred ($100.00) dollars for a second or any subsequent offense.")


@pytest.mark.parametrize("turn, asked", [
    ("One of our tour customers got cited riding on the sidewalk. How much is the company going to be fined for this one?",
     True),
    ("We got cited for a second offense. How much is the fine?", False),  # said which
    ("We got cited again. How much is the fine?", False),  # "again": left to the quotes
    ("We were cited 3 times this year. What's the total?", False),  # a count of offenses
])
def test_a_fine_by_offense_asks_which_offense_it_is_when_not_said(turn, asked):
    steps = fines.offense_needed(turn, GRADUATED)
    assert (steps is not None) is asked
    if asked:
        assert steps == ("fifty ($50.00) dollars for a first offense",
                         "one hundred ($100.00) dollars for a second or any subsequent offense")


# -- parties ------------------------------------------------------------------------------------------------
def test_who_owes_what_asks_about_each_party(assistant):
    from assistant.answering.parties import EACH

    assert EACH.search("Who owes what and who gets money back?") and not EACH.search("Who owes the Town?")
    a = assistant.ask("My neighbor and I both used the Town's asphalt crew for our driveway aprons. I put down a $1,800 "
                      "deposit and my final cost came to $2,115. He put down $2,400 and his came to $2,262.75. Who owes "
                      "what and who gets money back?", "delafield")
    assert a.status == "answered" and "**$315.00**" in a.answer and "**$137.25**" in a.answer


# -- plain words for the municipality doing the work, and the sentence worked from quoted first --------------
@pytest.mark.parametrize("question", [
    "I didn't clear my walk in time and the city did it. Their cost came to $375. What will they come after me for?",
    "The city cleared the ice off my sidewalk while I was away. What's the total they can come after me for?",
])
def test_the_municipality_doing_the_work_meets_the_codes_words(question):
    from assistant.retrieval.expansion import expand

    got = expand(question)
    assert {"cause", "such", "work", "done", "liable"} <= set(got.lower().split())


# -- an amount chosen by its condition, and a fee in tiers with the other charge asked with it -------------
DEPOSIT = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a paved "
           "area and shall insure the proper restoration of the ground.")
TIER_FEE = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area; and $0.25 "
            "for each additional square foot; but not to exceed $100.00 for any permit.")


@pytest.mark.parametrize("turn, amount", [
    ("a cut on a paved city street", "75"), ("a gravel alley, no paving anywhere", "25"),
    ("a pit in a gravel (unpaved) alley", "25"), ("the street is not paved", "25"),
    ("a cut in the alley", None),  # no condition said
    ("the paved part and the unpaved part", None),  # both said
])
def test_an_amount_chosen_by_the_condition_the_question_says(turn, amount):
    from assistant.answering.alternatives import amount_by_condition

    got = amount_by_condition(turn, DEPOSIT)
    assert (got.amount.value if got else None) == amount


def test_a_fee_in_tiers_with_the_deposit_asked_together():
    from assistant.answering.tiers import with_other_charge

    turn = ("Excavation in the gravel alley, no paving anywhere, about 10 ft by 7 ft. What's the permit fee and how much "
            "do I hand the clerk altogether with the cash deposit?")
    w = with_other_charge(turn, read_slots(turn, ref=WED), TIER_FEE, [TIER_FEE, DEPOSIT])
    assert w is not None and str(w.result) == "38.25" and any("$13.25" in s for s in w.steps)
    # a charge the quotes do not price: nothing worked out
    assert with_other_charge(turn.replace("cash deposit", "bond"), read_slots(turn, ref=WED), TIER_FEE,
                             [TIER_FEE, DEPOSIT]) is None


def test_a_rate_in_addition_to_the_sections_own_fee_adds_it_for_a_total():
    section = ("There shall be a certificate of compliance fee in the amount of $50.00. This fee shall be due upon initial "
               "application and upon each annual renewal. In addition to the certificate of compliance fee, an annual fee "
               "of $25.00 per newsrack authorized shall be paid to the city.")
    rate = ("In addition to the certificate of compliance fee, an annual fee of $25.00 per newsrack authorized shall be "
            "paid to the city.")
    turn = "New applicant here: we want 7 newsracks around Union Square. What's the total we pay the city in fees?"
    w = rates.work_out(turn, read_slots(turn, ref=WED), [(rate, section)])
    assert [x.shown() for x in w] == ["$225.00"] and w[0].others
    # not a total: the product alone is no answer, and nothing is worked out
    turn = "We want 7 newsracks. What is the annual fee for them?"
    assert rates.work_out(turn, read_slots(turn, ref=WED), [(rate, section)]) == []


def test_a_weight_bought_at_a_price_is_no_vehicles(assistant):
    a = assistant.ask("Town asphalt svc on my drive apron, final bill: labor 6.5 hrs @ $95/hr; mix 11.2 tons @ $78/ton; "
                      "admin $150. Dep. was $1,900. Refund or owe, and how much?", "delafield")
    assert not any(c.name == "heavy_vehicle_check" for c in a.tool_calls) and "tons over" not in a.answer


def test_a_period_the_question_names_picks_the_rule_that_counts_it(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-16")
    a = assistant.ask("Got a sidewalk repair notice today and I want to do the work myself. What's my last day to get "
                      "it done if the 60 days start today?", "brandon")
    assert a.status == "answered" and "**February 16, 2027**" in a.answer and "December 14, 2026" not in a.answer


@pytest.mark.parametrize("text, value, span", [
    ("it was paved back in October", "2026-10-01", "back in October"),
    ("it was paved back in October 2025", "2025-10-01", "in October 2025"),
])
def test_back_in_a_month(text, value, span):
    got = [(s.value, s.span.text) for s in read_slots(text, ref=date(2027, 1, 11)) if s.kind == "date"]
    assert got == [(value, span)]


def test_a_fine_by_offense_beside_a_further_fine_is_left_to_the_quotes():
    section = (GRADUATED + " In addition to the fines stated above, any tour operator violating the provisions of this "
               "section shall be subject to a fine of five hundred ($500.00) dollars for each offense.")
    turn = "Our tour company got written up again yesterday, our second violation. What fine is the company looking at?"
    assert rates.work_out(turn, read_slots(turn, ref=WED), [(GRADUATED, section)]) == []


def test_a_fine_asked_of_a_plan_is_not_asked_which_offense():
    assert fines.offense_needed("Thinking of starting a party bike business. What's the fine if we get caught?",
                                GRADUATED) is None
