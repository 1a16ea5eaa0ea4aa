"""Session 34: readings that decide a figure or an ask, on any question.

Two owners' sidewalk counts ("Mine has 20 slabs ... My neighbor's has 15 slabs and he flagged 9") are one defect check
each; two persons whose figures share sentences ("mine was $450 and his was $1,150") are one calculation each; whether
the whole walk goes and what the owner pays are both answered; a total of owners on both sides with one side's count
gives the other; "from approved subgrade to the top of the first lift" sums the layers; an expiry asked is no window's;
a date of the work's start is no approval's; "when's that due?" of an undated notice asks its date; "how soon
afterward does the utility have to apply" with no own event is the rule's text; a date in brackets after the one chosen
is an aside; "20 months before our dig date" is the paving's age; a leaking water service is an emergency; two trench
lengths are held against their two limits; house numbers' distances and height are checked against the code.
"""

from __future__ import annotations

from assistant.answering import parties, slots


# -- two parties ---------------------------------------------------------------------------------------------------------
def test_two_owners_block_counts_are_one_check_each(assistant):
    a = assistant.ask("The inspector walked our block. My walk is 25 squares and he marked 14 of them. The neighbor's "
                      "has 10 squares and he marked 7. Do either of us have to replace the whole sidewalk?", "brandon")
    assert a.status == "answered", a.answer
    assert "**56%**" in a.answer and "**70%**" in a.answer and not a.guard_events


def test_a_bare_count_after_marked_is_the_part():
    from assistant.answering.routes.checks import _part

    assert _part("Hers has 16 squares, and they marked 12.")[1] == "12"
    assert _part("Hers has 16 squares and they marked 12 inches of it.") is None


def test_two_persons_sharing_sentences_are_split_by_person():
    text = ("We both put in culverts. The Town sent bills, mine was $300 and hers was $900. Neither of us paid within "
            "30 days. I had a $1,000 guarantee and she had $1,500. What does each of us get back?")
    split = parties.split_by_person(text, ("$1,000", "$1,500"))
    assert split is not None and len(split) == 2
    assert "$300" in split[0].text and "$1,000" in split[0].text and "$900" not in split[0].text
    assert "$900" in split[1].text and "$1,500" in split[1].text and "$300" not in split[1].text
    # a figure of one person alone in its own sentence: not this arrangement
    assert parties.split_by_person("My bill was $300. She paid $900 and I paid $100. Who owes what?",
                                   ("$900", "$100")) is None


def test_two_persons_guarantees_are_one_calculation_each(assistant):
    a = assistant.ask("My neighbor and I both put in driveway culverts. I put down a $1,600 cash deposit for the ditch "
                      "landscaping, she gave the town $1,000. The town redid both ditches and billed me $400 and her "
                      "$250. Neither of us paid within 30 days. How much does each of us get back?", "delafield")
    assert a.status == "answered", a.answer
    assert "**$1,200.00**" in a.answer and "**$750.00**" in a.answer and not a.guard_events


def test_neither_of_us_paid_is_unpaid():
    from assistant.answering.routes.charges import UNPAID

    assert UNPAID.search("Neither of us paid within 30 days.")


# -- sidewalks -----------------------------------------------------------------------------------------------------------
def test_the_whole_walk_and_what_we_pay_are_both_answered(assistant):
    a = assistant.ask("They inspected our walk: 30 squares, 21 of them are bad. Replacing the whole walk is estimated at "
                      "$9,000. Do we have to redo all of it, and what would we actually pay?", "brandon")
    assert a.status == "answered" and "**70%**" in a.answer and "**$4,500.00**" in a.answer


def test_a_total_of_both_sides_less_the_far_side(assistant):
    a = assistant.ask("A brand new sidewalk is going in on one side only; there is no sidewalk on either side now. "
                      "There are 10 houses total on the two sides (six on ours, four across the street). The estimate "
                      "is $30,000. What is my share?", "brandon")
    assert a.status == "answered" and "**$3,000.00**" in a.answer, a.answer
    assert "less “four across the street”" in a.answer


# -- roads ---------------------------------------------------------------------------------------------------------------
def test_subgrade_to_the_top_of_the_lift_sums_the_layers(assistant):
    a = assistant.ask("Building a road for the Town on dry ground. From the approved subgrade to the top of the first "
                      "asphalt lift, how thick is the whole section of stone and blacktop?", "delafield")
    assert a.status == "answered" and "**12.5 inches**" in a.answer, a.answer


