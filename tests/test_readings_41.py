"""Session 41: readings that decide a figure or an ask, on any question.

Two vehicles of one kind told apart by their labels ("truck A", "the second truck") are each checked; a forklift is a
machine and "forklift" no asphalt lift; "Opening #1" / "Opening #2" name two parties; a paving age "years back" counts
back from today; a permit's fee said "one-fifty" is $150, and an amount said as two numbers that nothing reads is asked
about both ways ("twelve-five": $12,500 or $1,250); a repair bill whose labor and materials are given and whose
equipment is never named is worked with none (and says so); "notice deadlines, to the DPW and to everybody else" asks
every start notice; the share of defective blocks decides whether the whole walk's cost or the bad blocks' is assessed,
and a follow-up's "marks 2 more" adds to the earlier count; "a bill dated Oct 2 for $640" is the bill; a grade with no
unit is asked (percent or degrees) and one in degrees is converted; "next week" of the work asks the work's day; "were
actually the 6th" corrects the earlier turn; how far a shop's fixtures may reach asks the walk's width; one further ask
adds no calculation already given.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from assistant.answering import parties, phrasing, slopes, slots
from assistant.answering.reading import read_slots, unread_amounts
from assistant.answering.routes import checks


# -- two vehicles of one kind, a forklift -----------------------------------------------------------------------------
def test_two_trucks_told_apart_by_their_labels_are_each_checked(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Two dump trucks need Pine Rd while the temporary weight limit is posted. Truck A grosses 10,000 "
                      "lbs and truck B grosses 15,000 lbs. Which one needs a special permit?", "delafield")
    assert a.status == "answered" and len(a.tool_calls) == 2, a.answer
    assert "5 tons" in a.answer and "7.5 tons" in a.answer and "For truck B" in a.answer


@pytest.mark.parametrize("clause, name, labelled", [
    ("Truck one grosses 11,000 lbs", "truck", "truck one"), ("truck B grosses 15,000", "truck", "truck B"),
    ("the second truck weighs 15,000 lbs", "truck", "second truck"), ("our truck weighs 9,000", "truck", "truck")])
def test_a_vehicles_label(clause, name, labelled):
    assert checks._labelled(name, clause) == labelled


def test_a_forklift_is_a_machine_and_no_asphalt_lift(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Need to move a rubber-tired forklift down a couple Town roads to a job site. It weighs 5,400 "
                      "lbs. Do I need a permit from the Town?", "delafield")
    assert a.status == "answered" and a.tool_calls and a.tool_calls[0].name == "heavy_vehicle_check", a.answer
    assert "2.7 tons" in a.answer


# -- parties named by their numbers, a paving age "back" --------------------------------------------------------------
def test_openings_named_by_number_are_two_parties():
    text = ("Two opening permits, $100 fee each. Opening #1 is on Cedar, which the Village repaved about 6 months ago. "
            "Opening #2 is on Birch, last paved roughly two and a half years back. What's the surcharge on each?")
    found = parties.split_parties(text, ("6 months ago", "two and a half years back"))
    assert [p.label for p in found] == ["Opening #1", "Opening #2"]


def test_two_openings_each_with_its_paving_age_and_the_total(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Two opening permits, $100 fee each. Opening #1 is on Cedar, which the Village repaved about 6 "
                      "months ago. Opening #2 is on Birch, last paved roughly two and a half years back. What's the "
                      "surcharge on each, and total?", "brandon")
    assert a.status == "answered", a.answer
    assert "$500.00" in a.answer and "$300.00" in a.answer and "$800.00" in a.answer


# -- amounts said as two numbers ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value", [("the opening permit fee is one-fifty and", "150"),
                                         ("the permit fee is one-fifty.", "150")])
def test_a_permits_fee_said_as_two_numbers(text, value):
    assert [s.value for s in read_slots(text) if s.kind == "money"] == [value]


@pytest.mark.parametrize("text", ["the parking fee is one-fifty", "the fee is one-fifty."])
def test_a_fee_of_no_permit_said_as_two_numbers_is_not_read(text):
    assert [s for s in read_slots(text) if s.kind == "money"] == []


@pytest.mark.parametrize("text, said, both", [
    ("The estimate they sent over is twelve-five.", "twelve-five", (Decimal(12500), Decimal(1250))),
    ("the fee is one-fifty", "one-fifty", (Decimal(150), Decimal("1.5"))),
    ("my bill came in at fourteen-eighty", "fourteen-eighty", (Decimal(1480), Decimal("14.8")))])
def test_an_amount_said_as_two_numbers_left_unread_has_two_readings(text, said, both):
    assert unread_amounts(text, read_slots(text)) == [(said, both)]


def test_an_amount_read_is_no_unread_one():
    text = "the permit fee is one-fifty"
    assert unread_amounts(text, read_slots(text)) == []


def test_an_estimate_said_as_two_numbers_is_asked_both_ways(assistant, today):
    today("2028-10-19")
    a = assistant.ask("The Village says my front walk has to be redone. The estimate they sent over is twelve-five. "
                      "What's my share?", "brandon")
    assert a.status == "clarify", a.answer
    assert "$12,500.00 or $1,250.00" in a.answer and "$6,250" not in a.answer and "$625" not in a.answer
    assert phrasing.two_readings("x", (Decimal(1), Decimal(2))) == "“x” reads as $1.00 or $2.00: which is it?"


def test_a_permit_fee_said_as_two_numbers_makes_the_surcharge(assistant, today):
    today("2028-10-19")
    a = assistant.ask("the opening permit fee is one-fifty and the street was paved two and a half years ago. what "
                      "surcharge am I looking at?", "brandon")
    assert a.status == "answered" and "$450.00" in a.answer and "“one-fifty”" in a.answer, a.answer


# -- a repair bill's part never named --------------------------------------------------------------------------------
def test_a_repair_bill_with_labor_and_materials_and_no_equipment_named(assistant, today):
    today("2028-10-19")
    a = assistant.ask("The village fixed the bad patch on our opening since we didn't get back to it in time. Their "
                      "labor was eighteen hundred and materials six-fifty. With the admin add-on, what's the bill?",
                      "brandon")
    assert a.status == "answered" and "$2,940.00" in a.answer, a.answer
    assert "no equipment named" in a.answer


def test_a_repair_bill_with_one_part_given_still_asks(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Our crew fixed the contractor's failed patch. Labor ran $900. What do we bill him with the "
                      "administration charge?", "brandon")
    assert a.status == "clarify" and "$1,080" not in a.answer


# -- every start notice asked -------------------------------------------------------------------------------------------
def test_notice_deadlines_to_one_and_everybody_else(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Brandon street excavation for a sewer repair, starting Wednesday November 8 at 7 AM. It'll "
                      "affect the neighbors on the block. What are my notice deadlines, to the DPW and to everybody "
                      "else?", "brandon")
    assert a.status == "answered" and len(a.tool_calls) == 2, a.answer
    assert "November 7, 2028 7:00 AM" in a.answer and "one business day" in a.answer


# -- the share of defective blocks decides the cost assessed -------------------------------------------------------------
@pytest.mark.parametrize("bad, estimate, share, owed, not_owed", [
    (15, "$1,800", "62.5%", "$1,450.00", "$900.00"),  # the whole walk goes: half its $2,900
    (6, "$800", "25%", "$400.00", "$1,450")])  # the bad blocks alone: half their $800
def test_the_share_of_bad_blocks_picks_the_cost_assessed(assistant, today, bad, estimate, share, owed, not_owed):
    today("2028-10-19")
    a = assistant.ask(f"Village inspected my sidewalk and {bad} of my 24 blocks failed. The estimate for just those "
                      f"{bad} is {estimate}, and $2,900 to redo all 24. What will I end up paying?", "brandon")
    assert a.status == "answered", a.answer
    assert share in a.answer and owed in a.answer and not_owed not in a.answer


def test_the_only_cost_given_of_the_other_kind_is_asked_about(assistant, today):
    today("2028-10-19")
    a = assistant.ask("Village inspected my sidewalk and 6 of my 24 blocks failed. Redoing the whole walk would run "
                      "$2,900. What will I end up paying?", "brandon")
    assert a.status == "clarify" and "$1,450" not in a.answer, a.answer
    assert "replacing the defective blocks" in a.answer


def test_a_follow_ups_more_blocks_add_to_the_earlier_count(assistant, today):
    today("2028-10-19")
    first = "the village inspector marked 13 of my 20 sidewalk squares as defective. do I have to replace the whole walk?"
    a = assistant.ask(first, "brandon")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a.answer}]
    b = assistant.ask("and if he marks 1 more? the whole walk would cost $4,000 to replace, what would I pay",
                      "brandon", history=history)
    assert b.status == "answered", b.answer
    assert "70%" in b.answer and "$2,000.00" in b.answer and "“marks 1 more”" in b.answer


def test_more_blocks_marked_are_read_in_a_follow_up_only():
    from assistant.answering.reading import read_query
    from assistant.answering.routes.common import RouteContext

    def ctx(turn, follow_up):
        q = read_query(turn, "marked 13 of my 20 squares" if follow_up else "", follow_up=follow_up)
        return RouteContext(current=turn, vector=None, query=q, tools={}, similar=dict, found=list)

    assert checks.more_marked(ctx("and if he comes back and marks 2 more?", True)) == (2, "marks 2 more")
    assert checks.more_marked(ctx("what if three more squares fail?", True)) == (3, "three more squares fail")
    assert checks.more_marked(ctx("he marks 2 more", False)) is None


# -- a bill dated, then its amount ----------------------------------------------------------------------------------------
def test_a_bill_dated_then_its_amount(assistant, today):
    today("2028-10-19")
    a = assistant.ask("We just finished building at W329 N4471 Hickory Ln (lot 17). The Town sent a bill dated Oct 2 "
                      "for $640 to fix curb and gutter our builder cracked. Our curb guarantee is $2,000. If I don't "
                      "pay it, when do they take it out of the guarantee, and how much would I get back?", "delafield")
    assert a.status == "answered", a.answer
    assert "$1,360.00" in a.answer and "November 1, 2028" in a.answer
    assert a.answer.count("calculator `deadline`") == 1  # the deadline once, though two asks reach it


# -- a grade's unit --------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("q", ["Building a house in the Town and the driveway will climb at about 8 the whole way up "
                               "from the road. Is that okay with the town's max?",
                               "Our new driveway has a grade of 9. Is that allowed?"])
def test_a_grade_with_no_unit_is_asked(assistant, today, q):
    today("2028-10-19")
    a = assistant.ask(q, "delafield")
    assert a.status == "clarify" and "percent or degrees" in a.answer, a.answer


def test_a_grade_in_degrees_is_converted(assistant, today):
    today("2028-10-19")
    a = assistant.ask("the driveway slopes at 10 degrees. is that too steep?", "delafield")
    assert a.status == "answered" and "17.64%" in a.answer and "“10 degrees”" in a.answer, a.answer


@pytest.mark.parametrize("deg, pct", [("0", "0.00"), ("10", "17.64"), ("45", "100.00"), ("6.84", "12.00"), ("6.85", "12.02")])
def test_degrees_to_percent(deg, pct):
    assert slopes.degrees_to_percent(Decimal(deg)) == Decimal(pct)


def test_degrees_out_of_range_are_refused():
    with pytest.raises(ValueError):
        slopes.degrees_to_percent(Decimal(90))


# -- the work's day asked, a correction, a fixture's reach --------------------------------------------------------------
def test_next_week_of_the_work_asks_the_works_day(assistant, today):
    today("2028-10-19")
    a = assistant.ask("We're cutting across a Town of Delafield road for a sewer lateral next week. When's the "
                      "deadline for the written notice to the town?", "delafield")
    assert a.status == "clarify" and "the work starts" in a.answer, a.answer
    assert "Town Board's written notice" not in a.answer.split("\n")[0]


def test_were_actually_corrects_the_earlier_turn(assistant, today):
    today("2028-10-19")
    first = ("We pulled the building permit for our new house in the Town on October 5 and got our address from the "
             "building inspector at the same time. By when do the house numbers have to be put up?")
    a = assistant.ask(first, "delafield")
    assert "November 4, 2028" in a.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a.answer}]
    b = assistant.ask("sorry, checked the paperwork, permit and address were actually the 6th", "delafield",
                      history=history)
    assert b.status == "answered" and "November 6, 2028" in b.answer, b.answer
    assert slots.CHANGES_EARLIER.search("the permit was actually the 6th")


def test_how_far_fixtures_may_reach_asks_the_walks_width(assistant, today):
    today("2028-10-19")
    a = assistant.ask("I own the coffee shop downtown and want to set a couple tables and a sandwich board out front "
                      "on the public sidewalk. How far out from my wall can the stuff stick?", "brandon")
    assert a.status == "clarify" and "how wide the sidewalk is" in a.answer and "5 feet" not in a.answer, a.answer


# -- a follow-up re-works every notice, a receipt asked, a fraction broken at its hyphen ------------------------------------
def test_a_follow_ups_new_start_reworks_every_notice_given(assistant, today):
    today("2028-10-19")
    first = ("Brandon street excavation for a sewer repair, starting Wednesday November 8 at 7 AM. It'll affect the "
             "neighbors on the block. What are my notice deadlines, to the DPW and to everybody else?")
    a = assistant.ask(first, "brandon")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a.answer}]
    b = assistant.ask("and if we push the start to Monday the 13th, same 7 AM?", "brandon", history=history)
    assert b.status == "answered" and len(b.tool_calls) == 2, b.answer
    assert "November 9, 2028 7:00 AM" in b.answer and "one business day" in b.answer


def test_a_day_counted_from_receipt_asks_when_it_was_received():
    text = phrasing.day_needed("the receipt of such notice", "within ten days from")
    assert text.endswith("When did you receive the notice?")
    assert phrasing.day_needed("such official action", "within 30 days after").endswith("When was it?")


def test_a_fraction_broken_at_its_hyphen_is_read_whole():
    got = [(s.value, s.unit) for s in read_slots("vertically in excess of three- fourths inch, or")]
    assert got == [("0.75", "in")]
    got = [s.span.start for s in read_slots("in excess of three- fourths inch and 2 feet")]
    assert got[-1] == len("in excess of three- fourths inch and ")  # every other span keeps its place


@pytest.mark.parametrize("q", ["and how long do the planks have to stay down?", "how long can the clerk sit on it?"])
def test_until_when_a_thing_lasts_asks_a_day(q):
    from assistant.answering.periods import ASKS_A_DAY
    assert ASKS_A_DAY.search(q)


@pytest.mark.parametrize("q", ["Adding up the certificate fee and the per-box charge, what do we pay?",
                               "add the fee and the deposit together", "what's it come to combined?"])
def test_a_sum_of_charges_asked(q):
    from assistant.answering.rates import ASKS_TOTAL
    assert ASKS_TOTAL.search(q)


# -- from the dev sets -----------------------------------------------------------------------------------------------------
def test_a_repair_bill_with_some_parts_together_and_one_apart(assistant, today):
    today("2028-10-04")
    a = assistant.ask("The Village redid the street patch our crew botched after we didn't get back to it. Their bill "
                      "shows labor and materials at $650 and equipment at $200. With their admin add-on, what's the "
                      "total we're going to owe?", "brandon")
    assert a.status == "answered" and "$1,020.00" in a.answer, a.answer


def test_a_start_given_by_its_hour_alone_asks_its_day(assistant, today):
    today("2029-07-11")
    a = assistant.ask("Boring under a Town road for a gas service, crew is on site at 7 am. By when does my written "
                      "notice have to be in to the highway commission?", "delafield")
    assert a.status == "clarify" and "the work starts" in a.answer, a.answer


def test_of_two_approvals_the_one_naming_what_is_approved(assistant, today):
    today("2028-10-04")
    a = assistant.ask("Permit #2028-117 was issued July 20 for the water lateral, we dug Aug 3 and the Town signed off "
                      "on our fill and surfacing Sept 12. How long are we on the hook if the patch settles?",
                      "delafield")
    assert a.status == "answered" and "September 12, 2029" in a.answer, a.answer


def test_the_date_of_the_job_the_ask_names(assistant, today):
    today("2030-10-08")
    a = assistant.ask("We drove our rig through the roadside ditch on two Town jobs this fall. The well repair on "
                      "Hillside Rd wrapped up Friday, September 27; the lateral install on Elm Rd should finish Thursday, "
                      "October 10. We hold the plumbing permit on both. What's the deadline to have the Hillside ditch "
                      "repaired?", "delafield")
    assert a.status == "answered" and "October 28, 2030" in a.answer and "November 9" not in a.answer, a.answer


def test_a_follow_ups_count_of_bad_blocks_in_place_of_the_earlier(assistant, today):
    today("2030-10-08")
    first = ("Brandon's inspector marked 22 of the 40 sidewalk squares in front of my place as bad. Do they make me "
             "replace the whole sidewalk?")
    a = assistant.ask(first, "brandon")
    assert "55%" in a.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": a.answer}]
    b = assistant.ask("What if it turns out to be 26 of them?", "brandon", history=history)
    assert b.status == "answered" and "65%" in b.answer and "in place of “22”" in b.answer, b.answer


def test_a_phrase_before_the_ask_is_no_ask_of_its_own():
    from assistant.answering.planner import asked_parts
    assert asked_parts("Between the permit fee and the cash deposit, how much do I bring to the clerk?") == []
    assert asked_parts("What is the fee, and how much is the deposit?") == ["What is the fee", "how much is the deposit"]


def test_a_papers_date_is_no_day_of_its_receipt():
    from datetime import date as _date

    from assistant.answering import periods
    sentence = ("The Superintendent of Streets shall notify the occupants and owners of the premises to remove or "
                "repair within ten days from the receipt of such notice, all such weeds, debris, rubbish or "
                "obstructions from the sidewalks.")
    turn = "Got a letter from the Superintendent telling me to clear the weeds. The letter is dated June 5. When's my deadline?"
    got = periods.receipt_needed(turn, read_slots(turn, ref=_date(2028, 6, 14)), [sentence])
    assert got is not None and got[0].span.text == "June 5" and got[1].words.startswith("within ten days")
    turn = "I got the letter on June 5. When's my deadline?"
    assert periods.receipt_needed(turn, read_slots(turn, ref=_date(2028, 6, 14)), [sentence]) is None
    assert phrasing.receipt_day_needed("June 5", "within ten days from", "the receipt of such notice").endswith(
        "When did you receive it?")


SAMPLES = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "corpus-samples"


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/corpus-samples is not beside the repo")
def test_added_codes_sums_a_receipt_and_a_follow_ups_period(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-06-14")
    a = with_samples("crawfordville", "chagrin-falls", "williams", "somerville", "boston")
    # the fee and the deposit asked together, after a phrase naming them ("Between ..., how much ...?")
    both = a.ask("We need to open up a 12 ft by 8 ft hole in a paved street for a sewer repair. Between the permit fee "
                 "and the cash deposit, how much do I bring to the clerk?", "crawfordville")
    assert both.status == "answered" and "$19.75" in both.answer and "$94.75" in both.answer, both.answer
    # a letter's own date, of a period from its receipt
    got = a.ask("Got a letter from the Superintendent of Streets telling me to clear the junk and weeds off my "
                "sidewalk. The letter is dated June 5. When's my deadline?", "williams")
    assert got.status == "clarify" and "When did you receive it?" in got.answer and "June 15" not in got.answer
    # "adding up" the certificate fee and the per-box charge
    boxes = a.ask("We plan to put out 12 newsboxes around Union Square. Adding up the certificate fee and the per-box "
                  "charge, what do we pay the city for the first year?", "somerville")
    assert "$350.00" in boxes.answer, boxes.answer
    # a day of the year the code fixes, after the dated one
    lic = a.ask("The Police Commissioner's office says our Segway tour license should be approved this coming Tuesday. "
                "Assuming it is, what date would that license expire?", "boston")
    assert "March 1, 2029" in lic.answer, lic.answer
    # a follow-up asking how long a thing lasts, of the day the earlier turn dated
    first = ("We're pouring a residential driveway apron this Saturday, placing concrete starting 9 in the morning. "
             "When's the earliest the owner can drive over it?")
    b = a.ask(first, "chagrin-falls")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": b.answer}]
    planks = a.ask("and how long do the planks have to stay down?", "chagrin-falls", history=history)
    assert "June 24, 2028" in planks.answer, planks.answer


# -- a day of the year the code fixes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("sentence, turn, day, words", [
    ("Such licenses shall be granted for a term not exceeding one (1) year but whenever granted they shall expire "
     "annually on the first day of March; such licenses may be renewed annually.",
     "Our tour license should be approved on June 20. What date would that license expire?", "2029-03-01",
     "annually on the first day of March"),
    ("The certificate of compliance must be renewed annually on April 1 by application to the superintendent.",
     "Our certificate of compliance was issued on March 2. When do we have to renew the certificate?", "2028-04-01",
     "annually on April 1"),
    ("Any permit granted under this section shall expire on the 31st day of December in the year in which it is granted.",
     "Our permit was granted on May 3. When does the permit expire?", "2028-12-31", "on the 31st day of December")])
def test_the_first_day_of_the_year_the_code_fixes_after_the_dated_one(sentence, turn, day, words):
    from datetime import date as _date

    from assistant.answering import periods
    got = periods.yearly_day(turn, read_slots(turn, ref=_date(2028, 1, 10)), [sentence])
    assert got is not None and got.day.isoformat() == day and got.words == words and got.yearly


def test_no_day_of_the_year_without_a_dated_day_or_a_yearly_sentence():
    from datetime import date as _date

    from assistant.answering import periods
    sentence = "Such licenses shall expire annually on the first day of March."
    turn = "What date does the license expire?"
    assert periods.yearly_day(turn, read_slots(turn, ref=_date(2028, 1, 10)), [sentence]) is None
    turn = "Our license was approved on June 20. What date does it expire?"
    assert periods.yearly_day(turn, read_slots(turn, ref=_date(2028, 1, 10)),
                              ["The permit shall expire on March 1."]) is None  # no "annually"
