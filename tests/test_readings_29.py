"""Session 29: readings that decide a figure or a day, on any question.

A lookup asking figures of several kinds ("how thick ... and how long do we keep people off it?") quotes a sentence
stating each kind; one rate told of a crew ("the rate is $40 an hour") is asked about (each one's or the crew's);
a fee in tiers is worked from a trench's area though the sentence also prices tunnels; the things the sentence before
lists are the parts of "each of those"; between deadline rules of different sections the words rank close, the section
the search finds first weighs; the dated words naming the first rule's kind of event settle it; a further ask's rule
counts from its own dated day; "the temporary 6 ton signs" and "code only needs two and a half inches" are limits
told, no measurements; the conversation's month dates "Saturday the 3rd"; a day of an act the user only supposes ("if
we file today") dates no event; "just me and the guy across the road" is one owner on each side; "when do the numbers
have to be up by?" asks a day; "midnight Saturday" is asked about.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from assistant.answering import limits, roles
from assistant.answering.planner import EmbeddedPlanner, asked_figure_kinds
from assistant.answering.reading import read_query, read_slots
from assistant.answering.routes.deadlines import ASKS_A_DAY
from assistant.answering.tiers import tier_fee


# -- every kind of figure asked is stated ----------------------------------------------------------------------------
@pytest.mark.parametrize("question, kinds", [
    ("How much of the street may I block and for how long?", ["duration"]),
    ("what size rocks are ok in the trench backfill and how thick can each lift be before we compact it? also what "
     "compaction % does the village want", ["size", "thickness", "percent"]),
    ("How thick does a new residential sidewalk have to be and how long do we keep people off it after pouring?",
     ["thickness", "duration"]),
    ("Is there a stretch of the year when nobody may dig?", ["date"]),
    ("The walk is 6 feet wide and 95% done. How much is the permit?", ["money"]),  # told figures ask nothing
    ("How long can the driveway be?", []),  # a length, not a period
])
def test_the_kinds_of_figure_a_question_asks(question, kinds):
    assert [k for k, _ in asked_figure_kinds(question)] == kinds


def test_each_kind_of_figure_asked_is_quoted(assistant, monkeypatch):
    q = "How thick does a new residential sidewalk have to be and how long do we keep people off it after pouring?"
    ans = assistant.ask(q, "brandon")
    assert ans.status == "answered" and "four inches" in ans.answer and "48 hours" in ans.answer
    # the rule is what quotes the period: without it only the thickness is there
    monkeypatch.setattr(EmbeddedPlanner, "_each_figure_stated", lambda self, q, m, hits, picked, req: picked)
    assert "48 hours" not in assistant.ask(q, "brandon").answer


# -- one rate told of a crew -------------------------------------------------------------------------------------------
def test_one_rate_told_of_a_crew_is_asked_about(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-12-09")
    ans = assistant.ask("I was out of town and the Village of Brandon cleared my walk. Public works sent two guys and "
                        "they were there three hours. They told me the rate is $40 an hour with benefits. What's the "
                        "bill going to be?", "brandon")
    assert ans.status == "clarify" and "each one's, or for all of them together" in ans.answer
    assert "$265.00" not in ans.answer and "$145.00" not in ans.answer


@pytest.mark.parametrize("question, total", [
    ("I was in Florida and the Village cleared my walk: two guys worked 45 minutes. They said their rate with "
     "benefits is $44 an hour. What should the charge come to?", "$91.00"),
    ("snow removal bill calc: 2 guys x 1.75 hrs @ $44/hr, w/ the admin fee = ?", "$179.00"),
    ("Two employees, each at $40 an hour including benefits, spent 1.5 hours each removing snow from one property. "
     "What is the snow removal charge?", "$145.00"),
])
def test_a_rate_said_to_be_each_workers_is_worked(assistant, question, total):
    ans = assistant.ask(question, "brandon")
    assert ans.status == "answered" and total in ans.answer


# -- a fee in tiers of two things --------------------------------------------------------------------------------------
_TIERS = ("The fee for such permits shall be $2.00 for excavations which do not exceed 25 square feet in area or tunnels "
          "not exceeding 25 feet in length; and $0.25 for each additional square foot in the case of excavations, or "
          "lineal foot in the case of tunnels; but not to exceed $100.00 for any permit.")


@pytest.mark.parametrize("turn, steps", [
    ("I need to open a trench in a city street 4 feet wide and 30 feet long to tie in a sewer lateral. What will the "
     "excavation permit fee be?", "120 square feet (“4 feet wide and 30 feet long”): $2.00 up to 25 square feet + $0.25 × "
                                  "95 additional = $25.75"),
    ("We are boring a tunnel 60 feet long under the road. Fee?",
     "60 feet (“60 feet”): $2.00 up to 25 feet + $0.25 × 35 additional = $10.75"),
    ("Our crew will dig 30 feet along the street. What is the fee?", None),  # no area, and no tunnel: not guessed
])
def test_a_tier_of_another_thing_leaves_the_users_own(turn, steps):
    worked = tier_fee(turn, read_slots(turn), _TIERS)
    assert (worked.steps[0] if worked else None) == steps


# -- deadlines ---------------------------------------------------------------------------------------------------------
def test_each_of_the_notices_told_before_is_dated(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-23")
    ans = assistant.ask("Our crew is booked to start a storm lateral excavation on Tuesday, June 20, 2028 at 7:00 AM. I "
                        "know there's a heads-up the Public Works Director needs, and separately a notice to the clerk "
                        "and the neighbors who'll be affected. What's the latest I can get each of those in?", "brandon")
    assert "June 17, 2028 7:00 AM" in ans.answer and "June 16, 2028" in ans.answer


def test_the_section_found_first_picks_between_close_rules(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-23")
    ans = assistant.ask("Long story short, my tenant left a pile of old furniture and a busted hot tub cover on the "
                        "sidewalk, the village gave notice, nobody moved it, and the village hauled it off. The bill for "
                        "the removal showed up in my mailbox Thursday, May 18, 2028. When does it have to be paid?",
                        "brandon")
    # (the bill's receipt is dated: the rule counted from it is not asked about against "the date ... charged")
    assert ans.status == "answered" and "May 30, 2028" in ans.answer and "June 17, 2028" not in ans.answer
    ans = assistant.ask("The village board decided four squares of my sidewalk are defective. The letter came May 3, "
                        "2028. I'm not going to fight it, but I'd rather the village just do the work. How long do I have "
                        "before it gets done either way, and if their estimate for replacing it is $3,280, what will I "
                        "end up paying?", "brandon")
    assert "July 3, 2028" in ans.answer and "$1,640.00" in ans.answer and "April 3, 2028" not in ans.answer


def test_rules_of_one_section_are_not_told_apart_by_the_search(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-06-07")
    ans = assistant.ask("We're both new builds on Forest Ave. The building inspector gave me my house number on May 10 "
                        "and gave my neighbor across the street hers on May 22. By what date does each of us have to have "
                        "the numbers up on the house?", "brandon")
    assert ans.status == "answered" and "May 30, 2028" in ans.answer and "June 12, 2028" in ans.answer


def test_a_further_ask_counts_from_its_own_dated_event(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-23")
    ans = assistant.ask("After our lot got split the village assigned our house a new number on March 1, 2028. I kept "
                        "putting off changing the numbers on the porch, and public works served me with a notice on "
                        "April 3. How long did I originally have to put the new number up, and how long do I have now "
                        "before I'm actually in violation?", "brandon")
    assert ans.status == "answered" and "March 21, 2028" in ans.answer and "April 13, 2028" in ans.answer
    assert "March 31, 2028" not in ans.answer  # (the 10 days never counted from the assignment)


def test_words_before_two_dates_alike_only_by_a_preposition_tie_nothing():
    q = ("After our lot got split the village assigned our house a new number on March 1, 2028. I kept putting off "
         "changing the numbers on the porch, and public works served me with a notice on April 3. How long did I have?")
    chosen = roles.event_date(read_query(q), "date the number was assigned")
    assert not isinstance(chosen, roles.Ambiguous) and chosen.value == "2028-03-01"


def test_a_day_of_an_act_only_supposed_dates_no_event(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-02-23")
    ans = assistant.ask("We had a water service blow out under the pavement Saturday night (Feb 19) and had to dig right "
                        "away to stop it flooding a basement. We patched it up and nobody's filed anything yet because "
                        "everyone was off Monday. It's Wednesday now. What was our deadline to apply for the permit, and "
                        "do we still get out of paying the permit fee if we file today?", "brandon")
    assert ans.status == "answered" and "February 22, 2028" in ans.answer and "February 23, 2028" in ans.answer


def test_the_conversations_month_dates_a_weekday_and_day(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-12-09")
    first = "Pouring a new sidewalk in Brandon on Friday June 2, 2028 at 3 PM. Code says keep traffic off it 48 hours. " \
            "When can we open it?"
    ans1 = assistant.ask(first, "brandon")
    ans = assistant.ask("rain pushed us back, now we're pouring Saturday the 3rd at 9 in the morning. when then?",
                        "brandon", history=[{"role": "user", "content": first},
                                            {"role": "assistant", "content": ans1.answer}])
    assert ans.status == "answered" and "June 6, 2028 9:00 AM" in ans.answer


@pytest.mark.parametrize("question", [
    "building inspector gave us our new address a while back for the house we're building. when do the numbers "
    "legally have to be up by?",
    "When does the bill have to be paid by?",
])
def test_when_by_asks_a_day(question):
    assert ASKS_A_DAY.search(question)


def test_which_midnight_is_asked(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-12-09")
    ans = assistant.ask("Forecast says the snow quits right around midnight Saturday. When do I have to have my walk "
                        "cleared by to stay out of trouble?", "brandon")
    assert ans.status == "clarify" and "Friday night" in ans.answer and "Saturday night" in ans.answer
    assert "December" not in ans.answer


# -- limits told, not measured -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, limit", [
    ("on a Town road that just got the temporary 6 ton signs. My dump truck weighs 14,500 lbs loaded", "6"),
    ("measures about 4 inches. The contractor says code only needs two and a half inches of blacktop", "2.5"),
])
def test_a_limit_told_is_no_measurement(text, limit):
    told = [s.value for s in read_query(text).slots if limits.told_limit(s)]
    assert told == [limit]


def test_a_posted_limit_is_not_the_trucks_weight(assistant):
    ans = assistant.ask("I live at N14 W31250 on a Town road that just got the temporary 6 ton signs. My 2016 dump truck "
                        "weighs 14,500 lbs loaded and I need to make 3 trips about 22 miles each to finish my pole barn. "
                        "How far over the limit am I?", "delafield")
    assert ans.status == "answered" and "7.25 tons" in ans.answer and "1.25 tons" in ans.answer


def test_what_the_code_is_said_to_need_is_no_rival_measurement(assistant):
    ans = assistant.ask("I'm inspecting a utility trench patch on an older street. The existing asphalt they cut through "
                        "measures about 4 inches. The contractor says code only needs two and a half inches of blacktop. "
                        "Who's right?", "brandon")
    assert ans.status == "answered" and "**4 inches**" in ans.answer


# -- owners ------------------------------------------------------------------------------------------------------------
def test_just_me_and_the_one_across_the_road(assistant):
    ans = assistant.ask("Village is putting in a brand new sidewalk on my side of the street only - there's no sidewalk "
                        "on either side now. It's just me (80 ft of frontage) and the guy directly across the road (120 "
                        "ft). Total assessment is $9,300. How much does each of us pay?", "brandon")
    assert ans.status == "answered" and "$4,650.00" in ans.answer and "“the guy directly across the road”" in ans.answer


# -- all the user owes -------------------------------------------------------------------------------------------------
def test_what_we_owe_adds_the_charge_the_rate_comes_in_addition_to():
    from assistant.answering import rates

    turn = "Our free weekly paper wants to put 7 newsracks out on sidewalks around Davis Square. What do we owe the city " \
           "when we apply?"
    sentence = ("In addition to the certificate of compliance fee, an annual fee of $25.00 per newsrack authorized shall "
                "be paid to the city to offset the costs of the city's monitoring compliance with this article.")
    section = "There shall be a certificate of compliance fee in the amount of $50.00. " + sentence
    worked = rates.work_out(turn, read_query(turn).of_origin("turn"), [(sentence, section)])
    assert [w.result for w in worked] == [Decimal("225.00")]
    assert rates.ASKS_TOTAL.search(turn) and not rates.ASKS_TOTAL.search("What is the fee per newsrack?")


def test_a_speed_asked_is_a_kind_of_figure():
    asks = asked_figure_kinds("How many riders can go on one tour, how fast can they go, and is there a minimum age?")
    assert [k for k, _ in asks] == ["speed"]
    from assistant.answering.planner import stated_by

    assert stated_by("speed").search("in excess of a maximum speed of eight (8) miles per hour")
    assert not stated_by("speed").search("at least eighteen (18) years of age")


# -- misspellings of the plain words the expansion data knows ----------------------------------------------------------
@pytest.mark.parametrize("word, meant", [("shovle", "shovel"), ("recieve", "receive"), ("notise", "notice")])
def test_a_misspelt_plain_word_reads_as_the_word(word, meant):
    from assistant.retrieval.expansion import respelled

    assert meant in respelled(f"how long do i have to {word} it", "brandon").split()


# -- a fraction of a unit in digits ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind, value, unit", [
    ("the worst lip is maybe 3/4 of an inch", "length", "0.75", "in"),
    ("it took 1/2 of an hour", "duration", "0.5", "hours"),
    ("a 3/4 of a ton load", "weight", "0.75", "tons"),
])
def test_a_fraction_of_a_unit_is_never_the_whole_unit(text, kind, value, unit):
    assert [(s.kind, s.value, s.unit) for s in read_slots(text) if s.kind == kind] == [(kind, value, unit)]


def test_three_quarters_of_an_inch_is_within_the_limit(assistant):
    ans = assistant.ask("Got a letter saying a couple of my sidewalk squares are 'defective'. I went out with a tape "
                        "measure and the worst lip where one slab meets the next is maybe 3/4 of an inch. Does that even "
                        "count as defective?", "brandon")
    assert "0.75 inches" in ans.answer and "within the limit" in ans.answer and "“an inch”" not in ans.answer


def test_a_distance_asked_is_stated_by_a_length_not_a_rate():
    from assistant.answering.planner import stated_by

    assert [k for k, _ in asked_figure_kinds("how far does a new sidewalk have to be from my property line?")] \
        == ["distance"]
    assert stated_by("distance").search("laid a minimum of six inches off the property line")
    assert not stated_by("distance").search("a uniform cross slope of one-quarter inch per foot of width")
    assert not stated_by("distance").search("not less than four inches in thickness")


# -- a numbered list's items are sentences of their own ----------------------------------------------------------------
def test_a_list_items_number_begins_its_sentence():
    from assistant.retrieval.chunking import sentences

    text = ("References to downtown areas shall include the following streets:\n\n1. Washington Street - From Pleasant "
            "Drive to Walnut Street.\n\n2. Main Street - from May Court to Cottage Street.")
    assert sentences(text) == ["References to downtown areas shall include the following streets:",
                               "1. Washington Street - From Pleasant Drive to Walnut Street.",
                               "2. Main Street - from May Court to Cottage Street."]
    assert sentences("See No. 5. The rule applies.") == ["See No. 5.", "The rule applies."]
    # ("as provided in sub. (9)." was quoted as "(9)." alone)
    assert sentences("install the number as provided in sub. (9). Next.") == [
        "install the number as provided in sub. (9).", "Next."]


def test_a_weight_limit_asked_is_stated_in_tons(assistant):
    q = "Every spring they put up those weight limit signs on the road out by our farm. What's the actual limit the " \
        "Town can put on?"
    assert [k for k, _ in asked_figure_kinds(q)] == ["weight"]
    assert "6 tons" in assistant.ask(q, "delafield").answer


# -- a price left to the board -----------------------------------------------------------------------------------------
def test_the_price_of_it_after_a_permit_is_what_the_board_sets(assistant):
    ans = assistant.ask("I'm going to replace the two cracked public sidewalk squares in front of my house myself. Do I "
                        "need a permit for that, and how much does it cost?", "brandon")
    assert ans.status == "not_stated" and "Village Board" in ans.answer and "permit" in ans.answer
    assert "$" not in ans.answer


def test_what_the_fee_is_asks_an_amount(assistant):
    from assistant.answering.planner import QUANTITY_Q, priced_thing

    assert QUANTITY_Q.search("My boss wants to know what the fee is now that we're applying after the fact.")
    assert priced_thing("Do I need a permit for that, and how much does it cost?") is not None
    ans = assistant.ask("Bit of a mess: one of my operators opened up the street for a curb stop repair before the permit "
                        "was approved. It wasn't an emergency. My boss wants to know what the fee is now that we're "
                        "applying after the fact.", "brandon")
    assert ans.status == "not_stated" and "Village Board" in ans.answer


# -- topics the chapter does not cover ---------------------------------------------------------------------------------
@pytest.mark.parametrize("question, muni", [
    ("The streetlight at the end of our road has been out for about three weeks and it's pitch dark where the kids wait "
     "for the bus. Who's responsible for fixing it in the Town of Delafield and how long do they have?", "delafield"),
    ("Are we allowed to drive our side-by-side (UTV) on the Town roads? We just want to ride it over to the neighbors' "
     "place about a mile down.", "delafield"),
])
def test_a_topic_told_before_the_ask_that_refers_to_it(assistant, question, muni):
    assert assistant.ask(question, muni).status == "out_of_scope"


def test_a_background_topic_is_still_no_ask(assistant):
    ans = assistant.ask("I live with my two dogs on Main Street. The Village cleared my front walk after the snow. What "
                        "am I billed for it?", "brandon")
    assert ans.status != "out_of_scope"


# -- two vehicles, each its own weight ---------------------------------------------------------------------------------
def test_two_vehicles_are_each_checked(assistant):
    ans = assistant.ask("Need to run our 7,400 lb track loader about 300 yards down a town road to the next lot, and our "
                        "dump truck grosses 13,500 lbs loaded. The road has temporary weight limit signs up. What do those "
                        "come to in tons, and what permits do I need?", "delafield")
    assert ans.status == "answered" and "3.7 tons" in ans.answer and "6.75 tons" in ans.answer
    assert "For the loader" in ans.answer and "For the dump truck" in ans.answer and "**0.75 tons**" in ans.answer
    # one vehicle's two weights are still read as its empty and loaded weights
    ans = assistant.ask("Our truck weighs 8,000 lbs empty and 19,000 lbs loaded. The weight limit signs are up. Are we "
                        "over?", "delafield")
    assert "9.5 tons" in ans.answer and "**3.5 tons**" in ans.answer


def test_one_of_a_unit_reads_back_in_the_singular():
    from assistant.answering.reading import describe

    one_inch, = [s for s in read_slots("the lip is an inch") if s.kind == "length"]
    assert describe(one_inch) == "1 inch"
    two, = [s for s in read_slots("the lip is 2 inches") if s.kind == "length"]
    assert describe(two) == "2 inches"
