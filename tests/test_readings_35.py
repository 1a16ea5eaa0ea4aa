"""Session 35: readings that decide a figure or an ask, and the sentences a lookup quotes, on any question.

"two of them" counts the people named before it; hours said "each" with no head count ask how many worked; "two
thousand five" is asked (two thousand and five, or two thousand five hundred); a guarantee or a bill said in words
("fifteen hundred", "six seventy-five") is money beside an amount of its size; a "what if" follow-up with bare figures
is the earlier question asked again with them; a lookup reads the whole section of its best sentence (a subsection
passage not found by the search), quotes a short section whole, and one sentence more of the best section when
nothing is worked out.
"""

from __future__ import annotations

from assistant.answering import reading
from assistant.answering.reading import read_query, restated
from assistant.answering.slot_safety import spoken_short


def _counts(text: str) -> list[tuple[str, str]]:
    return [(s.value, s.unit) for s in read_query(text).slots if s.kind == "count"]


# -- head counts -----------------------------------------------------------------------------------------------------------
def test_n_of_them_counts_the_people_named_before():
    assert ("3", "workers") in _counts("Public works sent a crew over. Three of them spent 2 hours each on the walk.")
    assert ("2", "guys") in _counts("the village guys came by, two of them, forty minutes each")
    # no people named before it: "two of them" counts nothing read
    assert _counts("I have five cones and two of them are broken.") == []


def test_two_of_them_each_is_a_charge_for_both(assistant):
    a = assistant.ask("The village guys cleared my walk when I was out of town, two of them, an hour and a half each, "
                      "and the notice says forty dollars an hour with benefits. What's the charge for the labor?",
                      "brandon")
    assert a.status == "answered", a.answer
    assert "**$145.00**" in a.answer  # 2 x 1.5 h x $40 + $25


def test_hours_each_with_no_head_count_is_asked(assistant):
    a = assistant.ask("Village employees shoveled my sidewalk, they were there forty-five minutes each at $38 an hour "
                      "with benefits. What will I be charged?", "brandon")
    assert a.status == "clarify", a.answer
    assert "number of employees" in a.answer and "$" not in a.answer.split("The provision")[0].replace("$38", "")


# -- amounts said short ------------------------------------------------------------------------------------------------------
def test_thousand_and_a_digit_reads_two_ways():
    q = read_query("I put down three thousand five for the deposit.")
    money = [s for s in q.slots if s.kind == "money"]
    assert spoken_short(money[0]) == ("three thousand and five", "three thousand five hundred")
    q = read_query("I put down three thousand five hundred for the deposit.")
    assert spoken_short([s for s in q.slots if s.kind == "money"][0]) is None
    q = read_query("I put down three thousand five dollars for the deposit.")
    assert spoken_short([s for s in q.slots if s.kind == "money"][0]) is None


def test_an_amount_said_short_is_asked_not_guessed(assistant):
    a = assistant.ask("The Town asphalted the part of my drive in the right-of-way. My deposit was two thousand eight "
                      "and the final bill came to thirty-one hundred. How much more do I owe?", "delafield")
    assert a.status == "clarify", a.answer
    assert "two thousand and eight" in a.answer and "two thousand eight hundred" in a.answer


def test_guarantee_and_bill_in_words_are_money():
    q = read_query("Our guarantee was twelve hundred and the repair bill came to four eighty. What comes back?")
    assert sorted(s.value for s in q.slots if s.kind == "money") == ["1200", "480"]
    # alone, "four eighty" may as well be $4.80: not read
    assert not [s for s in read_query("the repair bill came to four eighty").slots if s.kind == "money"]


# -- "what if" follow-ups ------------------------------------------------------------------------------------------------------
def test_what_if_bare_figures_restate_the_earlier_question():
    earlier = "The inspector marked 9 of the 24 squares in front of my place. Do I have to replace all of it?"
    again = restated("and what if it's 16 of the 24?", earlier)
    assert again is not None
    assert again[0].startswith("The inspector marked 16 of the 24 squares") and again[1] == (("9", "16"), ("24", "24"))
    # a figure far from the size of the one it would stand for, or a turn with values of its own: not restated
    assert restated("what if it's 400?", "My truck grosses 9,800 pounds. Can I use the posted road?") is None
    # a value of its own of another kind than a day is left to the follow-up reading; a change by so much is read as a
    # change; a turn asking a question of its own is no earlier question asked again
    assert restated("what if it's 12,000 pounds?", "My truck grosses 9,800 pounds. Can I use the posted road?") is None
    assert restated("ok and if the clerk issues it today, when does it run out?",
                    "We start work this summer. Do we need a street privilege permit?") is None
    assert restated("what if I take 3,200 lbs off?", "My truck grosses 9,800 pounds. Can I use the posted road?") is None
    assert restated("what if I add 2,000 more pounds?", "My truck grosses 9,800 pounds. Can I use the posted road?") is None
    assert restated("what about the other street?", earlier) is None


