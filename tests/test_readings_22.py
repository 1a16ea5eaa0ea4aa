"""Session 22: readings that decide a figure, on any question.

A deadline asked for each of several parties is counted from each one's own day; days offered as alternatives
("either the 15th or the 22nd") are asked about, and a bare day shares the month written beside it. Two accounts of
one value ("my neighbor says 45 minutes, my wife says an hour and a half") are asked about, never given to two
workers. A failure said before the pipe ("a leaking main") is an emergency. A pronoun's date ("It came last
Thursday") names what the sentence before it tells. An ask of few words of its own ("and is there any other
fallout?") is answered from the provision worked out. An amount a sentence sets case by case ("$25.00 if no pavement
is involved or $75.00 if ... paved") asks which case is the user's.
"""

from __future__ import annotations

from assistant.answering import slots
from assistant.answering.conditions import cases_within, condition_needed
from assistant.answering.reading import read_query


def _days(text: str) -> list[str]:
    return [s.value for s in read_query(text).of("date")]


# -- a bare day of the month shares the month beside it -------------------------------------------------------------
def test_a_bare_day_joined_to_a_dated_one_shares_its_month(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    assert _days("They assigned it either the 15th or the 22nd of last month.") == ["2029-01-15", "2029-01-22"]
    assert _days("It was March 15 or the 22nd, I forget.") == ["2029-03-15", "2029-03-22"]
    assert _days("We paid on the 3rd of last month.") == ["2029-01-03"]  # one day stays one


# -- one rule, each party's own day ----------------------------------------------------------------------------------
def test_a_deadline_asked_for_each_party_is_counted_from_each_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    ans = assistant.ask("The Town wrote to me and to the lady next door that culverts are going in under our old "
                        "driveways and we each owe a deposit. Mine is dated February 1 and hers February 5. By when does "
                        "each of us have to pay the deposit?", "delafield")
    assert ans.status == "answered", ans.answer
    assert "February 12, 2029" in ans.answer and "February 16, 2029" in ans.answer, ans.answer


def test_days_offered_as_alternatives_are_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    ans = assistant.ask("Our house number was assigned either the 15th or the 22nd of last month, not sure which. "
                        "What was the deadline to put the numbers up?", "brandon")
    assert ans.status == "clarify" and not ans.tool_calls, ans.answer
    assert "the 15th" in ans.answer and "22nd" in ans.answer


# -- two accounts of one value --------------------------------------------------------------------------------------
def test_two_accounts_of_the_time_worked_are_asked_about(assistant):
    ans = assistant.ask("The Village cleared my walk after the storm, two workers at $40 an hour each. My son says "
                        "they were there half an hour, my husband says more like two hours. What's the charge?",
                        "brandon")
    assert ans.status == "clarify" and not ans.tool_calls, ans.answer
    assert "two accounts" in ans.answer and "half an hour" in ans.answer


# -- an emergency said before the pipe; the next turn's own day ------------------------------------------------------
def test_a_failure_said_before_the_main_is_an_emergency():
    assert slots.is_emergency("we get a leaking main under the street at night")
    assert slots.is_emergency("there's a ruptured 8-inch gas line")
    assert not slots.is_emergency("it is not a leaking main, just planned work")
    assert not slots.is_emergency("a cracked sidewalk square")


def test_an_emergency_told_before_dates_the_pavement_not_the_filing(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-22")
    first = ("Covering the holidays for the gas utility. Say a leaking main under a village street has our crew dig it "
             "up late Wednesday night, November 24, with no permit. By when do we have to apply for the permit?")
    ans = assistant.ask(first, "brandon")
    assert "November 26, 2027" in ans.answer, ans.answer
    second = "And what's the cutoff to still get the permit fee waived?"
    fee = assistant.ask(second, "brandon", history=[{"role": "user", "content": first},
                                                    {"role": "assistant", "content": ans.answer}])
    assert "November 29, 2027" in fee.answer, fee.answer
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": "(answered)"},
               {"role": "user", "content": second}, {"role": "assistant", "content": "(answered)"}]
    later = assistant.ask("That time of year we won't be able to get hot mix. What do we put back in the hole, and "
                          "when does real pavement have to go in?", "brandon", history=history)
    assert "June 1, 2028" in later.answer, later.answer


# -- a pronoun's date names what the sentence before tells -----------------------------------------------------------
def test_a_pronoun_dated_sentence_takes_the_sentence_before():
    text = "The village hauled my pile away and mailed me a bill. It came last Thursday. When is it due?"
    assert "bill" in slots.dated_clause(text, (text.index("last Thursday"), text.index("last Thursday") + 13))


def test_the_day_a_bill_came_dates_the_bill(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-22")
    ans = assistant.ask("I left a stack of lumber on the sidewalk too long, so the village took it away and mailed me "
                        "a bill. It came last Thursday. When do I have to pay it?", "brandon")
    assert "September 27, 2027" in ans.answer, ans.answer


# -- the time left to act, from "this morning" -----------------------------------------------------------------------
def test_how_long_do_i_have_from_this_morning_gives_the_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-22")
    ans = assistant.ask("I clipped the curb with my trailer this morning and broke a piece off. Police already know. "
                        "How long do I have to fix it?", "brandon")
    assert "October 2, 2027" in ans.answer, ans.answer


# -- an ask of few words of its own is about the provision worked out ------------------------------------------------
def test_a_vague_second_ask_quotes_the_worked_provision(assistant):
    ans = assistant.ask("Our patch failed inspection and we never came back, so the Village crew fixed it: labor "
                        "$900, materials $300, equipment $200. What will the bill be, and is there any other fallout?",
                        "brandon")
    assert "$1,680.00" in ans.answer, ans.answer
    assert "one-year revocation" in ans.answer, ans.answer


# -- "5 of us owners" counts owners ---------------------------------------------------------------------------------
def test_n_of_us_owners_is_a_count_of_owners():
    found = [(s.number, s.unit) for s in read_query("There are 4 of us owners on this side.").of("count")]
    assert found and found[0][0] == 4 and found[0][1].startswith("owner")


# -- amounts set case by case in one sentence ------------------------------------------------------------------------
DEPOSIT = ("The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a "
           "paved area and shall insure the proper restoration of the ground.")


def test_one_sentence_of_two_cases_gives_both_conditions():
    assert cases_within(DEPOSIT) == ("if no pavement is involved", "if the excavation is in a paved area")
    assert cases_within("a fee of $20.00 for each of the first three carts and $40.00 for each additional cart") == ()
    needed = condition_needed("My plumber says I need a permit to dig for my water line. How much deposit do I "
                              "have to leave?", [DEPOSIT])
    assert needed is not None and len(needed.conditions) == 2
    assert condition_needed("How much deposit do I leave for my dig where no pavement is involved at all?",
                            [DEPOSIT]) is None  # the question says which


def test_what_am_i_looking_at_asks_ones_own_amount():
    from tests.test_readings_20 import BOSTON_F

    assert condition_needed("They tagged me for not shoveling. What am I looking at for fines?", BOSTON_F) is not None
    assert condition_needed("They tagged me for not shoveling. What is the rule?", BOSTON_F) is None


# -- a calendar day on a weekend or a legal holiday: the next business day beside it ----------------------------------
def test_a_counted_day_on_a_sunday_gives_the_next_business_day_beside_it(monkeypatch):
    from datetime import date

    from assistant.answering import periods, phrasing

    monkeypatch.setenv("ASSISTANT_TODAY", "2028-07-19")
    turn = "The notice reached us on August 19, 2028. What's the last day we can file the petition?"
    sentence = "A petition for a hearing may be filed within fifteen (15) calendar days of receipt of the notice."
    counted = periods.count_from(turn, read_query(turn).of_origin("turn"), [sentence], state="MA")
    assert len(counted) == 1 and counted[0].day == date(2028, 9, 3)
    assert counted[0].next_open == date(2028, 9, 5) and "Monday after is Labor Day" in counted[0].closed
    text = phrasing.period_counted(counted[0])
    assert "**September 3, 2028**" in text and "**September 5, 2028**" in text and "not applied" in text
    weekday = "The notice reached us on August 16, 2028. What's the last day we can file the petition?"
    plain = periods.count_from(weekday, read_query(weekday).of_origin("turn"), [sentence], state="MA")
    assert plain[0].day == date(2028, 8, 31) and plain[0].next_open is None  # a Thursday: nothing beside it


# -- "on the first regular business day": one business day after the event, on the state's calendar ------------------
def test_the_first_regular_business_day_is_counted_on_the_states_calendar(monkeypatch):
    from datetime import date

    from assistant.answering import periods

    monkeypatch.setenv("ASSISTANT_TODAY", "2028-07-19")
    turn = "Our main broke on Thanksgiving Day this year and we dug without a permit. By what day do we have to apply?"
    sentence = ("The person shall thereafter apply for a permit on the first regular business day on which the office "
                "of the city clerk is open for business.")
    counted = periods.count_from(turn, read_query(turn).of_origin("turn"), [sentence], state="GA")
    assert len(counted) == 1 and counted[0].day == date(2028, 11, 27)  # Friday the 24th is a Georgia state holiday


# -- a follow-up's amounts go to the calculator the conversation reaches ---------------------------------------------
def test_a_follow_ups_amounts_reach_the_conversations_calculator(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-22")
    first = "The end of my driveway in the town right-of-way needs redoing in asphalt. Can the Town do it for me?"
    ans = assistant.ask(first, "delafield")
    later = assistant.ask("OK, the Town's crew did it. I had put down $1,500 and the bill, dated Friday, September 17, "
                          "came to $1,800. What do I still owe and when is it due?", "delafield",
                          history=[{"role": "user", "content": first}, {"role": "assistant", "content": ans.answer}])
    assert "$300.00" in later.answer and "October 18, 2027" in later.answer, later.answer


# -- what is asked weighs more than the story ------------------------------------------------------------------------
def test_the_asking_sentence_chooses_the_quote_over_the_story(assistant):
    ans = assistant.ask("A couple of the public sidewalk squares in front of my house are cracked and I'd like to pull "
                        "them out and re-pour them myself. Do I need anything from the village first? How far ahead?",
                        "brandon")
    assert ans.status == "answered" and "two days" in ans.answer, ans.answer


# -- "the window for" asks a range of days; two dates offered for the event are asked about --------------------------
def test_the_window_for_a_notice_is_counted_and_two_hearing_dates_are_asked(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-02-07")
    one = assistant.ask("The Board set the public hearing on the chapter 8 amendment for March 12. What's the window "
                        "for getting the hearing notice in the paper?", "delafield")
    assert "February 10, 2029" in one.answer and "March 2, 2029" in one.answer, one.answer
    two = assistant.ask("The hearing on the chapter 8 amendment is either March 5 or March 12, not decided. What's the "
                        "window for getting the hearing notice in the paper?", "delafield")
    assert two.status == "clarify" and "March 5" in two.answer and "March 12" in two.answer, two.answer


# -- "if we just don't pay it", "if neither owner pays": an unpaid bill against the guarantee ------------------------
def test_a_bill_not_to_be_paid_is_charged_to_the_guarantee(assistant):
    ans = assistant.ask("Our builder cracked the curb and gutter in front of our new house in the Town; the Town "
                        "fixed it and billed us $600. We have a $1,800 guarantee on file. If we just don't pay it, how "
                        "much of the guarantee comes back?", "delafield")
    assert ans.status == "answered" and "$1,200.00" in ans.answer, ans.answer