# -- deadlines -----------------------------------------------------------------------------------------------------------
def test_an_expiry_asked_with_the_start_of_work_asks_the_approval(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("When does our excavation permit for the water lateral expire? We start digging on September 20.",
                      "brandon")
    assert a.status == "clarify", a.answer
    assert "approved" in a.answer and "when the work starts" in a.answer
    assert "November 15" not in a.answer  # the window of no openings gives no expiry


def test_when_is_that_due_of_an_undated_notice_asks_its_date(assistant):
    a = assistant.ask("The Town wrote me that they will put a culvert under my existing driveway and I owe a deposit "
                      "for it. When's that due?", "delafield")
    assert a.status == "clarify" and "notice" in a.answer.lower()


def test_how_soon_asked_of_the_rule_is_its_text(assistant):
    a = assistant.ask("How soon after an emergency excavation does the utility have to apply for the permit?",
                      "brandon")
    assert a.status == "answered" and not any(c.name == "deadline" for c in a.tool_calls)


def test_a_bracketed_date_after_the_chosen_one_is_an_aside(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-05")
    a = assistant.ask("Our insurer sent the Town a cancellation notice on March 1 for the policy on our opening permit "
                      "(the permit was issued last November). What's the earliest the cancellation can take effect?",
                      "delafield")
    assert a.status == "answered" and "**March 11, 2029**" in a.answer, a.answer


def test_a_leaking_water_service_is_an_emergency():
    assert slots.is_emergency("We had to dig up a leaking water service under the street.")
    assert not slots.is_emergency("We are replacing an old water service next month.")


# -- surcharge -----------------------------------------------------------------------------------------------------------
def test_an_age_before_our_dig_date_is_the_pavings(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-05")
    a = assistant.ask("Opening permit for a lateral on Elm this summer. The final paving went down 30 months before our "
                      "dig date. The permit fee is $100. What's the surcharge?", "brandon")
    assert a.status == "answered" and "**$300.00**" in a.answer, a.answer


# -- checks --------------------------------------------------------------------------------------------------------------
def test_two_trench_lengths_in_yards_against_their_limits(assistant):
    a = assistant.ask("We're laying a sewer main. The excavator runs about 90 yards ahead of the pipe crew and the "
                      "backfill trails 200 yards behind where pipe's been laid. Is that within the limits?", "brandon")
    assert a.status == "answered", a.answer
    assert "270 feet" in a.answer and "**20 feet** over the 250-foot" in a.answer and "600 feet" in a.answer
    assert "**100 feet** over the 500-foot" in a.answer


def test_house_number_placement_checked(assistant):
    a = assistant.ask("Our house numbers will be on a post 3 feet off the ground, 30 ft from the edge of the road "
                      "pavement, and 2 yards from the side of the driveway. Does that pass?", "delafield")
    assert a.status == "answered" and "**It does not pass**" in a.answer, a.answer
    assert "no more than 25 feet from the edge of the road pavement, and it is 30 feet" in a.answer
    assert "6 feet (“2 yards”)" in a.answer


def test_house_number_placement_not_guessed_when_a_length_names_nothing(assistant):
    a = assistant.ask("Our house numbers are on a post 3 feet from it. Does that pass?", "delafield")
    assert "check_house_number_placement" not in {c.name for c in a.tool_calls}


# -- codes without a catalogue: a fuller event of an unquoted sentence; fines each day; counts of things ---------------
def test_an_unquoted_sentence_whose_event_the_dated_words_name_more_fully_is_counted():
    from datetime import date

    from assistant.answering import periods
    from assistant.answering.reading import read_slots

    quoted = ["An owner may petition for a hearing within fifteen (15) calendar days of receipt of the notice of "
              "removal."]
    section = ["Proceedings for review may be instituted in any court within thirty (30) calendar days of the date of "
               "the notice of decision of said Commissioner."]
    q = "The notice of decision is dated March 1, 2027. What's the last day to file in court for a review?"
    (c,) = periods.count_from(q, read_slots(q, ref=date(2027, 3, 5)), quoted, extra=tuple(section))
    assert c.day == date(2027, 3, 31) and c.sentence == section[0]
    # a sentence named no more fully than the quoted one is not taken over it
    q2 = "The notice of removal came March 1, 2027. What's the last day to petition?"
    (c2,) = periods.count_from(q2, read_slots(q2, ref=date(2027, 3, 5)), quoted, extra=tuple(section))
    assert c2.sentence == quoted[0]


def test_the_most_a_fine_each_day_comes_to():
    from decimal import Decimal

    from assistant.answering import rates
    from assistant.answering.reading import read_query

    section = ("Whoever violates this chapter shall be fined not more than two hundred dollars ($200.00). Each day such "
               "violation continues shall constitute a separate offense.")
    fine, each = section.split(". ")[0] + ".", section.split(". ")[1]
    q = "The walk was left unpermitted for 6 days. What's the most the fines could add up to?"
    (w,) = rates.work_out(q, list(read_query(q).of_origin("turn")), [(fine, section)])
    assert w.result == Decimal("1200.00") and w.maximum and w.others == (each,)
    # a count of days is needed, and one ceiling only
    q2 = "What's the most the fines could add up to?"
    assert rates.work_out(q2, list(read_query(q2).of_origin("turn")), [(fine, section)]) == []
    two = section + " A second offense shall be fined not more than $500.00."
    assert rates.work_out(q, list(read_query(q).of_origin("turn")), [(fine, two)]) == []


def test_things_a_chapter_counts_are_counts():
    from assistant.answering.reading import read_query

    got = {(s.unit, int(s.number)) for s in read_query("We will plant 240 new plants and set out nine newsracks.").slots
           if s.kind == "count"}
    assert {("plants", 240), ("newsracks", 9)} <= got


def test_next_month_is_a_stretch_whose_day_is_asked():
    from datetime import date

    from assistant.answering import periods
    from assistant.answering.reading import read_slots

    parade = "The applicant has submitted an application for a parade permit at least one month prior to the date of the parade;"
    q = "Our parade is sometime next month. When's the last day to turn in the parade permit application?"
    got = periods.stretch_needed(q, read_slots(q, ref=date(2027, 9, 23)), [parade])
    assert got is not None and got[0].span.text.lower().endswith("next month")
    q2 = "Our parade is next Thursday. When's the last day to turn in the parade permit application?"
    assert periods.stretch_needed(q2, read_slots(q2, ref=date(2027, 9, 23)), [parade]) is None


def test_a_stretch_with_two_near_rules_asks_the_day_too(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-03-05")
    a = assistant.ask("contractor's coming sometime next week to redo my sidewalk. when do i need the permit by",
                      "brandon")
    assert a.status == "clarify" and "“next week” names no single day" in a.answer and "Which date is it" in a.answer


def test_backing_over_the_curb_and_pedestrians_blocked_are_the_codes_words():
    from assistant.retrieval.expansion import expand

    assert "damage" in expand("my son backed the pickup over the curb", "brandon")
    assert {"temporary", "interrupted"} <= set(expand("If the walk is blocked, what do we provide for pedestrians?",
                                                     "brandon").split())


def test_a_letter_left_out_is_read_in_place_and_a_letter_changed_is_not():
    from assistant.retrieval.expansion import expand

    fixed = expand("can i shovle the snow into the stret", "brandon")
    assert fixed.startswith("can i shovel the snow into the street")
    assert expand("how bright do the lites need to be", "brandon").startswith("how bright do the lites")


def test_boxes_of_a_paper_are_newsracks():
    from assistant.answering.rates import _same
    from assistant.retrieval.expansion import expand

    assert _same("newsrack", "boxes") and not _same("newsrack", "carts")
    assert "newsrack" in expand("We put out a free weekly paper. We'll have nine boxes on city sidewalks.", "brandon")


def test_the_cost_with_its_penalty_from_a_neighbour_of_the_quoted_sentence():
    from decimal import Decimal

    from assistant.answering import rates
    from assistant.answering.reading import read_query

    section = ("The Director shall cause such work to be done. The Director shall keep a record of the exact cost. Each "
               "such person shall be liable to the city for the cost of such work, plus a penalty of 10% of such cost.")
    q = "The city cleared my walk and the crew's cost came to $340. What's the most I could end up owing all-in?"
    (w,) = rates.work_out(q, list(read_query(q).of_origin("turn")), [("The Director shall cause such work to be done.",
                                                                      section)])
    assert w.result == Decimal("374.00") and "plus a penalty of 10%" in w.sentence
    # a neighbour that only takes a share, not added to the cost, is not worked from
    other = "The Director shall cause such work to be done. The owner pays 10% of such cost."
    assert rates.work_out(q, list(read_query(q).of_origin("turn")),
                          [("The Director shall cause such work to be done.", other)]) == []


def test_a_duty_whose_time_ran_out_is_no_papers_expiry(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2028-03-22")
    a = assistant.ask("The snow quit around 10 PM on Saturday, March 18. When exactly did my neighbor's time to clear his "
                      "walk run out?", "brandon")
    assert a.status == "answered" and "**March 20, 2028 10:00 PM**" in a.answer, a.answer


def test_house_numbers_distance_a_code_does_not_regulate_is_left_to_the_quotes(assistant):
    a = assistant.ask("Our front door is 120 feet from the road. How big do the house numbers need to be, and is by the "
                      "door enough?", "brandon")
    assert "check_house_number_placement" not in {c.name for c in a.tool_calls}
    assert "2 1/2 inches" in a.answer


def test_no_municipality_and_two_codes_notice_rules_near_asks_which(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-08")
    a = assistant.ask("We start trenching in the road Monday, October 4 at 7 AM. What's the latest I can give the "
                      "required notice before we start?")
    assert a.status == "clarify" and "Brandon" in a.answer and "Delafield" in a.answer


def test_a_fee_asked_is_no_share_of_a_cost():
    from assistant.answering import rates
    from assistant.answering.reading import read_query

    share = "The property owner will be assessed 50% of the cost of sidewalk reconstruction."
    q = "how much is the permit to redo my own sidewalk?"
    assert rates.needs_amount(q, list(read_query(q).of_origin("turn")), share) is None
    q2 = "how much will I be assessed for my own sidewalk?"
    assert rates.needs_amount(q2, list(read_query(q2).of_origin("turn")), share) is not None


def test_a_named_partys_total_fine_asks_which_case():
    from assistant.answering import conditions

    cases = ["Any violation at a sidewalk abutting land zoned solely for residential use with sixteen or fewer units "
             "shall result in a fine of one hundred ($100.00) dollars for each such violation.",
             "Any violation at a sidewalk abutting land zoned for any use other than solely residential shall result in "
             "a fine of two hundred fifty ($250.00) dollars for each such violation."]
    q = "The building next door hasn't touched its sidewalk in four days. What's the total fine they're looking at?"
    assert conditions.condition_needed(q, cases) is not None
    assert conditions.condition_needed("What are the fines for not shoveling?", cases) is None


def test_it_came_yesterday_is_the_bills_receipt(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-06-30")
    a = assistant.ask("The village hauled a pile of lumber off the sidewalk in front of my place and mailed me the bill. "
                      "It came yesterday. How long do I have to pay it?", "brandon")
    assert a.status == "answered" and "**July 9, 2027**" in a.answer, a.answer


def test_two_streets_paving_ages_before_the_dig_each_with_the_shared_fee(assistant, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2029-12-27")
    a = assistant.ask("Two street opening permits for next summer, both at a $100 permit fee. The first cut is in a block "
                      "repaved about 8 months before their dig date; the second cut is in a stretch paved 3 1/2 years "
                      "before. What surcharge does each one owe?", "brandon")
    assert a.status == "answered" and "**$500.00**" in a.answer and "**$200.00**" in a.answer, a.answer


def test_added_codes_fines_each_day_from_the_penalty_section_and_an_unquoted_period(with_samples, monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2027-09-23")
    a = with_samples("chagrin-falls", "boston")
    fines = a.ask("Contractor re-poured a stretch of public walk with no permit and left it that way for 9 days before "
                  "we caught it. If each day is charged, what's the most the fines could add up to?", "chagrin-falls")
    assert fines.status == "answered" and "at most **$4,500.00**" in fines.answer, fines.answer
    assert {c.section for c in fines.citations} >= {"903.99"}
    review = a.ask("A store owner lost their shopping-cart hearing. The commissioner's notice of decision is dated last "
                   "Friday. If they want a court to review it, what's the last day they can file?", "boston")
    assert review.status == "answered" and "**October 18, 2027**" in review.answer, review.answer
    assert any("notice of decision" in c.quote for c in review.citations)
