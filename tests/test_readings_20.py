"""Readings of session 20, for any code: a money figure is a rate only by the words of its own sentence; a metric
length is read (in inches, 2.54 cm to the inch); a measurement in another unit and ten times off a limit is of another
thing; a storefront's length is no walk's width; a part of a part of the blocks is asked about; a month "of this year";
the price of one opening is the permit fee; "the block" the neighbours live on obstructs nothing; what a fine left
unpaid rises to, and when; business days counted on the municipality's state's calendar of legal holidays."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from assistant.answering import late_fines, limits, periods, roles, slopes
from assistant.answering.reading import read_query, read_slots
from assistant.retrieval.expansion import expand


def after(first: str, reply: str = "Here is what the code says: ...") -> list:
    from assistant.types import ChatTurn

    return [ChatTurn(role="user", content=first), ChatTurn(role="assistant", content=reply)]


# -- a rate is read from the words of its own sentence -----------------------------------------------------------
def test_a_fine_told_after_an_hourly_rate_is_no_second_rate():
    q = read_query("Two guys, about an hour and a half each, and the letter says their rate with benefits is "
                   "thirty-eight fifty an hour. It also mentions a $30 minimum fine. What will the removal charge come to?")
    work = roles.snow_values(q)
    assert work.ambiguous is None and work.missing is None
    assert [e["hourly_rate_including_benefits"] for e in work.employees] == ["38.5", "38.5"]


# -- lengths in metric units ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("words, inches", [("1.5 meters", "59.06"), ("40 cm", "15.75"), ("12 mm", "0.47"),
                                           ("3 metres", "118.11")])
def test_a_metric_length_is_read_in_inches_and_says_how(words, inches):
    (s,) = [x for x in read_slots(f"it is {words} over there") if x.kind == "length"]
    assert (s.value, s.unit, s.span.text) == (inches, "in", words)
    assert "2.54 centimeters to the inch" in s.worked


def test_a_rise_in_meters_over_a_run_in_feet_is_a_slope():
    turn = "Planning a new driveway: it rises 1.5 meters over 40 feet from the road to the garage. Is that over the limit?"
    (pct,) = limits.rise_over_run(turn, read_slots(turn))
    assert pct.value == "12.3"  # 59.06 in over 480 in


# -- a measurement ten times off a limit in another unit is of another thing ---------------------------------------
def test_a_pavement_in_feet_is_not_held_against_a_thickness_in_inches():
    turn = ("Developer road we're building for the town to take over, 28-foot pavement, and the whole stretch is wet "
            "ground. Is the stone under it thick enough?")
    sentence = 'After the subgrade has been approved, the contractor shall place a minimum of 10" of crushed aggregate on the road bed in 2 lifts.'
    assert limits.check_against(turn, read_slots(turn), [sentence]) == []
    near = "Hit rock and took it down a foot and a half below finished grade. Is that deep enough?"
    (c,) = limits.check_against(near, read_slots(near), ['Rock shall be excavated to at least 20" below finished grade.'])
    assert c.difference == Decimal(2)  # feet against inches, but of one size: held


# -- a storefront's length is no walk's width ----------------------------------------------------------------------
def test_a_storefronts_length_is_neither_a_width_limit_nor_the_run_of_a_slope_per_foot_of_width(assistant, monkeypatch):
    turn = ("Forming a new walk in front of a shop on Main, 40 ft of storefront, and the owner wants the narrowest width "
            "the village allows for commercial. How much lower does the curb edge have to be than the building edge?")
    slope = ("To provide adequate drainage, the sidewalk shall slope toward the curb at a minimum rate of 1/2 inch per "
             "foot of width of sidewalk.")
    assert slopes.rise(turn, read_slots(turn), [(slope, "")]) is None
    assert limits.check_against(turn, read_slots(turn), ["Commercial walks shall be not less than eight feet wide."]) == []
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-21")
    a = assistant.ask(turn, "brandon")
    assert "20 inches" not in a.answer
    wide = assistant.ask("Our commercial sidewalk is 9 feet wide. How much lower must the curb edge be?", "brandon")
    assert "**4.5 inches**" in wide.answer


# -- a part of a part is asked about --------------------------------------------------------------------------------
def test_a_part_of_the_marked_blocks_asks_which_count_is_final(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("Inspector went over my 18 sidewalk squares and marked eleven, but he said two of those are "
                      "\"borderline\" and might come off the list. Is the whole walk getting replaced?", "brandon")
    assert a.status == "clarify" and "eleven" in a.answer and "%" not in a.answer
    b = assistant.ask("We have 30 squares in front of our house at 123 Elm; 20 of those are cracked. Whole walk "
                      "replaced?", "brandon")
    assert b.status == "answered" and "66.67%" in b.answer


# -- a month of this year; the price of one opening ----------------------------------------------------------------
@pytest.mark.parametrize("words, day", [("in January of this year", date(2027, 1, 1)),
                                        ("March of last year", date(2026, 3, 1)), ("June this year", date(2027, 6, 1))])
def test_a_month_of_a_named_year(words, day):
    (s,) = [x for x in read_slots(f"the paving went down {words}.", ref=date(2027, 9, 8)) if x.kind == "date"]
    assert (s.day, s.precision) == (day, "month")


def test_the_price_of_one_opening_is_the_permit_fee_and_each_cut_gets_its_surcharge(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    q = read_query("We open Elm St on October 4. It was paved in March 2024. The fee is $150 per opening. What surcharge?",
                   ref=date(2027, 9, 8))
    assert roles.surcharge_values(q).fee.number == Decimal(150)
    a = assistant.ask("Two lateral cuts on one application, both to be opened Monday, October 4. One is on Elm St, where "
                      "the final paving went down in January of this year. The other is on Main St, last paved in March "
                      "2024. The Clerk says the fee is $150 per opening. What surcharge goes with each cut?", "brandon")
    assert "**$750.00**" in a.answer and "**$300.00**" in a.answer


# -- the block the neighbours live on ------------------------------------------------------------------------------
def test_the_block_one_lives_on_obstructs_nothing_and_a_follow_up_names_its_own_notice(assistant, monkeypatch):
    assert "obstruct" not in expand("the neighbors on the block who'll be affected", "brandon")
    assert "obstruct" in expand("the dumpster blocks the sidewalk", "brandon")
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-21")
    a = assistant.ask("and the neighbors on the block who'll be affected, when do they need to hear from us?", "brandon",
                      history=after("We're starting a sewer lateral dig in the village at 7am on Monday, April 10. "
                                    "What's the latest we can let the public works director know?"))
    assert next(c.arguments["rule"] for c in a.tool_calls if c.name == "deadline") == "brandon_notice_affected"
    assert "April 7, 2028" in a.answer


# -- what a fine left unpaid rises to -------------------------------------------------------------------------------
RISE = "This fine shall increase by thirty-three dollars ($33.00) if it remains unpaid at least twenty-one (21) days after issuance of a notice of the violation."
SECTION = ("Any person violating the provisions of this section shall be subject to a fine of one hundred dollars and no "
           "cents ($100.00) for each offense. " + RISE)


def test_asked_what_an_unpaid_fine_goes_up_to_the_raised_fine_and_its_day_are_stated():
    today = date(2027, 8, 9)
    turn = "Got a ticket last Friday. If it just sits, how much does it go up to, and from what date?"
    w = late_fines.owed(turn, read_slots(turn, ref=today), [(RISE, SECTION)], today)
    assert w.result == Decimal(133)
    assert "August 27, 2027" in " ".join(w.steps)
    plain = "Got a ticket last Friday. How much is the fine?"
    assert late_fines.owed(plain, read_slots(plain, ref=today), [(RISE, SECTION)], today) is None


# -- business days on the state's calendar ----------------------------------------------------------------------
def test_business_days_leave_out_weekends_and_the_states_legal_holidays():
    day, said = periods.business_days(date(2027, 8, 9), 30, False, "MA")
    assert day == date(2027, 9, 21)  # Labor Day, September 6, passed over
    assert "Labor Day" in said and "MA" in said
    back, _ = periods.business_days(date(2027, 9, 7), 1, True, "MA")
    assert back == date(2027, 9, 3)


def test_a_period_of_business_days_is_counted_only_with_a_state():
    turn = "I filed my completed application this morning. What's the latest date they have to finish the review?"
    sentence = ("The warden shall complete the review of an application no later than thirty business days after the "
                "submission of a completed application.")
    slots_ = read_slots(turn, ref=date(2027, 8, 9))
    assert periods.count_from(turn, slots_, [sentence]) == []
    (c,) = periods.count_from(turn, slots_, [sentence], state="MA")
    assert c.day == date(2027, 9, 21) and "Labor Day" in c.business


# -- a follow-up's value replaces the earlier turn's, and may be named back --------------------------------------
def test_a_follow_ups_amount_replaces_the_earlier_one_of_its_role(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-21")
    a = assistant.ask("and if the bill had come in at $2,150 instead?", "delafield", history=after(
        "I used the town's asphalt service to redo the part of my driveway that's in the right-of-way. I put down a "
        "$2,400 deposit and the final bill came to $2,975. What do I still owe?"))
    # (the amount replaced is named back as replaced, never read as a cost)
    assert a.status == "answered" and "**$250.00**" in a.answer and "actual cost $2,150.00" in a.answer
    assert "$2,975.00" not in a.answer


def test_a_clarifying_question_may_name_back_a_value_of_an_earlier_turn():
    from assistant.answering.guards import check_answer
    from assistant.types import Answer

    asked = Answer(status="clarify", answer="To work this out I need the actual cost: is it “$2,150” or “$2,975”?")
    assert check_answer(asked, question="and if the bill came in at $2,150?")
    assert not check_answer(asked, question="the final bill came to $2,975 \n and if the bill came in at $2,150?")


# -- two lots, each its own guarantee and bill ---------------------------------------------------------------------
def test_each_lots_guarantee_is_settled_with_its_own_bill(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("Two lots on Oak Ridge. Lot 7 posted a $1,500 cash guarantee; we fixed curb and gutter damage "
                      "from their construction and billed $640, still unpaid after 30 days. Lot 8 posted $2,000; we "
                      "redid the ditch landscaping for $310, also unpaid after 30 days. How much of each guarantee goes "
                      "back to the owner?", "delafield")
    assert "**$860.00**" in a.answer and "**$1,690.00**" in a.answer


def test_amounts_no_label_names_beside_a_guarantee_and_a_bill_are_not_left_out_unsaid(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("I had a $1,500 guarantee and they billed me $640, unpaid after 30 days. My brother's was $2,000 "
                      "and $310. What comes back?", "delafield")
    assert a.status == "clarify" and "$2,000" in a.answer
    b = assistant.ask("I posted a $1,500 guarantee. The Town billed me $640 for ditch work and I never paid it. I also "
                      "spent $90 on seed myself. What comes back?", "delafield")
    assert "**$860.00**" in b.answer  # an amount of no other party's is no guarantee


# -- counts: "two dozen", "out of my 24 slabs, 15 ..." ---------------------------------------------------------------
def test_dozens_and_a_part_told_after_the_whole(assistant, monkeypatch):
    (s,) = read_slots("out of my two dozen slabs")
    assert (s.value, s.unit) == ("24", "slabs")
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("The inspector walked my sidewalk - out of my two dozen slabs, fifteen got flagged for heaving. "
                      "Does the whole walk have to go?", "brandon")
    assert "defective blocks 15 (“fifteen”)" in a.answer and "**62.5%**" in a.answer


# -- each ask of a question of several is worked out ---------------------------------------------------------------
def test_each_ask_a_calculator_answers_is_worked_out(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("Our street privilege permit for the demolition dumpster was issued July 15. When does it run "
                      "out, and what's the most the bond can be?", "brandon")
    assert {c.name for c in a.tool_calls} == {"bond_insurance_requirements", "deadline"}
    assert "October 15, 2027" in a.answer and "$10,000" in a.answer
    b = assistant.ask("The Village inspector walked my sidewalk - out of my two dozen slabs, fifteen got flagged for "
                      "heaving and cracks. Does the whole walk have to go? The quote to replace all of it is sixty-four "
                      "hundred dollars; what's my share?", "brandon")
    assert "**62.5%**" in b.answer and "**$3,200.00**" in b.answer


# -- a height told as a vertical measure; default off-topic lists beside an entry's own -----------------------------
def test_a_vertical_differential_states_a_height_asked(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-21")
    a = assistant.ask("A tree root shoved up one of the concrete squares out front, so now there's a lip where it meets "
                      "the next square. How tall does that lip have to get before the village counts the walk as "
                      "needing repair?", "brandon")
    assert a.status == "answered" and "One inch or more vertical differential" in a.answer


def test_an_entrys_own_off_topic_list_adds_to_the_defaults_its_text_never_mentions():
    from assistant.answering import status_phrases
    from assistant.corpus import municipality_by_id

    always, _ = status_phrases.off_topic_lists(municipality_by_id("brandon"))
    assert any("garage" in p and "sales" in p for p in always)  # a default its text never mentions
    assert not any(p.startswith("snow|shovel") for p in always)  # a default its text does mention stays out


def test_a_weight_another_road_is_posted_at_is_a_limit_told_not_the_vehicles(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("Hauling gravel off a Town road that has the seasonal weight-limit signs up. My tri-axle grosses "
                      "14,200 lb loaded. The county posted 10 tons on its road last spring. Am I over the Town's limit, "
                      "by how much?", "delafield")
    assert a.status == "answered" and "**1.1 tons**" in a.answer


def test_a_metric_measurement_held_against_a_limit_shows_its_conversion_and_passes_the_guard(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("The house numbers I bought are 6.5 cm tall - big enough for the Village?", "brandon")
    assert a.status == "answered" and "2.56 inches" in a.answer and "2.54 centimeters to the inch" in a.answer


def test_rock_so_many_inches_under_grade_is_a_depth_not_a_shortfall_of_thickness(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-05")
    a = assistant.ask("Grading a new subdivision road for the Town and we hit ledge rock thirteen inches under where "
                      "finished grade will be. How many more inches do we have to take it down?", "delafield")
    assert "corrective lift" not in a.answer and "7 inches short of 20 inches" in a.answer


def test_the_share_of_defective_blocks_also_says_how_many_make_the_whole_walk_go(assistant, monkeypatch):
    from assistant.tools.specs import SidewalkDefectInput, sidewalk_defect_check

    out = sidewalk_defect_check(SidewalkDefectInput(municipality="brandon", defective_blocks=14, total_blocks=24))
    assert out.whole_replacement_at_blocks == 15 and out.whole_replacement_required is False
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-11-22")
    a = assistant.ask("The inspector flagged fourteen of the blocks. There are two dozen blocks in front of my place "
                      "altogether. How many would have to be bad before they make me replace the whole walk?", "brandon")
    assert "**15 blocks** of the 24" in a.answer


def test_a_fine_left_to_the_law_is_no_answer_to_what_a_fee_is():
    from assistant.answering.planner import _defers_a_fine

    assert _defers_a_fine("Invoices exceeding 90 days shall be paid by the city, at which point the city shall fine the "
                          "permittee the appropriate amount as prescribed by law, and continue to accrue the charges.")
    assert not _defers_a_fine("A fee as set by the Village Board shall be charged for such permit.")


def test_a_sandwich_board_is_an_a_frame_sign():
    assert "A-frame" in expand("Can I put a sandwich board out on the sidewalk in front of my shop?", "brandon")


# -- an amount set by a condition the question does not say ---------------------------------------------------------
BOSTON_F = ["Any violation occurring at a sidewalk abutting land zoned solely for residential use and that has sixteen "
            "(16) or fewer residential units shall result in a fine of one hundred ($100.00) dollars for each such violation.",
            "Any violation occurring at a sidewalk abutting land zoned for any use other than solely residential shall "
            "result in a fine of two hundred fifty ($250.00) dollars for each such violation.",
            "Any violation occurring at a sidewalk abutting land zoned solely for residential use and that has more than "
            "sixteen (16) residential units shall result in a fine of one hundred fifty ($150.00) dollars for each such "
            "violation."]


def test_which_case_is_the_users_is_asked_when_alike_sentences_differ_by_it():
    from assistant.answering.conditions import condition_needed

    needed = condition_needed("Nobody cleared the sidewalk in front of my building. What kind of fine are we looking "
                              "at?", BOSTON_F)
    assert needed is not None and len(needed.conditions) == 3 and "fewer" in needed.conditions[0]
    assert condition_needed("What are the fines for not clearing a sidewalk?", BOSTON_F) is None  # no own amount
    assert condition_needed("Our 24-unit building, zoned residential: what fine are we looking at?", BOSTON_F) is None
    assert condition_needed("Our shop's walk wasn't cleared; the land is zoned for commercial use, any use other than "
                            "residential. What fine are we looking at?", BOSTON_F) is None  # its words say which


def test_an_amount_a_label_names_and_the_municipalitys_them_are_not_another_partys(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-01-15")
    a = assistant.ask("My driveway culvert went in last summer. The Town charged me $1,150 for the install, and separately "
                      "I gave them a $3,000 cash deposit to cover fixing up the ditch afterwards. The Town redid the "
                      "seeding and sent me a $725 bill, which I never paid - that was 45 days ago. How much of the $3,000 "
                      "do I end up getting back?", "delafield")
    assert "**$2,275.00**" in a.answer


def test_a_period_of_business_hours_is_not_counted_as_business_days():
    turn = "We filed this morning. What's the latest date they have to answer?"
    sentence = "The office shall answer no later than forty-eight business hours after the filing."
    assert periods.count_from(turn, read_slots(turn, ref=date(2027, 8, 9)), [sentence], state="MA") == []


def test_a_state_the_holiday_calendar_does_not_know_counts_no_business_days():
    turn = "I filed my completed application this morning. What's the latest date they have to finish the review?"
    sentence = "The warden shall complete the review no later than thirty business days after the submission."
    assert periods.count_from(turn, read_slots(turn, ref=date(2027, 8, 9)), [sentence], state="XX") == []