def test_what_if_follow_up_reruns_the_calculation(assistant):
    first = "The inspector marked 9 of the 24 squares in front of my place. Do I have to replace the whole sidewalk?"
    a1 = assistant.ask(first, "brandon")
    assert "**37.5%**" in a1.answer, a1.answer
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("and what if it's 16 of the 24?", "brandon", hist)
    assert a2.status == "answered", a2.answer
    assert "**66.67%**" in a2.answer and "entire sidewalk is replaced" in a2.answer
    assert a2.read_as and "16 of the 24" in a2.read_as and any("in place of" in n for n in a2.notes)
    assert not a2.guard_events


def test_what_if_weight_keeps_the_unit_said_before(assistant):
    first = "Weight limit signs went up on the town road I use. My loaded truck is about 9,800 pounds. Am I okay?"
    a1 = assistant.ask(first, "delafield")
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("what if it's loaded to 12,600?", "delafield", hist)
    assert a2.status == "answered", a2.answer
    assert "6.3 tons" in a2.answer and "over the posted temporary limit" in a2.answer and not a2.guard_events


# -- what a lookup quotes ------------------------------------------------------------------------------------------------------
def test_a_short_section_is_quoted_whole(assistant):
    # the exception in its own subsection passage, "(2) The Town Board may grant special exceptions ..."
    a = assistant.ask("Can I put a row of big decorative boulders along the edge of the road in front of my house?",
                      "delafield")
    assert a.status == "answered", a.answer
    assert "stone formations" in a.answer and "special exceptions" in a.answer


def test_one_more_sentence_of_the_best_section(assistant):
    a = assistant.ask("Can our house number just go on the mailbox by the road? Anything I should know?", "delafield")
    assert a.status == "answered", a.answer
    assert "10 ft of the driveway" in a.answer and "between 2' and 8'" in a.answer


def test_a_subsection_passage_the_search_missed_is_read(assistant):
    a = assistant.ask("Our gravel trucks keep leaving mud on the street when they pull out of the job. What's the rule?",
                      "brandon")
    assert a.status == "answered", a.answer
    assert "shall immediately stop and remove" in a.answer


def test_the_same_pattern_in_words_and_digits():
    # (the bare-figure pattern never takes a date, a time, a section number or a dollar amount)
    pat = reading._BARE_FIGURE
    assert [m.group() for m in pat.finditer("what if it's 13,000 and 12.5?")] == ["13,000", "12.5"]
    assert [m.group() for m in pat.finditer("what if on 6/12 at 7:30 per § 404-7 for $300?")] == []


# -- a period timing another act ---------------------------------------------------------------------------------------------
def test_a_period_timing_another_act_is_not_the_day_asked():
    from assistant.answering import periods

    turn = ("The city hauled away a dozen of our shopping carts on March 3, 2027 and we never got a letter "
            "from them. What was the last day they had to notify us?")
    slots = list(read_query(turn).slots)
    hearing = ("An owner who has incurred a shopping cart-related warning and/or fee under these sections may obtain a "
               "hearing regarding the propriety of the warning and/or fee by making a written petition to the "
               "Commissioner for a hearing within fifteen (15) calendar days of receipt of the notice of removal.")
    notify = ("Within a reasonable time but not more than three (3) business days after removal, the Commissioner "
              "shall notify the owner of the removed cart.")
    assert periods.count_from(turn, slots, [hearing]) == []
    counted = periods.count_from(turn, slots, [notify, hearing], state="MA")
    assert len(counted) == 1 and counted[0].sentence == notify
    # the act asked is the one the period times: counted
    turn2 = "We received the notice of removal on March 3, 2027. What's the last day we can petition for a hearing?"
    counted = periods.count_from(turn2, list(read_query(turn2).slots), [hearing], state="MA")
    assert len(counted) == 1 and counted[0].day.isoformat() == "2027-03-18"


