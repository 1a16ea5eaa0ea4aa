"""Session 23: readings that decide a figure, on any question.

A day of the month in words dates an event ("dated the first of this month"); "notified" is the code's notice; a
vehicle's empty weight and the load it carries make its gross weight together, and a question whether a loaded truck
may cross a posted road without its weight asks for it; a height said after its length ("ten feet higher than the
road") is a driveway's rise; an amount "put up as the ... guarantee" is the guarantee, and a bill forgotten for over a
month is unpaid; a bond asked about with "how much" gets the bonds the permit requires (stated ones and those left to
the Board), and what the words deny the applicant is ("not the Village utility") it is not; work told as under way
("the crew is trenching") opens the street today.
"""

from __future__ import annotations

import pytest

from assistant.answering.reading import read_query
from assistant.answering.routes.bonds import bond_requirements


@pytest.fixture
def june_2027(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-09")


def test_a_day_of_this_or_last_month_in_words_is_read(june_2027):
    assert [s.value for s in read_query("The letter is dated the first of this month.").of("date")] == ["2027-06-01"]
    assert [s.value for s in read_query("It came on the twenty-second of last month.").of("date")] == ["2027-05-22"]
    assert [s.value for s in read_query("We paid on the 3rd of last month.").of("date")] == ["2027-05-03"]


def test_notified_on_a_day_counts_the_notice_period_not_the_tax_roll_date(assistant, june_2027):
    ans = assistant.ask("The Town notified me on the first of this month that I must deposit the cost of a culvert. "
                        "When is it due?", "delafield")
    assert ans.status == "answered"
    assert "June 11, 2027" in ans.answer and "10 days" in ans.answer
    assert "**November 1" not in ans.answer


def test_empty_weight_and_the_load_carried_make_the_gross_weight(assistant, june_2027):
    ans = assistant.ask("Our dump truck weighs 9,000 lb empty and we'll be hauling 4,600 lb of stone on the Town road "
                        "where the weight limit signs are up. Are we over?", "delafield")
    assert ans.status == "answered"
    assert "6.8 tons (“9,000 lb” empty + “4,600 lb” carried)" in ans.answer
    assert "over the posted temporary limit" in ans.answer
    # one weight said loaded is the gross weight itself (nothing is added)
    ans = assistant.ask("Our truck is 8,000 lbs empty and 19,000 lbs loaded. The weight limit signs are up. Are we "
                        "over?", "delafield")
    assert "9.5 tons" in ans.answer


def test_can_a_loaded_truck_cross_a_posted_road_asks_its_weight(assistant, june_2027):
    ans = assistant.ask("Can we drive our loaded tandem across the Town road where the weight limit signs are posted?",
                        "delafield")
    assert ans.status == "clarify" and "gross weight" in ans.answer


def test_a_height_said_after_its_length_is_the_rise(assistant, june_2027):
    ans = assistant.ask("The garage floor sits 9 feet higher than the street and the driveway is 60 feet long. Is "
                        "that too steep for the Town?", "delafield")
    assert ans.status == "answered"
    assert "rise 9 feet" in ans.answer and "run 60 feet" in ans.answer and "15%" in ans.answer


def test_an_amount_put_up_as_the_guarantee_and_a_forgotten_bill(assistant, june_2027):
    ans = assistant.ask("When the culvert went in (it cost $2,400) I put up two thousand dollars cash as the ditch "
                        "landscaping guarantee. The Town reseeded and billed me $450, which I forgot about; it's been "
                        "over a month. How much of my deposit comes back?", "delafield")
    assert ans.status == "answered"
    assert "$1,550.00" in ans.answer and "$2,400" not in ans.answer.split("How it was")[0]


def test_how_much_for_a_bond_gives_the_bonds_stated_and_left_to_the_board(assistant, june_2027):
    ans = assistant.ask("Is there a bond for a road opening permit? How much?", "delafield")
    assert ans.status == "answered"
    assert "$10,000" in ans.answer and "resolution" in ans.answer
    ans = assistant.ask("We're a plumbing contractor, not the Village utility. What bond do we post for a street "
                        "opening permit, and how much?", "brandon")
    assert ans.status == "answered"
    assert "applicant 'contractor'" in ans.answer and "exempt" not in ans.answer
    assert "deposit with the Village Clerk an indemnity bond in the sum of $10,000" in ans.answer
    # a fee asked beside the bond is one figure: the passage answers it
    assert bond_requirements("How much is the permit fee and the bond?", "brandon", _Ctx()) is None


class _Ctx:
    tools: dict = {}


def test_work_told_under_way_opens_the_street_today(assistant, june_2027):
    ans = assistant.ask("The crew is trenching across a street the Village repaved in March 2026; the permit fee is "
                        "$80. What's the surcharge?", "brandon")
    assert ans.status == "answered"
    assert "$320.00" in ans.answer and "today, June 9, 2027" in ans.answer


def test_a_penalty_left_to_another_section_keeps_how_offenses_are_counted(assistant, june_2027):
    ans = assistant.ask("A builder keeps leaving gravel all over our street and won't clean it up. What's the fine?",
                        "brandon")
    assert ans.status == "not_stated"
    assert "§ 1-4" in ans.answer and "separate offense" in ans.answer


def test_two_deadlines_asked_of_one_dated_start_each_get_their_rule(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    ans = assistant.ask("Crew starts excavating Tuesday May 8 at 8 AM. By when must the Public Works director hear "
                        "from us, and when do the Clerk and the affected homeowners have to be told?", "brandon")
    assert ans.status == "answered"
    assert "May 7, 2029 8:00 AM" in ans.answer  # 24 hours before, to the Director
    assert "one business day before" in ans.answer and "May 7, 2029" in ans.answer
    assert len(ans.tool_calls) == 2


def test_a_repair_bill_with_a_part_left_out_asks_for_it(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    ans = assistant.ask("A contractor never fixed his failed street patch so our crew did. Labor ran $2,200. What do "
                        "we bill him with the administration charge?", "brandon")
    assert ans.status == "clarify" and "materials" in ans.answer and "$2,640" not in ans.answer
    ans = assistant.ask("A contractor never fixed his failed street patch so our crew did. Labor ran $2,200, no "
                        "materials, no equipment. What do we bill him with the administration charge?", "brandon")
    assert ans.status == "answered" and "$2,640.00" in ans.answer


def test_two_approval_dates_are_asked_about_with_the_rule_quoted(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    ans = assistant.ask("Our street opening permit was stamped APPROVED 11/6 by the Clerk, and Public Works signed "
                        "off on it 11/9. When does it expire?", "brandon")
    assert ans.status == "clarify" and "“11/6”" in ans.answer and "“11/9”" in ans.answer
    assert "valid for a period of 30 days from the date of approval" in ans.answer
    assert [s.value for s in read_query("The stamp says APPROVED 11/6.").of("date")] == ["2028-11-06"]


def test_a_crew_of_n_counts_workers(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    counts = [(s.value, s.unit) for s in read_query("A crew of 2 came out, 1.5 hours.").of("count")]
    assert counts == [("2", "workers")]
    assert [(s.value, s.unit) for s in read_query("A three-man crew did it.").of("count")] == [("3", "workers")]
    assert read_query("The crew of 4 hours ago").of("count") == []


def test_a_crews_hours_without_each_are_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    ans = assistant.ask("The Village's bill for clearing my walk says: crew of 3, 2 hours, $30/hr with benefits. What "
                        "should it total?", "brandon")
    assert ans.status == "clarify" and "$85.00" not in ans.answer


def test_an_amount_added_to_the_final_cost_in_a_follow_up(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-11-16")
    first = "I put down $3,000 for the Town's asphalt crew to redo my driveway apron and the final cost came to $2,700."
    ans1 = assistant.ask(first + " What happens with the difference?", "delafield")
    assert "$300.00" in ans1.answer
    history = [{"role": "user", "content": first + " What happens with the difference?"},
               {"role": "assistant", "content": ans1.answer}]
    ans2 = assistant.ask("Oh wait, they just added $500 for extra gravel to the final cost. Now what?", "delafield",
                         history)
    assert ans2.status == "answered"
    assert "$3,200.00 (“$2,700” + “$500” added)" in ans2.answer and "$200.00" in ans2.answer
    # a code without the surcharge is not said to have none when "extra ... cost" tells of other amounts
    assert "surcharge" not in ans2.answer.lower()


def test_a_follow_up_that_moves_the_day_keeps_the_rule(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    first = "We start excavating in a Town road Tuesday April 17 at 8 am. When's the latest the written notice has to reach the Highway Commission?"
    ans1 = assistant.ask(first, "delafield")
    assert "April 14, 2029 8:00 AM" in ans1.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans1.answer}]
    ans2 = assistant.ask("Start got pushed to Thursday the 19th, same time. New deadline?", "delafield", history)
    assert ans2.status == "answered" and "April 17, 2029 8:00 AM" in ans2.answer


def test_a_second_visit_told_in_a_follow_up_is_never_merged_into_the_first_crew(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    first = "Village cleared the snow off my walk. Two employees, an hour and a half, $34/hr each including benefits. What's the charge?"
    ans1 = assistant.ask(first, "brandon")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans1.answer}]
    ans2 = assistant.ask("Oh wait, they came back the next day for the drifts too, just one guy for 45 minutes at the "
                         "same rate. What's my total now?", "brandon", history)
    assert ans2.status == "clarify" and "$101.50" not in ans2.answer


def test_a_turn_whose_amounts_its_own_calculator_leaves_is_read_with_the_topic(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-09")
    first = "Part of our driveway in the Town right-of-way needs new asphalt. Does the Town pay for it?"
    ans1 = assistant.ask(first, "delafield")
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": ans1.answer}]
    ans2 = assistant.ask("We went with the Town crew. We deposited $1,800 up front and the bill that came today says "
                         "$2,050. What do I still owe and by when?", "delafield", history)
    assert ans2.status == "answered" and "$250.00" in ans2.answer and "July 9, 2027" in ans2.answer


def test_a_converted_rate_times_the_one_quantity_of_its_unit():
    from assistant.answering.factors import converted

    sentence = ("PARTS PER MILLION shall mean a weight-to-weight ratio; the parts per million value multiplied by the "
                "factor 8.34 shall be equivalent to pounds per million gallons of water.")
    w = converted("The tank holds 5,000 gallons and tests at 200 ppm. How many pounds is that?", [sentence])
    assert w is not None and str(w.result.normalize()) == "8.34" and w.unit == "pounds"
    w = converted("The tank holds 3,500 gallons and tests at 320 ppm. How many pounds?", [sentence])
    assert str(w.result) == "9.34" and "9.3408 pounds (9.34 to the hundredth)" in w.steps[1]
    w = converted("At 100 ppm and 0.5 million gallons a day, how many pounds a day?", [sentence])
    assert str(w.result.normalize()) == "417" and w.unit == "pounds a day"
    # no quantity given: the rate alone; two quantities: not guessed, the rate alone
    assert converted("It tests at 100 ppm.", [sentence]).unit == "pounds per million gallons of water"
    w = converted("At 100 ppm, a 3,000 gallon tank or a 4,000 gallon one?", [sentence])
    assert w.unit == "pounds per million gallons of water"


def test_one_kind_of_bond_named_is_answered_by_its_own_passage(assistant, june_2027):
    ans = assistant.ask("If we go with the yearly bond that covers all of our Brandon street cuts, how much does it "
                        "have to be for?", "brandon")
    assert ans.status == "not_stated" and "$10,000" not in ans.answer
