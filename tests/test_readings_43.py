"""Session 43: readings that decide a figure or an ask, on any question.

Several areas of one job are summed (a walk told by its width and length beside an apron told "10 x 18"), and a
measure in feet left out of every area read stops the figure; a charge by the month, asked with the total of one
month past due, adds that month; of two periods tied to the user's day, the one whose own event words are the day's
is counted before one tied only by a "such" that points back; "what's the total?" of tickets left unpaid is what is
owed now; "nine-thirty at night" is a time; hours that run only in daylight are counted with the sunrise and sunset
the user gives, and not counted when a time they need is not given.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

import pytest

from assistant.answering import daylight, late_fines, materials, periods, rates
from assistant.answering.reading import read_slots

_CURING = ("The material shall be applied in one or more separate coats with an approved mechanical spray at a minimum "
           "rate of one gallon of material for each 200 square feet of surface treated.")


# -- several areas of one job ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("turn, gallons", [
    ("Job is a 4 ft wide walk, 85 feet long, plus a 12 x 10 ft residential driveway apron. What's the least amount "
     "of curing compound I can put down and still meet the village spec?", Decimal("2.3")),
    ("Job on Maple: new walk four feet wide and eighty-five feet long, four inches thick, plus a residential apron "
     "10 x 18. What's the minimum curing compound I have to spray on all of it per the village spec?", Decimal("2.6")),
    ("How much curing material do I need for 60 ft of 4 ft wide walk plus a residential apron 12 ft by 10 ft?",
     Decimal("1.8")),
])
def test_the_areas_of_one_job_are_summed(turn, gallons):
    w = materials.material_for_area(turn, read_slots(turn), [_CURING])
    assert w is not None and w.result == gallons, w


def test_a_measure_in_feet_left_out_of_every_area_gives_no_figure():
    turn = ("We're pouring a walk 85 feet long and a 12 x 10 ft apron. How much curing compound is the minimum?")
    assert materials.material_for_area(turn, read_slots(turn), [_CURING]) is None


def test_bare_times_x_is_read_in_feet_only_beside_feet():
    turn = "How many gallons of curing compound for an apron 10 x 18?"
    assert materials.material_for_area(turn, read_slots(turn), [_CURING]) is None


# -- a charge by the month, and the total of one month --------------------------------------------------------------
_SERVICE = ("On past-due invoices a service charge of one and one-half percent per month will be allowed on accounts "
            "30 days past due provided the rate does not exceed that which is permitted by law.")


def test_one_months_charge_is_added_when_the_total_is_asked():
    turn = ("The city's patching contractor billed us $4,800 for the temp patch and it's now thirty days past due. "
            "What's the late charge and what's the total if we pay it this week?")
    slots = read_slots(turn)
    w = rates.percent_of(turn, _SERVICE, _SERVICE, rates.money_asked(slots))
    assert w is not None and w.result == Decimal("72.00")
    assert "$4,800.00 + $72.00 = $4,872.00" in w.steps[-1]


def test_no_total_is_added_when_the_months_are_not_told():
    turn = "We got billed $4,800 and haven't paid. What's the total with the late charge?"
    w = rates.percent_of(turn, _SERVICE, _SERVICE, rates.money_asked(read_slots(turn)))
    assert w is not None and not any("4,872" in s for s in w.steps)


# -- the period whose own event is the user's day ---------------------------------------------------------------------
def test_a_period_of_the_days_own_event_beats_one_tied_by_such():
    sixty = ("If the wireless provider fails to notify the city of the abandonment or fails to remove the abandoned "
             "facility within 60 days of such notice, the city may undertake to do so and recover the actual and "
             "reasonable expenses of doing so from the wireless provider, its successors or assigns.")
    thirty = ("A wireless provider is required to notify the city of abandonment of any small wireless facility no less "
              "than 30 days prior to abandonment.")
    turn = "one of the nodes we're going to abandon on Friday November 14th. last day to give the city notice?"
    got = periods.count_from(turn, read_slots(turn, ref=date(2031, 7, 15)), [sixty, thirty])
    assert len(got) == 1 and got[0].day == date(2031, 10, 15), got


# -- tickets left unpaid, "what's the total?" -------------------------------------------------------------------------
def test_whats_the_total_of_unpaid_tickets_is_owed_now():
    fine = ("Any person violating the provisions of this section shall be subject to a fine of one hundred dollars and "
            "no cents ($100.00) for each offense.")
    rise = ("This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) "
            "days after issuance of a notice of the violation.")
    turn = ("Our delivery van got two tickets for stopping in the bike lane on Mass Ave, one the day before Halloween "
            "and one last Monday. Neither is paid yet. If I pay both today, what's the total?")
    today = date(2028, 12, 4)
    assert late_fines.asks_owed(turn)
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(fine, f"{fine} {rise}"), (rise, f"{fine} {rise}")], today)
    assert w is not None and w.result == Decimal("233.00"), w
    assert rates._NOT_PAID.search("Neither is paid yet.")


# -- a time said in words ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("the snow finally quits around nine-thirty at night", "21:30"),
    ("it stopped at ten forty-five tonight", "22:45"),
    ("about seven-twenty in the morning", "07:20"),
])
def test_hyphenated_word_times(text, value):
    assert [s.value for s in read_slots(text) if s.kind == "time"] == [value]


def test_ten_thirty_foot_boards_is_no_time():
    assert not [s for s in read_slots("we need ten thirty foot boards") if s.kind == "time"]


# -- hours in daylight only -------------------------------------------------------------------------------------------
_SIX = ("A person, including an owner, occupant, tenant, or agent, in charge of land or a building may not place snow "
        "or ice, or allow it to remain, on an abutting sidewalk for more than six hours between sunrise and sunset "
        "following the conclusion of a weather event, or as otherwise extended by the city in its discretion.")
_EIGHT = ("Such work shall be completed within a reasonable time, but no later than the end of the first eight hours of "
          "daylight after the cessation of any fall of snow, sleet or freezing rain.")
_WHICHEVER = ("Except as provided in division (B) below, snow and ice shall be so removed from all other sidewalks within "
              "the city on the same day of the cessation of any fall of snow, sleet or freezing rain within the first "
              "six hours of daylight after the cessation of any such fall, whichever period is longer.")


def test_daylight_hours_run_past_sunset_to_the_next_morning():
    turn = ("Say the snow quits at 2:30 in the afternoon, sunset's 4:15, and the sun comes back up at 7:05 the next "
            "morning. What's the actual deadline to have the sidewalk clear?")
    got = daylight.count(turn, read_slots(turn), [_SIX], date(2031, 12, 1))
    assert got is not None and got.end == datetime(2031, 12, 2, 11, 20) and not got.unsure
    counted = periods.count_from(turn, read_slots(turn), [_SIX])
    assert len(counted) == 1 and counted[0].day.time().strftime("%H:%M") == "11:20" and counted[0].any_day


def test_daylight_hours_start_at_sunrise_and_say_the_sunset_they_assume():
    turn = ("This coming January 8th the forecast says snow stopping around 2 AM, and sunrise that morning is 7:35. "
            "How late can I leave the snow on the roof?")
    got = daylight.count(turn, read_slots(turn, ref=date(2031, 7, 15)), [_EIGHT], date(2032, 1, 8))
    assert got is not None and got.end == datetime(2032, 1, 8, 15, 35)
    assert "sun is still up at 3:35 PM" in got.unsure


@pytest.mark.parametrize("turn, sentence", [
    # begun after sunrise with no sunset: whether the hours cross it is unknown
    ("Snow ended at 10 pm last night, sun comes up at 7:20. What's the deadline to clear the walk?", _SIX),
    # another period beside the daylight hours, the longer of the two
    ("Snow ended at 10 pm last night, sun comes up at 7:20 and sunset is 4:40. What's the deadline?", _WHICHEVER),
    # no sunrise or sunset given
    ("Snow ended at 2:30 in the afternoon. What's the deadline?", _SIX),
])
def test_daylight_hours_are_not_counted_without_what_they_need(turn, sentence):
    assert daylight.count(turn, read_slots(turn), [sentence], date(2031, 12, 1)) is None


def test_sunrise_and_sunset_are_read_morning_and_evening():
    rise, set_ = daylight.sun_times("sunset's 4:15, and the sun comes back up at 7:05 the next morning")
    assert rise.at.strftime("%H:%M") == "07:05" and set_.at.strftime("%H:%M") == "16:15"


# -- two bills against guarantees, a posted limit, amounts said in words after a cue ----------------------------------
def test_a_second_bill_joined_by_and_is_asked_never_left_out(assistant):
    ans = assistant.ask("Each lot has a $1,500 financial guarantee posted with the Town of Delafield. The town fixed curb "
                        "damage and billed $620 for lot 4 and $275 for lot 9. We let both bills go past 30 days unpaid. "
                        "What do I get back on each lot?", municipality="delafield")
    assert ans.status == "clarify" and "$880" not in ans.answer, ans.answer


@pytest.mark.parametrize("text, value", [
    ("The estimate they mailed says eleven and a half thousand for the whole stretch.", Decimal("11500")),
    ("the bill came back at two thousand eight hundred and five.", Decimal("2805")),
])
def test_amounts_in_words_after_a_cost_word_are_money(text, value):
    money = [s for s in read_slots(text) if s.kind == "money"]
    assert [s.number for s in money] == [value]


def test_a_period_after_a_cost_word_stays_a_period():
    assert not [s for s in read_slots("the permit they sent says 30 days and the bond says 2 years") if s.kind == "money"]


def test_what_signs_say_far_from_the_word_signs_is_the_limit():
    from assistant.answering import limits

    turn = ("Spring weight limit signs are up on the Town road to our gravel pit, they say 6 tons. My dump truck "
            "loaded grosses 13,400 lbs.")
    weights = [s for s in read_slots(turn) if s.kind == "weight"]
    told = {s.span.text: limits.told_limit(s) for s in weights}
    assert told == {"6 tons": True, "13,400 lbs": False}, told


def test_the_share_asked_is_found_in_a_later_sentence_of_the_section():
    turn = ("Public Works cleared my walk after the last storm because I didn't get to it. What's the total bill going "
            "to be with the penalty?")
    penalty = ("Each such person or entity by whose failure makes it necessary that the Director of Public Works causes "
               "work to be done, shall be liable to the city for the cost of such work, plus a penalty of 10% of such "
               "cost.")
    assert rates.needs_amount(turn, read_slots(turn), penalty) == "the cost of the work"


def test_we_ask_our_own_amount():
    assert rates.asks_own_amount("What's the total we'd pay the city in fees for the first year?")


def test_the_sun_sets_said_after_it_rises():
    rise, set_ = daylight.sun_times("Sun comes up about 7:00 and sets around 4:15.")
    assert rise.at.strftime("%H:%M") == "07:00" and set_.at.strftime("%H:%M") == "16:15"
    assert daylight.sun_times("The concrete sets around 4 hours after the pour.") == (None, None)


# -- a day asked of a thing taken, a period of the law's own day, an act said plainly ---------------------------------
def test_a_day_asked_of_a_thing_taken_is_no_fee():
    from assistant.answering import daily_fees

    fee = ("A newsrack removed pursuant to this section may be retrieved by the certificate holder at any time within "
           "30 days of its removal upon payment of a removal fee of $25.00 plus a storage fee of $5.00 per day, to a "
           "maximum combined removal and storage fee of $100.00.")
    today = date(2031, 7, 15)
    asked_day = ("The city pulled one of our newspaper boxes off Highland Ave three weeks ago yesterday. What's the last "
                 "day we can still get it back before it becomes city property?")
    asked_fee = ("The city pulled one of our newspaper boxes off Highland Ave three weeks ago yesterday. If our driver "
                 "goes to get it today, what's the damage?")
    assert daily_fees.owed(asked_day, read_slots(asked_day, ref=today), [fee], today) is None
    w = daily_fees.owed(asked_fee, read_slots(asked_fee, ref=today), [fee], today)
    assert w is not None and w.result == Decimal("100.00")


def test_taken_off_a_named_street_is_a_removal():
    from assistant.retrieval.expansion import expand

    assert "removal" in expand("The city pulled one of our newspaper boxes off Highland Ave three weeks ago")


def test_no_users_day_starts_a_period_from_the_laws_own_day():
    law = ("Plans must be submitted to the superintendent within 60 days of the effective date of this article, and must "
           "include an effective and specific method of retrieving the store's shopping carts found on public property.")
    turn = ("Inspectional services rejected our shopping cart retrieval plan in a letter dated Friday, November 17. "
            "What's the last day we can get the revised plan back to them?")
    assert periods.count_from(turn, read_slots(turn, ref=date(2028, 12, 4)), [law]) == []


def test_getting_a_revised_plan_back_is_the_resubmission_timed():
    law = ("Plans must be submitted to the superintendent within 60 days of the effective date of this article, and must "
           "include an effective and specific method of retrieving the store's shopping carts found on public property.")
    resubmit = ("The store shall modify the plan and resubmit it to the superintendent no later than 30 days after the "
                "date of its rejection.")
    turn = ("Inspectional services rejected our shopping cart retrieval plan in a letter dated Friday, November 17. "
            "What's the last day we can get the revised plan back to them?")
    got = periods.count_from(turn, read_slots(turn, ref=date(2028, 12, 4)), [law, resubmit])
    assert len(got) == 1 and got[0].day == date(2028, 12, 17), got  # (on the calendar; the state's rule moves it)


def test_a_paved_street_opened_is_no_paving_date():
    from assistant.answering.roles import PAVED

    assert not PAVED.search("Need to open a paved Brandon street the first week of June 2027")
    assert PAVED.search("it was paved last June") and PAVED.search("the final paving on it in August 2023")


def test_surcharge_with_a_paved_street_opened_in_a_week(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-03-30")
    ans = assistant.ask("Need to open a paved Brandon street the first week of June 2027. Village finished the final "
                        "paving on it in August 2023. Clerk says the permit fee is $150. What's the surcharge going to "
                        "be in dollars?", municipality="brandon")
    assert ans.status == "answered" and "$300.00" in ans.answer, ans.answer


def test_the_code_deposit_less_a_cost_spent():
    deposit = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a "
               "paved area and shall insure the proper restoration of the ground and laying of the pavement, if any.")
    deducted = ("From this deposit shall be deducted the expense to the city of relaying the surface of the ground or "
                "pavement, and of making the refill if this is done by the city or at its expense.")
    section = f"{deposit} {deducted}"
    turn = "Say the city ends up spending $48 relaying the pavement over it. How much do I get back?"
    got = rates.work_out(turn, read_slots(turn), [(deposit, section), (deducted, section)],
                         earlier="Need to open up a paved street to repair a sewer lateral.")
    assert len(got) == 1 and got[0].result == Decimal("27.00"), got


def test_two_asks_of_a_day_each_count_their_own_period():
    walk = "Foot traffic on the walk shall not be permitted for forty-eight hours after placing the concrete."
    edges = "Forms shall be left in place for at least twenty-four hours after placing the concrete."
    turn = ("The crew poured our new front walk yesterday around 10 in the morning. When can anybody walk on it, and "
            "when can the crew pull the forms off?")
    slots = read_slots(turn, ref=date(2031, 7, 15))
    got = periods.count_from(turn, slots, [walk, edges])
    assert [(c.sentence, c.day) for c in got] == [(walk, datetime(2031, 7, 16, 10, 0)), (edges, datetime(2031, 7, 15, 10, 0))]


@pytest.mark.parametrize("text, counted", [
    ("We're putting in seven small cell nodes on city poles", "nodes"),
    ("four big dump trucks", "trucks"),
    ("5 foot wide walks", "foot"),
    ("three separate days", "days"),
])
def test_the_thing_counted_is_the_plural_after_two_words(text, counted):
    from assistant.answering.worked import counts_in

    assert [w for _, w, _ in counts_in(text)] == [counted]


_SCOPE = [
    ("chagrin-falls", "We want to close off our street for a block party next June. Who do we ask and how far ahead?", True),
    ("chagrin-falls", "Is it ok to leave my boat trailer parked on the street in front of my house overnight, or will I get "
                      "a ticket?", True),
    ("delafield", "We are putting in a new culvert under the driveway. Who do we ask and how far ahead?", False),
    ("brandon", "The sidewalk in front of my house is cracked. Is that allowed?", False),
]


def test_a_topic_told_before_a_bare_ask_sets_the_scope(with_samples):
    a = with_samples("chagrin-falls")
    assert [a.embedded._off_topic(q, m) for m, q, _ in _SCOPE] == [off for _, _, off in _SCOPE]


def test_what_can_happen_if_i_break_the_rules_asks_the_penalty():
    from assistant.answering.planner import PENALTY_Q
    from assistant.retrieval.expansion import expand

    q = "What can actually happen to me if I break the sidewalk rules? Like worst case."
    assert PENALTY_Q.search(q) and "penalty" in expand(q)
    assert not PENALTY_Q.search("What can happen to the sidewalk in winter?")


def test_daylight_hours_with_no_sunrise_ask_for_it():
    turn = "If the snow stops at 3 in the morning, what time do I have to have the snow off my roof by?"
    assert daylight.sun_needed(turn, read_slots(turn), [_EIGHT]) == ("eight hours of daylight", _EIGHT)
    told = turn + " Sunrise is 7:10."
    assert daylight.sun_needed(told, read_slots(told), [_EIGHT]) is None
    assert daylight.sun_needed(turn, read_slots(turn), [_WHICHEVER]) is None


def test_the_reply_with_the_sunrise_is_counted_with_the_question(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2031-07-15")
    a = with_samples("williams")
    q = "If the snow stops at 3 in the morning, what time do I have to have the snow off my roof by?"
    first = a.ask(q, municipality="williams")
    assert first.status == "clarify" and "sunrise" in first.answer
    second = a.ask("Sunrise is around 7:10.", municipality="williams",
                   history=[{"role": "user", "content": q}, {"role": "assistant", "content": first.answer}])
    assert second.status == "answered" and "**3:10 PM**" in second.answer, second.answer


def test_get_it_of_a_permit_named_before_is_the_permit(assistant, monkeypatch):
    from assistant.answering.routes.deadlines import _asking

    assert _asking("He says I pull the permit. What's the last day I can get it?") == \
        "What's the last day I can get the permit?"
    monkeypatch.setenv("ASSISTANT_TODAY", "2030-05-21")
    ans = assistant.ask("My contractor wants to pour a new public walk out front on Friday, May 31. He says I pull the "
                        "permit. What's the last day I can get it?", municipality="brandon")
    assert ans.status == "answered" and "May 29, 2030" in ans.answer, ans.answer


def test_the_one_depth_told_is_kept_clear_of_the_surface_among_distractors():
    from assistant.answering import slopes

    rule = ("When any excavation is made in an existing or proposed pavement or driveway, or within 5' of the edge "
            "thereof, all excavated material must be removed and the excavation backfilled to within 5\" of the surface "
            "within 1 1/2\" maximum crushed gravel containing at least 60% crushed stone.")
    turn = ("Trench goes across the driveway apron, 42 inches deep, 30 ft long, 4 guys on it, homeowner's paying "
            "$6,200. How many inches of crushed gravel go back in before the surface?")
    w = slopes.remainder(turn, read_slots(turn), [(rule, rule)])
    assert w is not None and w.result == Decimal("37"), w
    two = "Trench is 42 inches deep here and 30 inches deep there. How many inches of gravel before the surface?"
    assert slopes.remainder(two, read_slots(two), [(rule, rule)]) is None


def test_a_sunset_on_the_24_hour_clock_is_not_read_as_one_oclock():
    assert daylight.sun_times("sunset is 16:15") == (None, None)


def test_a_cut_in_the_asphalt_is_a_paved_excavation():
    from assistant.answering.alternatives import amount_by_condition
    from assistant.retrieval.expansion import expand

    deposit = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a "
               "paved area and shall insure the proper restoration of the ground and laying of the pavement, if any.")
    assert amount_by_condition("a 3 ft by 7 ft cut in the asphalt", deposit).amount.number == Decimal("75")
    assert amount_by_condition("a gravel alley, no asphalt anywhere", deposit).amount.number == Decimal("25")
    assert "excavation" in expand("a 3 ft by 7 ft cut in the asphalt") and "excavation" not in expand("a curb cut")


def test_how_much_should_the_edge_sit_below_asks_a_rise():
    from assistant.answering import slopes

    rule = "Sidewalks shall have a uniform cross slope of one-quarter inch per foot of width toward the street center line."
    turn = "Our new walk is seven feet wide. How much should the street edge sit below the back edge?"
    w = slopes.rise(turn, read_slots(turn), [(rule, rule)])
    assert w is not None and w.result == Decimal("1.75"), w