# -- asks different calculators answer -------------------------------------------------------------------------------------
def test_each_ask_of_another_calculator_is_worked_under_its_own_words(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-08")
    a = assistant.ask("Our street privilege permit for a dumpster was issued on May 4, 2029. The street is 30 feet curb "
                      "to curb. When does the permit run out if the clerk wrote no earlier date, and how much of the "
                      "street can the dumpster take up?", "brandon")
    assert a.status == "answered", a.answer
    assert "**August 4, 2029**" in a.answer and "**10 feet**" in a.answer and not a.guard_events
    assert a.answer.count("**“") == 2  # each ask under its own words
    # one calculator for both asks: one calculation, as before
    b = assistant.ask("The inspector marked 12 of our 20 squares. What share is that, and does the whole walk go?",
                      "brandon")
    assert b.status == "answered" and "**“" not in b.answer, b.answer


def test_per_the_clerk_is_no_price_and_a_couple_grand_is_asked(assistant):
    fee = [s for s in read_query("Permit fee for our street opening is $150 per the clerk.").slots if s.kind == "money"]
    assert [(s.value, s.unit) for s in fee] == [("150", "USD")]
    assert [s.unit for s in read_query("$310 per square").slots if s.kind == "money"] == ["USD/square"]
    a = assistant.ask("I gave the town a couple grand as a deposit when they blacktopped my driveway apron in the "
                      "right-of-way. The final bill was $2,475. How much more do I owe?", "delafield")
    assert a.status == "clarify" and "not an exact amount" in a.answer, a.answer


# -- two persons, paving words, a deadline of a story told --------------------------------------------------------------------
def test_two_persons_bills_and_one_shared_deposit(assistant):
    a = assistant.ask("My sister and I built next door to each other and each of us put up a $1,800 cash deposit for "
                      "the ditch landscaping with our culverts. The Town redid the landscaping on both. My bill was $500 "
                      "and hers was $1,100 and frankly neither of us paid within the 30 days. How much of each deposit "
                      "comes back?", "delafield")
    assert a.status == "answered", a.answer
    assert "**$1,300.00**" in a.answer and "**$700.00**" in a.answer


def test_my_figures_among_two_persons_sharing_sentences(assistant):
    a = assistant.ask("My neighbor and I each put up the curb and gutter guarantee with our permits -- mine was $2,500, "
                      "his $2,000. After occupancy the Town found damage: my bill was $900, his was $300. He paid his; "
                      "I never paid mine and it's been over 30 days. How much of MY guarantee comes back?", "delafield")
    assert a.status == "answered", a.answer
    assert "**$1,600.00**" in a.answer and "$1,700.00" not in a.answer


def test_blacktop_that_went_down_is_the_paving(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-07-11")
    a = assistant.ask("permit fee on our street opening is a hundred bucks and the blacktop we're cutting into went "
                      "down three and a half years ago. whats the surcharge?", "brandon")
    assert a.status == "answered" and "**$200.00**" in a.answer, a.answer


def test_a_deadline_of_a_story_told_asks_its_day_a_general_one_is_the_period(assistant):
    story = assistant.ask("The Town of Delafield assigned our house a new number. What's the deadline to get the "
                          "numbers installed?", "delafield")
    assert story.status == "clarify" and "date of assignment" in story.answer, story.answer
    general = assistant.ask("What's the deadline for clearing my sidewalk after it snows?", "brandon")
    assert general.status == "answered" and "24 hours" in general.answer


def test_a_repaving_cost_is_no_permit_fee(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-07-11")
    a = assistant.ask("The phone company is cutting into our street on August 20. The street was repaved in June 2026 "
                      "and it cost the village about $380,000. Is there a surcharge and how big?", "brandon")
    assert a.status == "answered" and "**2 times the permit fee**" in a.answer and "$760,000" not in a.answer, a.answer


def test_a_wage_said_in_words_and_a_crews_time(assistant):
    slots = read_query("one makes thirty-six an hour with benefits and the other forty").slots
    assert [(s.value, s.unit) for s in slots if s.kind == "money"] == [("36", "USD/hour"), ("40", "USD/hour")]
    assert not [s for s in slots if s.kind == "duration"]
    a = assistant.ask("Two of their employees cleared my walk, about two hours, one makes thirty-six an hour with "
                      "benefits and the other forty. What's the charge?", "brandon")
    assert a.status == "answered" and "**$177.00**" in a.answer, a.answer  # 2 x 36 + 2 x 40 + 25


def test_new_walk_shares_counted_on_both_sides(assistant):
    a = assistant.ask("The village is installing a new sidewalk on the other side of our street; there's no sidewalk "
                      "on either side now. The assessment estimate is eighteen thousand. There are five houses on "
                      "that side and 4 of us on this side. What do I pay?", "brandon")
    assert a.status == "answered" and "**$2,000.00**" in a.answer, a.answer


def test_a_moved_day_asks_the_earlier_question_again(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-07-11")
    first = ("We start excavating on Elm Thursday the 26th at 7:00 AM. When do I have to tell the Director of Public "
             "Works, and when do the neighbors need their notice?")
    a1 = assistant.ask(first, "brandon")
    assert "**July 25, 2029 7:00 AM**" in a1.answer, a1.answer
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("What if we push it to Tuesday the 31st, same time?", "brandon", hist)
    assert a2.status == "answered", a2.answer
    assert "**July 30, 2029 7:00 AM**" in a2.answer and "Latest day: **July 30, 2029**" in a2.answer
    assert a2.read_as and "Tuesday, July 31, 2029" in a2.read_as and not a2.guard_events


def test_an_amount_before_a_time_clause_and_a_weekday_night_of_last_week(monkeypatch):
    money = [s.value for s in read_query("I put down a deposit of twenty-two hundred before they started and the "
                                         "bill came in at twenty-five forty.").slots if s.kind == "money"]
    assert money == ["2200", "2540"]
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-07-11")
    from assistant.answering import slots as slot_day

    day = [s for s in read_query("The main broke Tuesday evening last week.", ref=slot_day.today()).slots
           if s.kind == "date"]
    assert [(s.value, s.precision) for s in day] == [("2029-07-03", "day")]


def test_a_weight_said_with_no_unit_is_asked_and_a_unit_reply_completes_it(assistant):
    first = ("Our compact loader is listed at 7,200 on the spec sheet, rubber tires. Do we need a Town permit to run it "
             "down a Town road to the next site?")
    a1 = assistant.ask(first, "delafield")
    assert a1.status == "clarify" and "the unit of “7,200”" in a1.answer, a1.answer
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("pounds", "delafield", hist)
    assert a2.status == "answered" and "3.6 tons" in a2.answer, a2.answer
    # a weight with its unit is read as before
    a3 = assistant.ask("Our compact loader weighs 7,200 lbs, rubber tires. Do we need a Town permit to run it down a "
                       "Town road?", "delafield")
    assert a3.status == "answered" and "3.6 tons" in a3.answer


def test_a_follow_up_that_moves_a_day_by_a_week_reads_as_before(assistant, monkeypatch):
    # (the follow-up readings share the reader's own "a week later" pattern; a name of this session's once hid it)
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-08-17")
    first = "I approved a street opening permit on Wednesday, August 9. If he doesn't renew, when does it run out?"
    a1 = assistant.ask(first, "brandon")
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    for turn, day in (("and if the approval stamp actually says the 11th?", "September 11, 2028"),
                      ("what if it was approved a week later?", "September 15, 2028")):
        a = assistant.ask(turn, "brandon", hist)
        assert a.status == "answered" and day in a.answer, (turn, a.answer)


def test_a_follow_up_changing_one_coarse_date_asks_again(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-07-11")
    first = "We open Birch St on July 24. Permit fee is $200 and the street got its final paving in May 2028. What's the surcharge?"
    a1 = assistant.ask(first, "brandon")
    assert "**$800.00**" in a1.answer, a1.answer
    hist = [{"role": "user", "content": first}, {"role": "assistant", "content": a1.answer}]
    a2 = assistant.ask("what if it was May 2026 instead?", "brandon", hist)
    assert a2.status == "answered" and "**$400.00**" in a2.answer, a2.answer
    assert restated("what if it was May 2026 instead?", first)[0].count("May 2026") == 1


def test_a_fixtures_own_depth_leaves_the_walk_it_leaves(assistant):
    a = assistant.ask("I have a small shop downtown in Brandon. The sidewalk out front is 8 feet wide and I want to set "
                      "a planter out there that's 42 inches deep, not bolted down. Allowed? How much walkway is left?",
                      "brandon")
    assert a.status == "answered", a.answer
    assert "leaves **4.5 feet** of the walk clear, at least the 3 feet required" in a.answer and not a.guard_events


def test_a_rate_for_each_thing_named_with_its_words_before_it():
    from assistant.answering import rates

    sentence = ("Upon approval of the application, the wireless provider shall post bond in the amount of $5,000.00 "
                "for each small wireless facility , each bond to be held until the removal of the facility.")
    assert [(r[0], r[1]) for r in rates._per_unit_rates(sentence, sentence)] == [(5000, "small wireless facility")]
    turn = "The city approved our application for half a dozen small cells. What's the total bond we need to post?"
    w = rates.work_out(turn, read_query(turn).slots, [(sentence, sentence)])
    assert [x.shown() for x in w] == ["$30,000.00"]
    # ("per newsrack authorized": the thing, not the word after it)
    s2 = "an annual fee of $25.00 per newsrack authorized shall be paid to the city."
    assert [r[1] for r in rates._per_unit_rates(s2, s2)] == ["newsrack"]
